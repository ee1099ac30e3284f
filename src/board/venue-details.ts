// What the venue page (GET /venue/{MIC}) shows, gathered from the calendar API's modules: the
// venue now (as on the board), today's sessions and phases and the next 30 days (the day records
// of /v5/calendar), every notable day of the current local year by name (the records of
// /v5/holidays), the UTC offset changes around now, and the file's version, basis and sources.
import { calendarDays, type CalendarDay } from '../calendar/days'
import { EXCHANGE_IDENTITIES, type Mic } from '../calendar/exchanges'
import { notableDays, type HolidayEntry } from '../calendar/holidays'
import { dstNote } from '../calendar/historical'
import { formatOffset, transitionsBetween } from '../calendar/dst'
import { unavailableReason } from '../calendar/directory'
import { DAY_MS, dayNumber, utcToLocal, zoneOffsetMs } from '../calendar/zone'
import type { ScheduleFile } from '../calendar/schema'
import type { MarketDeps } from '../market/resolve'
import type { ChangeEventRow } from '../calendar/changes/store'
import { venueNow, type BoardVenue } from './summary'

export const UPCOMING_DAYS = 30

export interface OffsetChange {
  at: string
  from: string
  to: string
}

export interface VenueDetails {
  venue: BoardVenue
  /** Days from today (local) on: today first, then the next UPCOMING_DAYS - 1. */
  days: CalendarDay[]
  year: string
  holidays: HolidayEntry[]
  dst: { changes: OffsetChange[]; window: { from: string; to: string }; note: string | null; offset_now: string }
  file: Pick<ScheduleFile, 'schema_version' | 'data_version' | 'sources' | 'notes' | 'basis' | 'basis_exceptions' | 'provisional' | 'always_open' | 'coverage'> | null
  /** Why there is no calendar, when there is none. */
  unavailable: string | null
  /** When its dates last changed (the newest entry of /v5/calendar/changes), and when this service loaded the file in force. */
  changed: { last: ChangeEventRow | null; loaded_at: string | null }
}

export async function venueDetails(deps: MarketDeps, mic: Mic, now: number, lastChange: ChangeEventRow | null = null): Promise<VenueDetails> {
  const snapshot = deps.calendars.snapshot()
  const identity = { ...EXCHANGE_IDENTITIES[mic], mic }
  const calendar = deps.calendars.calendar(mic, snapshot)
  const venue = await venueNow(deps, identity, now, snapshot)
  const today = utcToLocal(identity.timezone, now)
  const year = today.date.slice(0, 4)
  // Offset changes from the start of this local year to a year from now: the ones behind and ahead.
  const windowFrom = dayNumber(`${year}-01-01`) * DAY_MS
  const windowTo = now + 366 * DAY_MS
  const changes = transitionsBetween(identity.timezone, windowFrom, windowTo).map((change) => ({ at: new Date(change.at).toISOString(), from: formatOffset(change.offsetBefore), to: formatOffset(change.offsetAfter) }))
  const file = calendar?.file ?? null
  return {
    venue,
    days: calendarDays(calendar, today.day, today.day + UPCOMING_DAYS - 1),
    year,
    holidays: notableDays({ mic, calendar }, dayNumber(`${year}-01-01`), dayNumber(`${year}-12-31`)),
    dst: { changes, window: { from: new Date(windowFrom).toISOString().slice(0, 10), to: new Date(windowTo).toISOString().slice(0, 10) }, note: calendar?.alwaysOpen ? null : dstNote(identity.timezone, now), offset_now: formatOffset(zoneOffsetMs(identity.timezone, now)) },
    file: file && {
      schema_version: file.schema_version,
      data_version: file.data_version,
      sources: file.sources,
      notes: file.notes,
      basis: file.basis,
      basis_exceptions: file.basis_exceptions,
      provisional: file.provisional,
      always_open: file.always_open,
      coverage: file.coverage,
    },
    unavailable: calendar ? null : unavailableReason(snapshot, mic),
    changed: { last: lastChange, loaded_at: (() => { const entry = snapshot.entries.get(mic); return entry?.state === 'loaded' ? entry.loadedAt : null })() },
  }
}
