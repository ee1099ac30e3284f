// The repository's calendars by MIC, and a venue's local wall time as an instant: what the
// dated-facts tests need to state "at 12:00 Paris time on this date the answer is X".
import type { CompiledCalendar } from '../../src/calendar/compile'
import { dayNumber, localToUtc, parseLocalTime } from '../../src/calendar/zone'
import { sharedCalendars } from './app'

/** The loaded calendar of a venue in schedules/, or a thrown error naming it. */
export function repoCalendar(mic: string): CompiledCalendar {
  const calendar = sharedCalendars().calendar(mic)
  if (!calendar) throw new Error(`${mic} did not load`)
  return calendar
}

/** The instant of a local date and HH:MM at the venue (its zone's offset on that date). */
export function localInstant(mic: string, date: string, time: string): number {
  return localToUtc(repoCalendar(mic).timezone, dayNumber(date), parseLocalTime(time))
}
