// Schema plus semantic validation of one schedule file. Pure: text in, a typed file or a list
// of problems (JSON pointer path + reason) out. Used by the loader, hot reload and the CLI.
import Value from 'typebox/value'
import { Compile } from 'typebox/compile'
import { ScheduleFileSchema, WEEKDAY_KEYS, type ScheduleFile, type SegmentTuple, type WeeklyTemplate } from './schema'
import { dayNumber, isKnownTimeZone, parseLocalTime, weekdayOfDayNumber } from './zone'
import { EXCHANGE_IDENTITIES } from './exchanges'
import { isSupportedMic } from './mics'
import { checkPhaseDays, checkPhasesStatic } from './validate-phases'

export interface ValidationProblem {
  path: string
  reason: string
}

/** `warnings`: legal but suspicious data (the file loads; `openbell calendars check` prints them). */
export type ValidationResult = { ok: true; file: ScheduleFile; warnings: ValidationProblem[] } | { ok: false; problems: ValidationProblem[] }

const MAX_PROBLEMS = 50

export function validateScheduleText(text: string, expectedMic?: string): ValidationResult {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    return { ok: false, problems: [{ path: '', reason: `invalid JSON: ${(error as Error).message}` }] }
  }
  return validateSchedule(parsed, expectedMic)
}

// Checking with a compiled schema costs about a quarter of Value.Check on the repository's files
// (measured at a cold start, as at boot); Value.Errors still words the problems of a bad file.
let compiledSchema: ReturnType<typeof Compile<typeof ScheduleFileSchema>> | null = null

export function validateSchedule(value: unknown, expectedMic?: string): ValidationResult {
  compiledSchema ??= Compile(ScheduleFileSchema)
  if (!compiledSchema.Check(value)) {
    const problems = [...Value.Errors(ScheduleFileSchema, value)]
      .filter((error) => error.keyword !== 'boolean')
      .slice(0, MAX_PROBLEMS)
      .map((error) => ({ path: error.instancePath || '/', reason: error.message }))
    return { ok: false, problems }
  }
  const file = value as ScheduleFile
  const warnings: ValidationProblem[] = []
  const problems = semanticProblems(file, expectedMic, (path, reason) => warnings.push({ path, reason }))
  return problems.length ? { ok: false, problems: problems.slice(0, MAX_PROBLEMS) } : { ok: true, file, warnings: warnings.slice(0, MAX_PROBLEMS) }
}

function semanticProblems(file: ScheduleFile, expectedMic: string | undefined, warn: Add): ValidationProblem[] {
  const problems: ValidationProblem[] = []
  const add = (path: string, reason: string) => problems.push({ path, reason })

  if (expectedMic !== undefined && file.mic !== expectedMic) add('/mic', `mic ${file.mic} does not match the file name ${expectedMic}.json`)
  if (!isKnownTimeZone(file.timezone)) add('/timezone', `time zone "${file.timezone}" is not known to Intl`)
  if (isSupportedMic(file.mic) && EXCHANGE_IDENTITIES[file.mic].timezone !== file.timezone)
    add('/timezone', `${file.mic} trades in ${EXCHANGE_IDENTITIES[file.mic].timezone}; a calendar cannot change the exchange's time zone`)

  checkWeekly(file.weekly, '/weekly', add)

  if (file.always_open) {
    checkAlwaysOpen(file, add)
    return problems
  }

  if (!file.coverage) {
    add('/coverage', 'coverage is required unless always_open is true')
    return problems
  }
  const from = dayNumber(file.coverage.from)
  const to = dayNumber(file.coverage.to)
  if (Number.isNaN(from)) add('/coverage/from', `${file.coverage.from} is not a calendar date`)
  if (Number.isNaN(to)) add('/coverage/to', `${file.coverage.to} is not a calendar date`)
  if (from > to) add('/coverage', 'coverage.from is after coverage.to')
  const inCoverage = (day: number) => day >= from && day <= to

  const seasonOf = checkSeasons(file, inCoverage, add)
  const templateFor = (day: number): SegmentTuple[] => {
    const weekly = seasonOf(day) ?? file.weekly
    return weekly[WEEKDAY_KEYS[weekdayOfDayNumber(day)]!]
  }

  const seenIn = new Map<string, string>()
  const checkDate = (map: string, date: string): number => {
    const path = `/${map}/${date}`
    const day = dayNumber(date)
    if (Number.isNaN(day)) {
      add(path, `${date} is not a calendar date`)
      return day
    }
    if (!inCoverage(day)) add(path, `${date} is outside coverage ${file.coverage!.from}..${file.coverage!.to}`)
    const other = seenIn.get(date)
    if (other) add(path, `${date} is also listed in ${other}; a date may appear in one of holidays, early_closes, late_opens, special_sessions, provisional`)
    else seenIn.set(date, map)
    return day
  }

  for (const date of Object.keys(file.holidays)) checkDate('holidays', date)

  // An early close or a late open must fall strictly inside that day's regular session.
  const checkShortenedDay = (map: 'early_closes' | 'late_opens', date: string, field: 'close' | 'open', time: string, what: string) => {
    const day = checkDate(map, date)
    if (Number.isNaN(day)) return
    const segments = templateFor(day)
    const first = segments[0]
    const last = segments[segments.length - 1]
    const minutes = parseLocalTime(time)
    if (!first || !last) add(`/${map}/${date}`, `${date} has no regular session to ${what} (use special_sessions)`)
    else if (!(minutes > parseLocalTime(first[0]) && minutes < parseLocalTime(last[1])))
      add(`/${map}/${date}/${field}`, `${field === 'close' ? 'early close' : 'late open'} ${time} is not inside the regular session ${first[0]}-${last[1]}`)
  }
  for (const [date, entry] of Object.entries(file.early_closes)) checkShortenedDay('early_closes', date, 'close', entry.close, 'close early')
  for (const [date, entry] of Object.entries(file.late_opens)) checkShortenedDay('late_opens', date, 'open', entry.open, 'open late')

  for (const [date, entry] of Object.entries(file.special_sessions)) {
    checkDate('special_sessions', date)
    checkSegments(entry.segments, `/special_sessions/${date}/segments`, add)
  }
  for (const date of Object.keys(file.provisional ?? {})) {
    const day = checkDate('provisional', date)
    // UNKNOWN all day on a day the template closes: right only when a special session may be held.
    if (!Number.isNaN(day) && templateFor(day).length === 0)
      warn(`/provisional/${date}`, `${date} has no regular session, so this turns a closed day UNKNOWN; keep it only if a special session may be held that day`)
  }
  checkBasis(file, from, to, add)
  checkPhasesStatic(file, inCoverage, add)
  // Bands resolve against each day's plan, which needs the rest of the file to be sound.
  if (problems.length === 0) checkPhaseDays(file, add, warn)
  return problems
}

const VERSION_2_FIELDS = ['basis', 'basis_exceptions', 'provisional'] as const

/** Version 2: every covered year has a basis; exceptions name entered dates. Version 1 has none of these. */
function checkBasis(file: ScheduleFile, from: number, to: number, add: Add): void {
  if (file.schema_version === 1) {
    for (const field of VERSION_2_FIELDS) if (file[field] !== undefined) add(`/${field}`, `${field} needs schema_version 2 or later`)
    return
  }
  if (!file.basis) {
    add('/basis', `schema_version ${file.schema_version} needs basis: {"<year>": "published" | "rule"} for every covered year`)
    return
  }
  const firstYear = Number(file.coverage!.from.slice(0, 4))
  const lastYear = Number(file.coverage!.to.slice(0, 4))
  for (let year = firstYear; year <= lastYear; year++) {
    if (!file.basis[String(year)]) add('/basis', `basis has no entry for ${year}, a covered year`)
  }
  for (const year of Object.keys(file.basis)) {
    if (Number(year) < firstYear || Number(year) > lastYear) add(`/basis/${year}`, `${year} is outside coverage`)
  }
  for (const date of Object.keys(file.basis_exceptions ?? {})) {
    const day = dayNumber(date)
    if (Number.isNaN(day) || day < from || day > to) add(`/basis_exceptions/${date}`, `${date} is not a date inside coverage`)
    else if (!ENTERED_MAPS.some((map) => file[map][date] !== undefined)) add(`/basis_exceptions/${date}`, `${date} is not an entered date (holidays, early_closes, late_opens or special_sessions)`)
    else if (file.basis_exceptions![date] === file.basis[date.slice(0, 4)]) add(`/basis_exceptions/${date}`, `${date} has the basis of its year (${file.basis[date.slice(0, 4)]}); an exception must differ`)
  }
  // A rule-derived year names the rule and the year it was applied to in sources.
  const sourceText = file.sources.map((source) => `${source.covers} ${source.note ?? ''}`).join(' ')
  const ruleYears = new Set([
    ...Object.entries(file.basis).flatMap(([year, basis]) => (basis === 'rule' ? [year] : [])),
    ...Object.entries(file.basis_exceptions ?? {}).flatMap(([date, basis]) => (basis === 'rule' ? [date.slice(0, 4)] : [])),
  ])
  for (const year of [...ruleYears].sort()) {
    if (!sourceText.includes(year)) add('/sources', `no source mentions ${year}, whose dates are rule-derived; name the rule and the years it was applied to`)
  }
}

const ENTERED_MAPS = ['holidays', 'early_closes', 'late_opens', 'special_sessions'] as const

type Add = (path: string, reason: string) => void

function checkSegments(segments: SegmentTuple[], path: string, add: Add): void {
  let previousEnd = -1
  segments.forEach(([startText, endText], index) => {
    const start = parseLocalTime(startText)
    const end = parseLocalTime(endText)
    if (start === 24 * 60) add(`${path}/${index}/0`, 'a segment cannot start at 24:00')
    if (!(start < end)) add(`${path}/${index}`, `segment ${startText}-${endText} does not end after it starts`)
    if (start <= previousEnd) add(`${path}/${index}`, `segment ${startText}-${endText} overlaps or touches the previous one; list segments in order with a gap between them`)
    previousEnd = end
  })
}

function checkWeekly(weekly: WeeklyTemplate, path: string, add: Add): void {
  for (const key of WEEKDAY_KEYS) checkSegments(weekly[key], `${path}/${key}`, add)
}

function checkAlwaysOpen(file: ScheduleFile, add: Add): void {
  for (const key of WEEKDAY_KEYS) {
    const segments = file.weekly[key]
    if (segments.length !== 1 || segments[0]![0] !== '00:00' || segments[0]![1] !== '24:00')
      add(`/weekly/${key}`, 'an always_open venue trades 00:00-24:00 every day')
  }
  if (file.coverage) add('/coverage', 'an always_open venue has no coverage horizon; remove coverage')
  if (file.seasons?.length) add('/seasons', 'an always_open venue has no seasons')
  for (const map of ENTERED_MAPS) {
    if (Object.keys(file[map]).length) add(`/${map}`, `an always_open venue has no ${map}`)
  }
  if (Object.keys(file.provisional ?? {}).length) add('/provisional', 'an always_open venue has no provisional dates')
  if (file.phases) add('/phases', 'an always_open venue has no phases (it trades continuously)')
}

/** Validates seasons and returns a lookup from day number to the season's weekly template. */
function checkSeasons(file: ScheduleFile, inCoverage: (day: number) => boolean, add: Add): (day: number) => WeeklyTemplate | undefined {
  const ranges: { from: number; to: number; weekly: WeeklyTemplate }[] = []
  ;(file.seasons ?? []).forEach((season, index) => {
    const path = `/seasons/${index}`
    const from = dayNumber(season.from)
    const to = dayNumber(season.to)
    if (Number.isNaN(from)) add(`${path}/from`, `${season.from} is not a calendar date`)
    if (Number.isNaN(to)) add(`${path}/to`, `${season.to} is not a calendar date`)
    if (from > to) add(path, 'season.from is after season.to')
    if (!inCoverage(from) || !inCoverage(to)) add(path, `season ${season.from}..${season.to} is not inside coverage`)
    for (const other of ranges) {
      if (from <= other.to && to >= other.from) add(path, `season ${season.from}..${season.to} overlaps another season`)
    }
    checkWeekly(season.weekly, `${path}/weekly`, add)
    ranges.push({ from, to, weekly: season.weekly })
  })
  return (day) => ranges.find((range) => day >= range.from && day <= range.to)?.weekly
}
