// Closures, early closes, late opens, special sessions and provisional dates across venues
// (/v5/holidays, /v5/holidays/upcoming and the iCalendar feeds), from the same day records as
// /v5/calendar. An empty list proves nothing by itself: each venue says whether its calendar
// covers the whole range asked.
import type { CompiledCalendar } from './compile'
import { covers, notableCalendarDays, type CalendarDay } from './days'
import { SUPPORTED_MICS } from './mics'
import type { CalendarSnapshot } from './registry'
import { dateOfDayNumber } from './zone'

export type HolidayEntry = { mic: string } & Omit<CalendarDay, 'phases'>

export interface VenueCoverage {
  mic: string
  data_version: string | null
  coverage: { from: string | null; to: string | null } | null
  /** True when the venue's calendar speaks for every date of the range. */
  complete: boolean
}

export interface VenueCalendar {
  mic: string
  calendar: CompiledCalendar | null
}

/** Every venue in the snapshot, in SUPPORTED_MICS order, with its calendar or null. */
export function venueCalendars(snapshot: CalendarSnapshot, only?: string): VenueCalendar[] {
  return SUPPORTED_MICS.filter((mic) => only === undefined || mic === only).map((mic) => {
    const entry = snapshot.entries.get(mic)
    return { mic, calendar: entry?.state === 'loaded' ? entry.calendar : null }
  })
}

/** The notable days of one venue, days numbered from..to inclusive. */
export function notableDays(venue: VenueCalendar, from: number, to: number): HolidayEntry[] {
  if (!venue.calendar || venue.calendar.alwaysOpen) return []
  return notableCalendarDays(venue.calendar, from, to).map(({ phases: _phases, ...day }) => ({ mic: venue.mic, ...day }))
}

export function venueCoverage({ mic, calendar }: VenueCalendar, from: number, to: number): VenueCoverage {
  if (!calendar) return { mic, data_version: null, coverage: null, complete: false }
  const coverage = calendar.alwaysOpen ? { from: null, to: null } : { from: calendar.coverageFrom, to: calendar.coverageTo }
  return { mic, data_version: calendar.dataVersion, coverage, complete: covers(calendar, dateOfDayNumber(from)) && covers(calendar, dateOfDayNumber(to)) }
}

/** The /v5/holidays body: entries sorted by date, then MIC. */
export function holidaysView(venues: readonly VenueCalendar[], range: { from: string; to: string; fromDay: number; toDay: number }) {
  const holidays = venues.flatMap((venue) => notableDays(venue, range.fromDay, range.toDay)).sort((a, b) => a.date.localeCompare(b.date) || a.mic.localeCompare(b.mic))
  return { from: range.from, to: range.to, holidays, venues: venues.map((venue) => venueCoverage(venue, range.fromDay, range.toDay)) }
}
