// Date ranges from requests (/v5/calendar, /v5/holidays, get_market_calendar): local calendar
// dates YYYY-MM-DD, `from` defaulting to today (UTC) and `to` to from + 30 days, at most 366
// days per call. Bad input is the spec's error object, never a guess.
import { ApiError } from '../http/errors'
import { SUPPORTED_RANGE, SUPPORTED_TO_MS, parseUtcDate } from '../utc'
import { DAY_MS, dateOfDayNumber } from './zone'

export const MAX_RANGE_DAYS = 366
export const DEFAULT_RANGE_DAYS = 30
/** The last day the service speaks of (9999-12-31). */
const LAST_DAY = Math.floor(SUPPORTED_TO_MS / DAY_MS)

export interface DayRange {
  from: string
  to: string
  /** Days since 1970-01-01. */
  fromDay: number
  toDay: number
}

export function todayDay(now: number): number {
  return Math.floor(now / DAY_MS)
}

function parseDay(raw: string, name: 'from' | 'to'): number {
  const parsed = parseUtcDate(raw)
  const upper = name.toUpperCase()
  if (!parsed.ok && parsed.reason === 'out_of_range') throw new ApiError(400, `${upper}_OUT_OF_RANGE`, `${name} must be a date from 1970-01-01 to 9999-12-31`, { supported_range: SUPPORTED_RANGE })
  if (!parsed.ok) throw new ApiError(400, `INVALID_${upper}`, `${name} must be a real calendar date written YYYY-MM-DD (got ${JSON.stringify(raw.slice(0, 40))})`)
  return parsed.value / DAY_MS
}

export function rangeOf(fromDay: number, toDay: number): DayRange {
  if (toDay < fromDay) throw new ApiError(400, 'INVALID_RANGE', `to (${dateOfDayNumber(toDay)}) is before from (${dateOfDayNumber(fromDay)})`)
  const days = toDay - fromDay + 1
  if (days > MAX_RANGE_DAYS) throw new ApiError(400, 'RANGE_TOO_LONG', `${days} days asked; at most ${MAX_RANGE_DAYS} per call`, { max_days: MAX_RANGE_DAYS })
  return { from: dateOfDayNumber(fromDay), to: dateOfDayNumber(toDay), fromDay, toDay }
}

/** `from` (default today, UTC) and `to` (default from + 30 days), both inclusive. */
export function parseDateRange(query: { from?: string; to?: string }, now: number): DayRange {
  const fromDay = query.from ? parseDay(query.from, 'from') : todayDay(now)
  const toDay = query.to ? parseDay(query.to, 'to') : Math.min(fromDay + DEFAULT_RANGE_DAYS, LAST_DAY)
  return rangeOf(fromDay, toDay)
}

/** A calendar year YYYY from 1970 to 9999. */
export function parseYear(raw: string): DayRange {
  if (!/^[0-9]{4}$/.test(raw) || Number(raw) < 1970) throw new ApiError(400, 'INVALID_YEAR', 'year must be a year written YYYY, from 1970 to 9999')
  return rangeOf(parseDay(`${raw}-01-01`, 'from'), parseDay(`${raw}-12-31`, 'to'))
}

/** A number of days from today (UTC), today included: 1..366, default 30. */
export function parseUpcomingDays(raw: string | undefined, now: number): DayRange & { days: number } {
  // Digits without a leading zero (0366 is refused, as every other number parameter refuses it).
  const days = raw === undefined || raw === '' ? DEFAULT_RANGE_DAYS : /^[1-9][0-9]{0,5}$/.test(raw) ? Number(raw) : Number.NaN
  if (!Number.isInteger(days) || days < 1) throw new ApiError(400, 'INVALID_DAYS', `days must be a whole number from 1 to ${MAX_RANGE_DAYS}`)
  if (days > MAX_RANGE_DAYS) throw new ApiError(400, 'RANGE_TOO_LONG', `${days} days asked; at most ${MAX_RANGE_DAYS} per call`, { max_days: MAX_RANGE_DAYS })
  const fromDay = todayDay(now)
  return { ...rangeOf(fromDay, Math.min(fromDay + days - 1, LAST_DAY)), days }
}
