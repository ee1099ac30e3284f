// UTC calendar days as YYYY-MM-DD strings, and the date/cursor query parameters of the audit endpoints.
import { ApiError } from '../http/errors'
import { SUPPORTED_RANGE, parseUtcDate } from '../utc'

const DAY_MS = 86_400_000

export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10)
}

export function addDays(day: string, days: number): string {
  return utcDay(Date.parse(`${day}T00:00:00.000Z`) + days * DAY_MS)
}

export function dayStartMs(day: string): number {
  return Date.parse(`${day}T00:00:00.000Z`)
}

/** Whole days from `from` to `to` (both YYYY-MM-DD). */
export function daysBetween(from: string, to: string): number {
  return Math.round((dayStartMs(to) - dayStartMs(from)) / DAY_MS)
}

/** A real calendar date (2026-02-30 is refused) from 1970 on, not after today. Missing → today. */
export function parseDateParam(raw: string | undefined, today: string): string {
  if (raw === undefined || raw === '') return today
  const parsed = parseUtcDate(raw)
  if (!parsed.ok && parsed.reason === 'out_of_range') throw new ApiError(400, 'DATE_OUT_OF_RANGE', 'date must be from 1970-01-01 on', { supported_range: SUPPORTED_RANGE })
  if (!parsed.ok) throw new ApiError(400, 'INVALID_DATE', 'date must be a real calendar date written YYYY-MM-DD')
  if (raw > today) throw new ApiError(400, 'DATE_IN_FUTURE', `date ${raw} is after today (${today}, UTC)`)
  return raw
}

/** Cursors are opaque to clients; here they are the log position of the last item of the previous page. */
export function parseCursor(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 0
  if (!/^[1-9][0-9]{0,15}$/.test(raw)) throw new ApiError(400, 'INVALID_CURSOR', 'cursor must be a next_cursor value from a previous page')
  return Number(raw)
}
