// edge_cases_per_year: the dates in a calendar year on which a naive "weekday 9-to-5" agent would
// be wrong, counted from the loaded calendars: holidays, early closes and late opens entered in
// each venue's file, and the UTC-offset changes (DST transitions) of each venue's time zone.
import type { CalendarSnapshot } from '../calendar/registry'
import { transitionsBetween } from '../calendar/dst'

export interface EdgeCases {
  year: number
  total: number
  holidays: number
  early_closes: number
  late_opens: number
  dst_transitions: number
}

const cache = new WeakMap<CalendarSnapshot, Map<number, EdgeCases>>()

export function edgeCasesInYear(snapshot: CalendarSnapshot, year: number): EdgeCases {
  const cached = cache.get(snapshot)?.get(year)
  if (cached) return cached
  const prefix = `${year}-`
  const inYear = (dates: Record<string, unknown>) => Object.keys(dates).filter((date) => date.startsWith(prefix)).length
  const from = Date.UTC(year, 0, 1)
  const to = Date.UTC(year + 1, 0, 1)
  const counts: EdgeCases = { year, total: 0, holidays: 0, early_closes: 0, late_opens: 0, dst_transitions: 0 }
  for (const entry of snapshot.entries.values()) {
    if (entry.state !== 'loaded' || entry.calendar.alwaysOpen) continue
    const { file, timezone } = entry.calendar
    counts.holidays += inYear(file.holidays)
    counts.early_closes += inYear(file.early_closes)
    counts.late_opens += inYear(file.late_opens)
    counts.dst_transitions += transitionsBetween(timezone, from, to).length
  }
  counts.total = counts.holidays + counts.early_closes + counts.late_opens + counts.dst_transitions
  let years = cache.get(snapshot)
  if (!years) cache.set(snapshot, (years = new Map()))
  years.set(year, counts)
  return counts
}

/** Venues with a valid calendar loaded whose coverage includes `now` (those answered from a calendar, not UNKNOWN). */
export function exchangesCovered(snapshot: CalendarSnapshot, now: number): number {
  let n = 0
  for (const entry of snapshot.entries.values()) {
    if (entry.state !== 'loaded') continue
    const { alwaysOpen, coverageStart, coverageEnd } = entry.calendar
    if (alwaysOpen || (now >= coverageStart && now < coverageEnd)) n++
  }
  return n
}
