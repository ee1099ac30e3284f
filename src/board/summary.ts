// The board's summary of every venue at one instant (GET /v5/board, and the server-rendered
// board and venue pages): the state a receipt would carry (override → halt → calendar →
// UNKNOWN, the same resolveStatus), its reason, the calendar's phase, the local time, what the
// day is when it is not an ordinary one, and the next transition. Unsigned and unmetered: it is
// for looking at; an agent acts on a signed receipt.
import { calendarDay } from '../calendar/days'
import { nextCloseBoundary, nextOpenBoundary, phaseOf } from '../calendar/engine'
import { formatOffset } from '../calendar/dst'
import { EXCHANGES, type ExchangeIdentity, type Mic } from '../calendar/exchanges'
import type { CalendarSnapshot } from '../calendar/registry'
import type { CompiledCalendar } from '../calendar/compile'
import { utcToLocal, zoneOffsetMs } from '../calendar/zone'
import { resolveStatus, type MarketDeps, type MarketSource, type MarketStatus } from '../market/resolve'
import { REGION_ORDER } from './present'
import type { BoardDay, BoardNext, BoardSummary, BoardVenue } from './board-types'

export type { BoardDay, BoardNext, BoardSummary, BoardVenue }

export const BOARD_REFRESH_SECONDS = 1

export const BOARD_NOTE =
  'Unsigned summary for people looking at the service: the state a receipt would carry now (overrides and halts included), the calendar phase, and the next transition. Do not act on it: an agent acts on a signed receipt (/v5/status), and treats UNKNOWN as CLOSED.'

const pad = (n: number) => String(n).padStart(2, '0')
const localTime = (minutes: number) => `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`

// A venue's day record changes only with its local date or a reload: kept per snapshot (a
// reload makes a new one), since building it reads the zone's offsets through Intl, which was
// most of a board's cost (measured: 44 day records 4.4 ms of a 12 ms summary).
const days = new WeakMap<CalendarSnapshot, Map<string, BoardDay>>()

function dayOf(snapshot: CalendarSnapshot, mic: string, calendar: CompiledCalendar | null, localDay: number): BoardDay {
  let known = days.get(snapshot)
  if (!known) days.set(snapshot, (known = new Map()))
  const key = `${mic} ${localDay}`
  let day = known.get(key)
  if (!day) {
    // Without phase bands: the board needs the kind, name and hours of the day.
    const record = calendarDay(calendar, localDay, null)
    day = {
      date: record.date,
      kind: record.kind,
      name: record.name,
      ...(record.provisional_why ? { provisional_why: record.provisional_why } : {}),
      open_local: record.sessions[0]?.open_local ?? null,
      close_local: record.sessions.at(-1)?.close_local ?? null,
    }
    // Bounded: a day or two per venue are live at a time; a clock moved across many days clears it.
    if (known.size > 256) known.clear()
    known.set(key, day)
  }
  return day
}

/** One venue's entry at `now`, read from one calendar snapshot. */
export async function venueNow(deps: MarketDeps, identity: ExchangeIdentity & { mic: Mic }, now: number, snapshot: CalendarSnapshot = deps.calendars.snapshot()): Promise<BoardVenue> {
  const resolution = await resolveStatus(deps, identity.mic, now, snapshot)
  const calendar = deps.calendars.calendar(identity.mic, snapshot)
  const offset = zoneOffsetMs(identity.timezone, now)
  const local = utcToLocal(identity.timezone, now, offset)
  const day = dayOf(snapshot, identity.mic, calendar, local.day)
  let next: BoardNext | null = null
  if (resolution.source === 'OVERRIDE') {
    const override = await deps.overrides.forMic(identity.mic, now)
    if (override) next = { event: 'override_ends', at: override.expires_at, provisional: false }
  } else if (calendar && resolution.source === 'SCHEDULE') {
    const boundary = resolution.status === 'OPEN' ? nextCloseBoundary(calendar, now) : nextOpenBoundary(calendar, now)
    if (boundary) next = { event: resolution.status === 'OPEN' ? 'close' : 'open', at: new Date(boundary.at).toISOString(), provisional: boundary.provisional }
  }
  // The phase is the calendar's: only when the state is the calendar's and known.
  const calendarStatus = resolution.status === 'OPEN' || resolution.status === 'CLOSED' ? resolution.status : null
  return {
    mic: identity.mic,
    name: calendar?.name ?? identity.name,
    region: identity.region,
    country: identity.country,
    timezone: identity.timezone,
    status: resolution.status,
    source: resolution.source,
    reason: resolution.reason,
    phase: calendar && resolution.source === 'SCHEDULE' && calendarStatus ? phaseOf(calendar, now, calendarStatus) : null,
    local_date: local.date,
    local_time: localTime(local.minutes),
    utc_offset: formatOffset(offset),
    day,
    next,
    data_version: calendar?.dataVersion ?? null,
  }
}

export async function boardSummary(deps: MarketDeps, now: number): Promise<BoardSummary> {
  const snapshot = deps.calendars.snapshot()
  const venues = await Promise.all(EXCHANGES.map((identity) => venueNow(deps, identity, now, snapshot)))
  const counts: Record<MarketStatus, number> = { OPEN: 0, CLOSED: 0, HALTED: 0, UNKNOWN: 0 }
  for (const venue of venues) counts[venue.status]++
  const present = new Set(venues.map((venue) => venue.region))
  return {
    at: new Date(now).toISOString(),
    refresh_seconds: BOARD_REFRESH_SECONDS,
    venue_count: venues.length,
    counts,
    regions: REGION_ORDER.filter((region) => present.has(region)),
    venues,
    note: BOARD_NOTE,
  }
}
