// What a reload changed in one venue's calendar, day by day: the day records (/v5/calendar's) of
// the calendar before and after compared date by date. Dates whose file entries did not change
// are not planned again when the weekly template, seasons and phase bands are the same, so a
// reload that adds one holiday costs a few day records, not four years of them.
import type { CompiledCalendar } from './compile'
import { calendarDay, type CalendarDay } from './days'
import { bandLookup } from './phases'
import type { ScheduleFile } from './schema'
import { dateOfDayNumber, dayNumber } from './zone'

export const DAY_CHANGE_KINDS = [
  'holiday_added', 'holiday_removed', 'holiday_renamed',
  'early_close_added', 'early_close_moved', 'early_close_removed',
  'late_open_added', 'late_open_moved', 'late_open_removed',
  'special_session_added', 'special_session_changed', 'special_session_removed',
  'provisional_added', 'provisional_confirmed',
  'hours_changed', 'phases_changed', 'renamed',
  'coverage_extended', 'coverage_reduced',
] as const
export type DayChangeKind = (typeof DAY_CHANGE_KINDS)[number]

/** One changed date (or, for coverage, the first date of a range ending at `to`). */
export interface DayChange {
  date: string
  change: DayChangeKind
  /** The day record before and after (null for a coverage range, or a date not covered on that side). */
  before: CalendarDay | null
  after: CalendarDay | null
  /** Last date of a coverage range. */
  to?: string
}

const DATE_MAPS = ['holidays', 'early_closes', 'late_opens', 'special_sessions', 'provisional'] as const

interface Coverage {
  from: number
  to: number
}

function coverageOf(calendar: CompiledCalendar | null): Coverage | null {
  if (!calendar) return null
  // A 24/7 venue speaks for every date; its days never differ by date, so an always-open file is compared over the other side's range.
  if (calendar.alwaysOpen) return { from: -Infinity, to: Infinity }
  return { from: dayNumber(calendar.coverageFrom!), to: dayNumber(calendar.coverageTo!) }
}

/** Whether everything but the dated entries is the same (then only dated entries can differ). */
function sameTemplate(a: ScheduleFile, b: ScheduleFile): boolean {
  const template = (file: ScheduleFile) => JSON.stringify([file.timezone, file.always_open, file.weekly, file.seasons ?? null, file.phases?.bands ?? null, file.phases?.seasons ?? null, file.phases ? true : false])
  return template(a) === template(b)
}

/** Dates whose entry in any dated map differs between the files. */
function datesWithChangedEntries(a: ScheduleFile, b: ScheduleFile): string[] {
  const dates = new Set<string>()
  const compare = (left: Record<string, unknown> | undefined, right: Record<string, unknown> | undefined) => {
    for (const date of new Set([...Object.keys(left ?? {}), ...Object.keys(right ?? {})])) {
      if (JSON.stringify(left?.[date]) !== JSON.stringify(right?.[date])) dates.add(date)
    }
  }
  for (const map of DATE_MAPS) compare(a[map], b[map])
  compare(a.phases?.dates, b.phases?.dates)
  return [...dates].sort()
}

const comparable = (day: CalendarDay) => JSON.stringify([day.kind, day.name, day.provisional_why ?? null, day.sessions, day.phases])

/** How a covered date changed, or null when its record is the same (basis alone does not count). */
export function classifyDay(before: CalendarDay, after: CalendarDay): DayChangeKind | null {
  if (comparable(before) === comparable(after)) return null
  if (before.kind === 'provisional' && after.kind !== 'provisional') return 'provisional_confirmed'
  if (before.kind !== 'provisional' && after.kind === 'provisional') return 'provisional_added'
  if (before.kind === 'holiday' && after.kind === 'holiday') return before.name !== after.name ? 'holiday_renamed' : 'phases_changed'
  if (after.kind === 'holiday') return 'holiday_added'
  if (before.kind === 'holiday') return 'holiday_removed'
  // An early close moves with its last close, a late open with its first open (other hours: hours_changed below).
  const lastClose = (day: CalendarDay) => day.sessions.at(-1)?.close_local
  const firstOpen = (day: CalendarDay) => day.sessions[0]?.open_local
  for (const [kind, edge] of [['early_close', lastClose], ['late_open', firstOpen]] as const) {
    if (before.kind === kind && after.kind === kind) {
      if (edge(before) !== edge(after)) return `${kind}_moved`
      break
    }
    if (after.kind === kind) return `${kind}_added`
    if (before.kind === kind) return `${kind}_removed`
  }
  if (before.kind === 'special' && after.kind === 'special') {
    if (JSON.stringify(before.sessions) !== JSON.stringify(after.sessions)) return 'special_session_changed'
  } else if (after.kind === 'special') return 'special_session_added'
  else if (before.kind === 'special') return 'special_session_removed'
  if (JSON.stringify(before.sessions) !== JSON.stringify(after.sessions) || before.kind !== after.kind) return 'hours_changed'
  if (JSON.stringify(before.phases) !== JSON.stringify(after.phases)) return 'phases_changed'
  return 'renamed'
}

const NOTABLE_ADDED: Partial<Record<CalendarDay['kind'], DayChangeKind>> = {
  holiday: 'holiday_added',
  early_close: 'early_close_added',
  late_open: 'late_open_added',
  special: 'special_session_added',
  provisional: 'provisional_added',
}

/** Contiguous runs of day numbers as [first, last] pairs. */
function runs(days: number[]): [number, number][] {
  const found: [number, number][] = []
  for (const day of days) {
    const last = found.at(-1)
    if (last && last[1] === day - 1) last[1] = day
    else found.push([day, day])
  }
  return found
}

/**
 * The changed dates between two calendars of one venue, in date order. A date newly covered gives
 * one `coverage_extended` record per range plus a record for each notable day in it (a holiday,
 * early close, late open, special session or provisional date); a date no longer covered gives one
 * `coverage_reduced` record per range.
 */
export function diffCalendars(before: CompiledCalendar | null, after: CompiledCalendar | null): DayChange[] {
  const was = coverageOf(before)
  const now = coverageOf(after)
  if (!was && !now) return []
  const changes: DayChange[] = []
  const lookupBefore = before ? bandLookup(before.file) : null
  const lookupAfter = after ? bandLookup(after.file) : null
  const dayOf = (calendar: CompiledCalendar | null, lookup: ReturnType<typeof bandLookup> | null, day: number) => calendarDay(calendar, day, lookup)

  // Dates covered on both sides.
  if (was && now) {
    const from = Math.max(was.from, now.from)
    const to = Math.min(was.to, now.to)
    if (from <= to && Number.isFinite(from) && Number.isFinite(to)) {
      const candidates = sameTemplate(before!.file, after!.file)
        ? datesWithChangedEntries(before!.file, after!.file).map(dayNumber).filter((day) => day >= from && day <= to)
        : Array.from({ length: to - from + 1 }, (_, i) => from + i)
      for (const day of candidates) {
        const a = dayOf(before, lookupBefore, day)
        const b = dayOf(after, lookupAfter, day)
        const change = classifyDay(a, b)
        if (change) changes.push({ date: a.date, change, before: a, after: b })
      }
    }
  }

  // Dates covered after and not before, and the other way round (finite ranges only).
  const onlyIn = (side: Coverage | null, other: Coverage | null): number[] => {
    if (!side || !Number.isFinite(side.from) || !Number.isFinite(side.to)) return []
    const days: number[] = []
    for (let day = side.from; day <= side.to; day++) if (!other || day < other.from || day > other.to) days.push(day)
    return days
  }
  for (const [first, last] of runs(onlyIn(now, was))) {
    changes.push({ date: dateOfDayNumber(first), change: 'coverage_extended', before: null, after: null, to: dateOfDayNumber(last) })
    const firstDate = dateOfDayNumber(first)
    const lastDate = dateOfDayNumber(last)
    const notable = DATE_MAPS.flatMap((map) => Object.keys(after!.file[map] ?? {})).filter((date) => date >= firstDate && date <= lastDate)
    for (const date of [...new Set(notable)].sort()) {
      const day = dayOf(after, lookupAfter, dayNumber(date))
      const change = NOTABLE_ADDED[day.kind]
      if (change) changes.push({ date, change, before: null, after: day })
    }
  }
  for (const [first, last] of runs(onlyIn(was, now))) changes.push({ date: dateOfDayNumber(first), change: 'coverage_reduced', before: null, after: null, to: dateOfDayNumber(last) })
  return changes.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.change === 'coverage_extended' || a.change === 'coverage_reduced' ? -1 : 0))
}

/** A short text of a venue's changes for a log line: the count and the first few. */
export function describeChanges(changes: readonly DayChange[], shown = 5): string {
  const parts = changes.slice(0, shown).map((change) => {
    const name = change.after?.name ?? change.before?.name
    return `${change.date}${change.to ? `..${change.to}` : ''} ${change.change}${name ? ` (${name})` : ''}`
  })
  return `${changes.length} date${changes.length === 1 ? '' : 's'}: ${parts.join(', ')}${changes.length > shown ? `, and ${changes.length - shown} more` : ''}`
}
