// Horizon alarm: calendars whose coverage ends soon or has ended, provisional dates coming up,
// and MICs with no valid calendar. One function per venue so that the service (/v5/health, the
// daily log) and `openbell calendars check` say the same thing.
import type { CompiledCalendar } from './compile'
import type { CalendarSnapshot } from './registry'
import { DAY_MS, dayNumber, utcToLocal } from './zone'

export const HORIZON_WARNING_DAYS = 90
export const PROVISIONAL_WARNING_DAYS = 30

export interface CalendarWarning {
  mic: string
  problem: 'coverage_ends_soon' | 'coverage_ended' | 'no_valid_calendar' | 'provisional_date_soon'
  coverage_to?: string | null
  days_left?: number
  date?: string
  detail: string
}

/** The warnings of one loaded calendar at `now`. */
export function venueWarnings(calendar: CompiledCalendar, now: number, withinDays = HORIZON_WARNING_DAYS): CalendarWarning[] {
  if (calendar.alwaysOpen) return []
  const warnings: CalendarWarning[] = []
  const mic = calendar.mic
  const daysLeft = Math.floor((calendar.coverageEnd - now) / DAY_MS)
  if (daysLeft < 0) warnings.push({ mic, problem: 'coverage_ended', coverage_to: calendar.coverageTo, days_left: daysLeft, detail: 'answers UNKNOWN until the calendar is extended' })
  else if (daysLeft <= withinDays) warnings.push({ mic, problem: 'coverage_ends_soon', coverage_to: calendar.coverageTo, days_left: daysLeft, detail: `enter the dates after ${calendar.coverageTo} before then (published, rule-derived or provisional), or the venue answers UNKNOWN` })
  const today = utcToLocal(calendar.timezone, now).day
  for (const [date, entry] of Object.entries(calendar.file.provisional ?? {})) {
    const daysAway = dayNumber(date) - today
    if (daysAway < 0 || daysAway > PROVISIONAL_WARNING_DAYS) continue
    warnings.push({ mic, problem: 'provisional_date_soon', date, days_left: daysAway, detail: `${entry.name} answers UNKNOWN all day until confirmed (${entry.why}); when announced, enter it as a holiday, early close, late open or nothing, bump data_version and reload` })
  }
  return warnings.sort((a, b) => (a.date ?? '').localeCompare(b.date ?? ''))
}

export function calendarWarnings(snapshot: CalendarSnapshot, now: number, withinDays = HORIZON_WARNING_DAYS): CalendarWarning[] {
  const warnings: CalendarWarning[] = []
  for (const entry of snapshot.entries.values()) {
    if (entry.state === 'invalid') warnings.push({ mic: entry.mic, problem: 'no_valid_calendar', detail: entry.problems[0]?.reason ?? 'invalid' })
    else warnings.push(...venueWarnings(entry.calendar, now, withinDays))
  }
  return warnings.sort((a, b) => a.mic.localeCompare(b.mic))
}
