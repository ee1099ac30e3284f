// The shape of GET /v5/board, shared by the server (summary.ts) and the browser script
// (board/client), which cannot import the server's modules: this file imports only types of
// modules without runtime imports.
import type { Region } from '../calendar/exchanges'

export type BoardStatus = 'OPEN' | 'CLOSED' | 'HALTED' | 'UNKNOWN'
export type BoardSource = 'SCHEDULE' | 'OVERRIDE' | 'REALTIME' | 'SYSTEM'

export interface BoardNext {
  /** open/close: the calendar's next boundary; override_ends: when the operator's override lapses. */
  event: 'open' | 'close' | 'override_ends'
  at: string
  /** The boundary was found across (or in) a provisional day: it may come earlier. */
  provisional: boolean
}

export interface BoardDay {
  date: string
  /** A day kind of /v5/calendar (regular, early_close, late_open, special, holiday, weekend, provisional, unknown). */
  kind: string
  name: string | null
  provisional_why?: string
  /** First open and last close of the day, local HH:MM, when it trades. */
  open_local: string | null
  close_local: string | null
}

export interface BoardVenue {
  mic: string
  name: string
  region: Region
  country: string
  timezone: string
  status: BoardStatus
  source: BoardSource
  reason: string
  /** The calendar's trading phase; null unless the state comes from the calendar and is OPEN or CLOSED. */
  phase: string | null
  local_date: string
  local_time: string
  utc_offset: string
  /** Today's local date as the calendar lists it (the reason on special days). */
  day: BoardDay
  next: BoardNext | null
  data_version: string | null
}

export interface BoardSummary {
  at: string
  refresh_seconds: number
  venue_count: number
  counts: Record<BoardStatus, number>
  regions: Region[]
  venues: BoardVenue[]
  note: string
}
