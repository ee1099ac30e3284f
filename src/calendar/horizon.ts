// Horizon alarm: calendars whose coverage ends soon, and MICs with no valid calendar.
import type { CalendarSnapshot } from './registry'
import { DAY_MS } from './zone'

export const HORIZON_WARNING_DAYS = 90

export interface CalendarWarning {
  mic: string
  problem: 'coverage_ends_soon' | 'coverage_ended' | 'no_valid_calendar'
  coverage_to?: string | null
  days_left?: number
  detail: string
}

export function calendarWarnings(snapshot: CalendarSnapshot, now: number, withinDays = HORIZON_WARNING_DAYS): CalendarWarning[] {
  const warnings: CalendarWarning[] = []
  for (const entry of snapshot.entries.values()) {
    if (entry.state === 'invalid') {
      warnings.push({ mic: entry.mic, problem: 'no_valid_calendar', detail: entry.problems[0]?.reason ?? 'invalid' })
      continue
    }
    const { calendar } = entry
    if (calendar.alwaysOpen) continue
    const daysLeft = Math.floor((calendar.coverageEnd - now) / DAY_MS)
    if (daysLeft < 0) warnings.push({ mic: calendar.mic, problem: 'coverage_ended', coverage_to: calendar.coverageTo, days_left: daysLeft, detail: 'answers UNKNOWN until the calendar is extended with published dates' })
    else if (daysLeft <= withinDays) warnings.push({ mic: calendar.mic, problem: 'coverage_ends_soon', coverage_to: calendar.coverageTo, days_left: daysLeft, detail: `add the holidays after ${calendar.coverageTo} before then, or the venue answers UNKNOWN` })
  }
  return warnings.sort((a, b) => a.mic.localeCompare(b.mic))
}
