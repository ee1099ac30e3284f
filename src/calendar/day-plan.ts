// What one local calendar date looks like at an exchange: which rule applies and the trading
// segments that result. Pure function of (file, date); the compiler and /v5/historical use it.
import { WEEKDAY_KEYS, type ScheduleFile, type SegmentTuple, type WeeklyTemplate } from './schema'
import { dateOfDayNumber, dayNumber, parseLocalTime, weekdayOfDayNumber } from './zone'

export type DayRule = 'regular' | 'weekend' | 'holiday' | 'early_close' | 'late_open' | 'special_session' | 'continuous'

export interface DayPlan {
  day: number
  date: string
  weekday: (typeof WEEKDAY_KEYS)[number]
  rule: DayRule
  /** Name of the holiday, early close, late open or special session. */
  name: string | null
  /** Season whose template applies, if any. */
  season: string | null
  /** Local [start, end) minutes, ordered; 1440 = 24:00. */
  segments: [number, number][]
  /** The template's segments before any early close or late open was applied. */
  templateSegments: [number, number][]
}

const toMinutes = (segments: SegmentTuple[]): [number, number][] => segments.map(([start, end]) => [parseLocalTime(start), parseLocalTime(end)])

type Templates = Readonly<Record<(typeof WEEKDAY_KEYS)[number], readonly (readonly [number, number])[]>>

/** A file's weekly templates in minutes and its season ranges as day numbers, read once per file. */
interface ParsedTemplates {
  weekly: Templates
  seasons: { from: number; to: number; name: string; weekly: Templates }[]
}

const frozenTemplates = (weekly: WeeklyTemplate): Templates =>
  Object.freeze(Object.fromEntries(WEEKDAY_KEYS.map((key) => [key, Object.freeze(toMinutes(weekly[key]).map((segment) => Object.freeze(segment)))]))) as Templates

// Compiling and validating plan every covered day of a file: parsing its templates and season
// dates once per file instead of once per day keeps a load of every calendar cheap. Loaded files
// are never mutated (a reload validates a new object), and the shared arrays are frozen.
const parsedTemplates = new WeakMap<ScheduleFile, ParsedTemplates>()

function templatesOf(file: ScheduleFile): ParsedTemplates {
  let parsed = parsedTemplates.get(file)
  if (!parsed) {
    parsed = {
      weekly: frozenTemplates(file.weekly),
      seasons: (file.seasons ?? []).map((season) => ({ from: dayNumber(season.from), to: dayNumber(season.to), name: season.name, weekly: frozenTemplates(season.weekly) })),
    }
    parsedTemplates.set(file, parsed)
  }
  return parsed
}

export function planDay(file: ScheduleFile, day: number): DayPlan {
  const date = dateOfDayNumber(day)
  const weekday = WEEKDAY_KEYS[weekdayOfDayNumber(day)]!
  const templates = templatesOf(file)
  const season = templates.seasons.find((s) => day >= s.from && day <= s.to) ?? null
  const templateSegments = (season?.weekly ?? templates.weekly)[weekday] as [number, number][]
  const base = { day, date, weekday, season: season?.name ?? null, templateSegments }

  if (file.always_open) return { ...base, rule: 'continuous', name: null, segments: [[0, 1440]] }

  const holiday = file.holidays[date]
  if (holiday !== undefined) return { ...base, rule: 'holiday', name: holiday, segments: [] }

  const special = file.special_sessions[date]
  if (special) return { ...base, rule: 'special_session', name: special.name, segments: toMinutes(special.segments) }

  const early = file.early_closes[date]
  if (early) {
    const close = parseLocalTime(early.close)
    const segments = templateSegments.filter(([start]) => start < close).map(([start, end]): [number, number] => [start, Math.min(end, close)])
    return { ...base, rule: 'early_close', name: early.name, segments }
  }

  const late = file.late_opens[date]
  if (late) {
    const open = parseLocalTime(late.open)
    const segments = templateSegments.filter(([, end]) => end > open).map(([start, end]): [number, number] => [Math.max(start, open), end])
    return { ...base, rule: 'late_open', name: late.name, segments }
  }

  if (templateSegments.length === 0) return { ...base, rule: 'weekend', name: null, segments: [] }
  return { ...base, rule: 'regular', name: null, segments: templateSegments }
}

/**
 * A midday break: a gap between two segments of one day where neither touches midnight (a gap
 * next to midnight is an overnight maintenance break, as on CME Globex, not a lunch).
 */
export function lunchBreak(plan: DayPlan): { start: number; end: number } | null {
  const { segments } = plan
  for (let i = 1; i < segments.length; i++) {
    const before = segments[i - 1]!
    const after = segments[i]!
    if (before[0] !== 0 && after[1] !== 1440) return { start: before[1], end: after[0] }
  }
  return null
}
