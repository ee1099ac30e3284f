// What a venue's calendar says about whole local dates (/v5/calendar, /v5/holidays, the
// iCalendar feeds, the get_market_calendar tool): the kind of day, its name and basis, its
// sessions as UTC instants and local times, and its trading phases. Outside coverage, on a
// provisional date or without a valid file, a day is `unknown` / `provisional`: never guessed.
import { consecutiveDayOffsets, dayConverter, type CompiledCalendar } from './compile'
import { planDay, type DayPlan } from './day-plan'
import { bandLookup, dayTimeline, resolveBands, type Phase } from './phases'
import { dateOfDayNumber, dayNumber, formatLocalTime } from './zone'

export const DAY_KINDS = ['regular', 'early_close', 'late_open', 'special', 'holiday', 'weekend', 'provisional', 'unknown'] as const
export type DayKind = (typeof DAY_KINDS)[number]
export type DayBasis = 'published' | 'rule' | 'provisional'

export interface DaySession {
  open: string
  close: string
  open_local: string
  close_local: string
}

export interface DayPhase {
  phase: Exclude<Phase, 'closed'>
  from: string
  to: string
  from_local: string
  to_local: string
}

export interface CalendarDay {
  date: string
  kind: DayKind
  name: string | null
  basis: DayBasis | null
  provisional_why?: string
  sessions: DaySession[]
  /** The day's non-closed phases in order; null when the venue's file has no phases or the day is not known. */
  phases: DayPhase[] | null
}

const KIND_OF_RULE: Record<DayPlan['rule'], DayKind> = {
  regular: 'regular',
  continuous: 'regular',
  weekend: 'weekend',
  holiday: 'holiday',
  early_close: 'early_close',
  late_open: 'late_open',
  special_session: 'special',
}

const UNKNOWN_DAY = { kind: 'unknown' as const, name: null, basis: null, sessions: [], phases: null }

/** Days numbered `from..to` (days since 1970-01-01, local dates of the venue), inclusive. */
export function calendarDays(calendar: CompiledCalendar | null, from: number, to: number): CalendarDay[] {
  const lookup = calendar ? bandLookup(calendar.file) : null
  const offsetAt = calendar ? consecutiveDayOffsets(calendar.timezone) : undefined
  const days: CalendarDay[] = []
  for (let day = from; day <= to; day++) days.push(calendarDay(calendar, day, lookup, offsetAt))
  return days
}

export function calendarDay(calendar: CompiledCalendar | null, day: number, lookup = calendar ? bandLookup(calendar.file) : null, offsetAt?: (utcMs: number) => number): CalendarDay {
  const date = dateOfDayNumber(day)
  if (!calendar || !covers(calendar, date)) return { date, ...UNKNOWN_DAY }
  const file = calendar.file
  const pending = file.provisional?.[date]
  if (pending) return { date, kind: 'provisional', name: pending.name, basis: 'provisional', provisional_why: pending.why, sessions: [], phases: null }
  const plan = planDay(file, day)
  const toUtc = dayConverter(calendar.timezone, day, offsetAt)
  const instant = (minutes: number) => new Date(toUtc(minutes)).toISOString()
  const sessions = plan.segments.map(([open, close]) => ({ open: instant(open), close: instant(close), open_local: formatLocalTime(open), close_local: formatLocalTime(close) }))
  const phases = lookup
    ? dayTimeline(plan, resolveBands(lookup(day, date).bands, plan)).map(({ phase, start, end }) => ({ phase, from: instant(start), to: instant(end), from_local: formatLocalTime(start), to_local: formatLocalTime(end) }))
    : null
  // Version 1 files predate rule-derived dates: everything in them was published; 24/7 venues rest on their statements.
  const basis = file.basis_exceptions?.[date] ?? file.basis?.[date.slice(0, 4)] ?? 'published'
  return { date, kind: KIND_OF_RULE[plan.rule], name: plan.name, basis, sessions, phases }
}

/** Whether the calendar speaks for this local date (always, for a 24/7 venue). */
export function covers(calendar: CompiledCalendar, date: string): boolean {
  if (calendar.alwaysOpen) return true
  return date >= calendar.coverageFrom! && date <= calendar.coverageTo!
}

/** Days that are not ordinary trading days or weekends: what /v5/holidays and the feeds list. */
export const NOTABLE_KINDS: ReadonlySet<DayKind> = new Set(['holiday', 'early_close', 'late_open', 'special', 'provisional'])

const NOTABLE_MAPS = ['holidays', 'early_closes', 'late_opens', 'special_sessions', 'provisional'] as const

/**
 * The notable days of a calendar from..to (inclusive), read from the maps that make them
 * notable rather than by planning every date; each is then the same record /v5/calendar gives.
 */
export function notableCalendarDays(calendar: CompiledCalendar, from: number, to: number): CalendarDay[] {
  const first = dateOfDayNumber(from)
  const last = dateOfDayNumber(to)
  const dates = NOTABLE_MAPS.flatMap((map) => Object.keys(calendar.file[map] ?? {})).filter((date) => date >= first && date <= last && covers(calendar, date))
  const lookup = bandLookup(calendar.file)
  return [...new Set(dates)].sort().map((date) => calendarDay(calendar, dayNumber(date), lookup))
}

/** The /v5/calendar body (and the get_market_calendar tool's answer). */
export function calendarView(calendar: CompiledCalendar | null, identity: { mic: string; timezone: string }, range: { from: string; to: string; fromDay: number; toDay: number }, unavailable: string | null) {
  const coverage = !calendar ? null : calendar.alwaysOpen ? { from: null, to: null } : { from: calendar.coverageFrom, to: calendar.coverageTo }
  return {
    mic: identity.mic,
    timezone: identity.timezone,
    data_version: calendar?.dataVersion ?? null,
    coverage,
    from: range.from,
    to: range.to,
    ...(calendar ? {} : { note: `No valid calendar is loaded for this exchange (${unavailable ?? 'unavailable'}): every day is unknown; treat it as closed.` }),
    days: calendarDays(calendar, range.fromDay, range.toDay),
  }
}
