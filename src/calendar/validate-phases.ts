// Validation of a file's trading phases (schema_version 3). Static checks (version, offsets,
// seasons, dates, sources) run with the rest of the file; the bands of every trading day are
// then resolved against that day's plan, because an anchor moves with an early close or a late
// open: a band must resolve to from < to inside the local day and not overlap another band
// that day. Each problem names the band's JSON path and the first date it fails on.
import { planDay } from './day-plan'
import { bandLookup, offsetProblem, parsePhaseTime, resolveBands } from './phases'
import type { PhaseBand, ScheduleFile } from './schema'
import { dayNumber, formatLocalTime } from './zone'

type Add = (path: string, reason: string) => void

/** What a `sources` entry's `covers` says when it is the source of the trading phases. */
export const PHASE_SOURCE_MARK = 'trading phases'

export function checkPhasesStatic(file: ScheduleFile, inCoverage: (day: number) => boolean, add: Add): void {
  const phases = file.phases
  if (!phases) return
  if (file.schema_version !== 3) {
    add('/phases', `phases needs schema_version 3 (this file says ${file.schema_version})`)
    return
  }
  checkBandTimes(phases.bands, '/phases/bands', add)
  const ranges: { from: number; to: number }[] = []
  ;(phases.seasons ?? []).forEach((season, index) => {
    const path = `/phases/seasons/${index}`
    const from = dayNumber(season.from)
    const to = dayNumber(season.to)
    if (Number.isNaN(from)) add(`${path}/from`, `${season.from} is not a calendar date`)
    if (Number.isNaN(to)) add(`${path}/to`, `${season.to} is not a calendar date`)
    if (from > to) add(path, 'season.from is after season.to')
    else if (!inCoverage(from) || !inCoverage(to)) add(path, `phase season ${season.from}..${season.to} is not inside coverage`)
    if (ranges.some((other) => from <= other.to && to >= other.from)) add(path, `phase season ${season.from}..${season.to} overlaps another phase season`)
    ranges.push({ from, to })
    checkBandTimes(season.bands, `${path}/bands`, add)
  })
  for (const [date, entry] of Object.entries(phases.dates ?? {})) {
    const day = dayNumber(date)
    if (Number.isNaN(day)) add(`/phases/dates/${date}`, `${date} is not a calendar date`)
    else if (!inCoverage(day)) add(`/phases/dates/${date}`, `${date} is outside coverage`)
    checkBandTimes(entry.bands, `/phases/dates/${date}/bands`, add)
  }
  if (!file.sources.some((source) => source.covers.toLowerCase().includes(PHASE_SOURCE_MARK)))
    add('/sources', `a file with phases needs a sources entry whose covers says "${PHASE_SOURCE_MARK}" (publisher, URL, the document read and its date)`)
}

/** Offsets within 1..720, and a band between two fixed times that does not end after it starts. */
function checkBandTimes(bands: readonly PhaseBand[], path: string, add: Add): void {
  bands.forEach((band, index) => {
    for (const field of ['from', 'to'] as const) {
      const problem = offsetProblem(band[field])
      if (problem) add(`${path}/${index}/${field}`, problem)
    }
    const from = parsePhaseTime(band.from)
    const to = parsePhaseTime(band.to)
    if (from?.kind === 'fixed' && to?.kind === 'fixed' && !(from.minutes < to.minutes)) add(`${path}/${index}`, `${band.phase} ${band.from}-${band.to} does not end after it starts`)
  })
}

/**
 * Resolves the bands of every covered trading day (provisional days have no phases). Run only on
 * an otherwise valid file: the day plans need sound dates and segments.
 */
export function checkPhaseDays(file: ScheduleFile, add: Add, warn: Add): void {
  const lookup = bandLookup(file)
  if (!lookup || !file.coverage) return
  const failures = new Map<string, { reason: string; more: number }>()
  const fail = (path: string, reason: string) => {
    const seen = failures.get(path)
    if (seen) seen.more++
    else failures.set(path, { reason, more: 0 })
  }
  const provisional = file.provisional ?? {}
  const first = dayNumber(file.coverage.from)
  const last = dayNumber(file.coverage.to)
  for (let day = first; day <= last; day++) {
    const plan = planDay(file, day)
    if (plan.segments.length === 0 || provisional[plan.date]) continue
    const { bands, path } = lookup(day, plan.date)
    const what = plan.rule === 'regular' ? '' : ` (${plan.rule.replace('_', ' ')}${plan.name ? `: ${plan.name}` : ''})`
    const resolved = resolveBands(bands, plan)
    let previous: (typeof resolved)[number] | null = null
    for (const band of resolved) {
      const source = bands[band.index]!
      const shown = `${band.phase} ${source.from}-${source.to} resolves on ${plan.date}${what} to ${clock(band.start)}-${clock(band.end)}`
      if (band.start < 0 || band.end > 24 * 60) fail(`${path}/${band.index}`, `${shown}, outside the local day`)
      else if (!(band.start < band.end)) fail(`${path}/${band.index}`, `${shown}, which does not end after it starts`)
      else if (previous && band.start < previous.end) {
        const other = bands[previous.index]!
        fail(`${path}/${band.index}`, `${shown}, which overlaps band ${previous.index} (${other.phase} ${other.from}-${other.to}); bands of one day must not overlap`)
      }
      // Compare each band with the one reaching furthest so far, so a long band is checked against all after it.
      if (band.start < band.end && (!previous || band.end > previous.end)) previous = band
    }
  }
  for (const [path, { reason, more }] of failures) add(path, more ? `${reason} (and on ${more} more day${more === 1 ? '' : 's'})` : reason)
  for (const date of Object.keys(file.phases?.dates ?? {})) {
    const plan = planDay(file, dayNumber(date))
    if (provisional[date]) warn(`/phases/dates/${date}`, `${date} is provisional, so it has no phases until it is confirmed`)
    else if (plan.segments.length === 0) warn(`/phases/dates/${date}`, `${date} has no open segment, so these bands never apply`)
  }
}

/** Local minutes as HH:MM, with a sign or a day overflow shown as it is (for messages). */
function clock(minutes: number): string {
  if (minutes < 0) return `-${formatLocalTime(-minutes)}`
  return formatLocalTime(minutes)
}
