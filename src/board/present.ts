// How the board words and orders what it shows. Pure functions (Intl only, no runtime imports):
// the server renders the first paint with them and the browser script (board/client) keeps the
// page live with the same ones, so a tile reads the same before and after its first update.
import type { Region } from '../calendar/exchanges'

type Status = 'OPEN' | 'CLOSED' | 'HALTED' | 'UNKNOWN'

/** Region sections in page order; a Record so a region added to exchanges.ts must be placed here. */
const REGION_RANK: Record<Region, number> = { Americas: 0, Europe: 1, 'Middle East & Africa': 2, 'Asia-Pacific': 3, Crypto: 4 }
export const REGION_ORDER = (Object.keys(REGION_RANK) as Region[]).sort((a, b) => REGION_RANK[a] - REGION_RANK[b])

export const regionId = (region: string) => `region-${region.toLowerCase().replace(/[^a-z]+/g, '-')}`

export const STATUS_WORD: Record<Status, string> = { OPEN: 'Open', CLOSED: 'Closed', HALTED: 'Halted', UNKNOWN: 'Unknown' }

export const statusClass = (status: string) => `state-${status.toLowerCase()}`

/** Tiles within a region: what trades first, then halted, unknown, closed (each in exchanges.ts order). */
const STATUS_RANK: Record<Status, number> = { OPEN: 0, HALTED: 1, UNKNOWN: 2, CLOSED: 3 }
export const statusRank = (status: string) => STATUS_RANK[status as Status] ?? 4

/** Venues in board order: by state rank, the venue list's order within a rank. */
export function boardOrder<T extends { status: string }>(venues: readonly T[]): T[] {
  return venues.map((venue, index) => ({ venue, index })).sort((a, b) => statusRank(a.venue.status) - statusRank(b.venue.status) || a.index - b.index).map(({ venue }) => venue)
}

const PHASE_WORD: Record<string, string> = {
  pre_open_auction: 'pre-open auction',
  continuous: 'continuous trading',
  closing_auction: 'closing auction',
  post_close: 'post-close',
  extended: 'extended hours',
  closed: 'closed',
}

export const phaseWord = (phase: string | null) => (phase === null ? null : (PHASE_WORD[phase] ?? phase.replaceAll('_', ' ')))

interface DayLike {
  kind: string
  name: string | null
  provisional_why?: string
  open_local: string | null
  close_local: string | null
}

/** What makes today special at the venue, or null on an ordinary trading day, a weekend or an unknown day. */
export function dayNote(day: DayLike): string | null {
  const name = day.name ? `: ${day.name}` : ''
  switch (day.kind) {
    case 'holiday':
      return `Holiday${name}`
    case 'early_close':
      return `Early close at ${day.close_local ?? '?'}${name}`
    case 'late_open':
      return `Late open at ${day.open_local ?? '?'}${name}`
    case 'special':
      return day.open_local ? `Special session ${day.open_local}–${day.close_local}${name}` : `Closed (special arrangement)${name}`
    case 'provisional':
      return `Provisional${name} — ${day.provisional_why ?? 'waiting for an announcement'}; UNKNOWN all day until confirmed`
    default:
      // An `unknown` day (no valid calendar, or outside its coverage) has no note: the state's
      // reason says which (a missing or invalid file, the coverage), and the tile shows it.
      return null
  }
}

const clockFormats = new Map<string, Intl.DateTimeFormat>()
function clockFormat(timezone: string): Intl.DateTimeFormat {
  let format = clockFormats.get(timezone)
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', { timeZone: timezone, weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
    clockFormats.set(timezone, format)
  }
  return format
}

function parts(timezone: string, ms: number): Record<string, string> {
  const out: Record<string, string> = {}
  for (const part of clockFormat(timezone).formatToParts(ms)) out[part.type] = part.value
  return out
}

/** Local wall clock "HH:MM" of an instant in a zone. */
export function localClock(timezone: string, ms: number): string {
  const p = parts(timezone, ms)
  return `${p.hour}:${p.minute}`
}

/** "Thu 26 Nov 09:30" in the zone. */
export function localWhen(timezone: string, ms: number): string {
  const p = parts(timezone, ms)
  return `${p.weekday} ${p.day} ${p.month} ${p.hour}:${p.minute}`
}

/** Time left until an instant, coarse enough to read at a glance: "3 d 4 h", "2 h 05 min", "4 min 09 s", "now". */
export function countdown(ms: number): string {
  if (!(ms > 0)) return 'now'
  const seconds = Math.floor(ms / 1000)
  const d = Math.floor(seconds / 86_400)
  const h = Math.floor((seconds % 86_400) / 3600)
  const m = Math.floor((seconds % 3600) / 60)
  const s = seconds % 60
  if (d > 0) return `${d} d ${h} h`
  if (h > 0) return `${h} h ${String(m).padStart(2, '0')} min`
  if (m > 0) return `${m} min ${String(s).padStart(2, '0')} s`
  return `${s} s`
}

interface NextLike {
  event: 'open' | 'close' | 'override_ends'
  at: string
  provisional: boolean
}

const EVENT_WORD: Record<NextLike['event'], string> = { open: 'Opens', close: 'Closes', override_ends: 'Override ends' }

/** "Opens Thu 26 Nov 09:30" (local), with a caveat when a provisional day lies in between. */
export function nextWords(next: NextLike | null, timezone: string, status: string): string {
  if (!next) return status === 'OPEN' ? 'No scheduled close' : 'No transition known'
  const caveat = next.provisional ? ' (a provisional day lies before it)' : ''
  return `${EVENT_WORD[next.event]} ${localWhen(timezone, Date.parse(next.at))}${caveat}`
}

const SOURCE_WORD: Record<string, string> = { SCHEDULE: 'Calendar', OVERRIDE: 'Operator override', REALTIME: 'Real-time halt', SYSTEM: 'System' }

interface VenueLike {
  status: string
  source: string
  reason: string
  phase: string | null
  timezone: string
  utc_offset: string
  day: DayLike
  next: NextLike | null
}

/** The text of every live field of a venue's tile at `now` (server first paint and browser updates). */
export function tileFields(venue: VenueLike, now: number) {
  const nextAt = venue.next ? Date.parse(venue.next.at) : null
  const special = dayNote(venue.day) ?? ''
  return {
    status: venue.status,
    // `closed` only repeats the badge; a band (an auction, post-close) or continuous trading says more.
    phase: venue.phase === 'closed' ? '' : (phaseWord(venue.phase) ?? ''),
    // On a special day the calendar's reason says what the day note already says, in fewer words.
    reason: venue.source === 'SCHEDULE' && special ? '' : `${SOURCE_WORD[venue.source] ?? venue.source}: ${venue.reason}`,
    special,
    clock: localClock(venue.timezone, now),
    offset: venue.utc_offset,
    next: nextWords(venue.next, venue.timezone, venue.status),
    // Past the instant until the next poll brings the new state: "now", not "in now".
    countdown: nextAt === null ? '' : nextAt > now ? `in ${countdown(nextAt - now)}` : 'now',
    countdownAt: venue.next?.at ?? '',
  }
}

export type TileFields = ReturnType<typeof tileFields>

/** What the filter box matches words against, besides the state: MIC, name, country, region and zone. */
export const searchText = (venue: { mic: string; name: string; country: string; region: string; timezone: string }) =>
  [venue.mic, venue.name, venue.country, venue.region, venue.timezone].join(' ').toLowerCase()

/**
 * Whether a tile matches every word typed: a state word (open, closed, halted, unknown) matches
 * the tile's state and nothing else ("open" is not Copenhagen); any other word must occur in
 * its searchText.
 */
export function matchesWords(words: readonly string[], status: string, text: string): boolean {
  return words.every((word) => (Object.prototype.hasOwnProperty.call(STATUS_RANK, word.toUpperCase()) ? status === word.toUpperCase() : text.includes(word)))
}
