// One answer for GET /v5/calendar and the get_market_calendar tool: the request's MIC and date
// range read the same way, and the same body.
import { parseDateRange } from './date-range'
import { calendarView } from './days'
import { identityOf, unavailableReason } from './directory'
import { parseMic } from './mic-param'
import type { CalendarRegistry } from './registry'

export function marketCalendar(calendars: CalendarRegistry, query: { mic?: string; from?: string; to?: string }, now: number) {
  const mic = parseMic(query.mic)
  const range = parseDateRange(query, now)
  const snapshot = calendars.snapshot()
  return calendarView(calendars.calendar(mic, snapshot), identityOf(snapshot, mic), range, unavailableReason(snapshot, mic))
}
