// UTC dates and instants from user input. Dates are built with setUTCFullYear, because Date.UTC
// (and the Date constructor) read years 0–99 as 1900–1999; and the service answers only for the
// range its calendars can speak of, 1970-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z.

/** The first instant the service answers for: 1970-01-01T00:00:00.000Z. */
export const SUPPORTED_FROM_MS = 0
/** The last: 9999-12-31T23:59:59.999Z (10000-01-01 is not writable as YYYY). */
export const SUPPORTED_TO_MS = 253_402_300_799_999
export const SUPPORTED_RANGE = { from: '1970-01-01T00:00:00.000Z', to: '9999-12-31T23:59:59.999Z' } as const

/** Epoch ms of a UTC date-time; month 1–12. Fields out of range roll over as in Date.UTC, but any year stays itself. */
export function utcMs(year: number, month: number, day: number, hour = 0, minute = 0, second = 0, ms = 0): number {
  const date = new Date(0)
  date.setUTCFullYear(year, month - 1, day)
  date.setUTCHours(hour, minute, second, ms)
  return date.getTime()
}

/** Days in a month of the proleptic Gregorian calendar (year 0 is a leap year, 1900 is not). */
export function daysInMonth(year: number, month: number): number {
  return new Date(utcMs(year, month + 1, 0)).getUTCDate()
}

export function isRealDate(year: number, month: number, day: number): boolean {
  return Number.isInteger(year) && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month)
}

export function inSupportedRange(ms: number): boolean {
  return ms >= SUPPORTED_FROM_MS && ms <= SUPPORTED_TO_MS
}

/** A parse result: the value, or why not (a malformed or impossible value, or a real one outside the range). */
export type Parsed<T> = { ok: true; value: T } | { ok: false; reason: 'invalid' | 'out_of_range' }

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/

/** "YYYY-MM-DD" → the date's midnight UTC in ms. 0000-02-29 is a real date (out of range); 2026-02-30 is not. */
export function parseUtcDate(text: string): Parsed<number> {
  const match = DATE.exec(text)
  if (!match) return { ok: false, reason: 'invalid' }
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])]
  if (!isRealDate(year, month, day)) return { ok: false, reason: 'invalid' }
  const ms = utcMs(year, month, day)
  return inSupportedRange(ms) ? { ok: true, value: ms } : { ok: false, reason: 'out_of_range' }
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:(Z)|([+-])(\d{2}):(\d{2}))$/i

/**
 * An RFC 3339 date-time with a zone designator (seconds optional) → epoch ms; fractions below a
 * millisecond are truncated. Calendar-impossible fields (30 February, 25:00, +24:00) are invalid;
 * a real instant before 1970 or after 9999 (also by its offset) is out of range.
 */
export function parseUtcInstant(text: string): Parsed<number> {
  const match = RFC3339.exec(text)
  if (!match) return { ok: false, reason: 'invalid' }
  const [year, month, day, hour, minute] = [1, 2, 3, 4, 5].map((i) => Number(match[i])) as [number, number, number, number, number]
  const second = Number(match[6] ?? '0')
  const millis = Number((match[7] ?? '').slice(0, 3).padEnd(3, '0'))
  if (!isRealDate(year, month, day) || hour > 23 || minute > 59 || second > 59) return { ok: false, reason: 'invalid' }
  let offsetMinutes = 0
  if (!match[8]) {
    const offsetHours = Number(match[10])
    const offsetMins = Number(match[11])
    if (offsetHours > 23 || offsetMins > 59) return { ok: false, reason: 'invalid' }
    offsetMinutes = (match[9] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMins)
  }
  const ms = utcMs(year, month, day, hour, minute, second, millis) - offsetMinutes * 60_000
  return inSupportedRange(ms) ? { ok: true, value: ms } : { ok: false, reason: 'out_of_range' }
}
