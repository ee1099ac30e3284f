// Time-zone arithmetic that does not depend on the host's zone. Instants are UTC epoch
// milliseconds; local wall times exist only as (date, minutes) pairs read through Intl.
// Offsets are read with Intl directly: date-fns-tz's getTimezoneOffset was measured here to
// report the new offset up to five hours before a transition (e.g. -4 h for New York at
// 2026-03-08T02:00Z, when it was still 21:00 EST).

import { isRealDate, utcMs as utcDateMs } from '../utc'

export const MINUTE_MS = 60_000
export const DAY_MS = 86_400_000

const knownZones = new Map<string, boolean>()

export function isKnownTimeZone(tz: string): boolean {
  let known = knownZones.get(tz)
  if (known === undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: tz })
      known = true
    } catch {
      known = false
    }
    knownZones.set(tz, known)
  }
  return known
}

const formatters = new Map<string, Intl.DateTimeFormat>()

function formatterFor(tz: string): Intl.DateTimeFormat {
  let formatter = formatters.get(tz)
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone: tz, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' })
    formatters.set(tz, formatter)
  }
  return formatter
}

/** en-US wall time as `format` writes it: M/D/YYYY, HH:MM:SS. */
const EN_US_WALL = /^(\d+)\/(\d+)\/(\d+), (\d+):(\d+):(\d+)$/

/** Offset of `tz` from UTC at the instant, in ms (positive east of Greenwich). */
export function zoneOffsetMs(tz: string, utcMs: number): number {
  const formatter = formatterFor(tz)
  // format() is about three times cheaper than formatToParts, and compiling a calendar reads one
  // offset per covered day; formatToParts remains for any text the pattern does not match.
  const wall = EN_US_WALL.exec(formatter.format(utcMs))
  let wallAsUtc: number
  if (wall) wallAsUtc = utcDateMs(Number(wall[3]), Number(wall[1]), Number(wall[2]), Number(wall[4]), Number(wall[5]), Number(wall[6]))
  else {
    const fields: Record<string, number> = {}
    for (const part of formatter.formatToParts(utcMs)) {
      if (part.type !== 'literal') fields[part.type] = Number(part.value)
    }
    wallAsUtc = utcDateMs(fields.year!, fields.month!, fields.day!, fields.hour!, fields.minute!, fields.second!)
  }
  return wallAsUtc - Math.floor(utcMs / 1000) * 1000
}

/** "HH:MM" (00:00–24:00) → minutes since local midnight. */
export function parseLocalTime(text: string): number {
  const match = /^(\d{2}):(\d{2})$/.exec(text)
  if (!match) return Number.NaN
  const hours = Number(match[1])
  const minutes = Number(match[2])
  if (minutes > 59 || hours > 24 || (hours === 24 && minutes !== 0)) return Number.NaN
  return hours * 60 + minutes
}

export function formatLocalTime(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`
}

/** "YYYY-MM-DD" → days since 1970-01-01, or NaN when it is not a real calendar date. */
export function dayNumber(date: string): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date)
  if (!match) return Number.NaN
  const year = Number(match[1])
  const month = Number(match[2])
  const day = Number(match[3])
  if (!isRealDate(year, month, day)) return Number.NaN
  return utcDateMs(year, month, day) / DAY_MS
}

export function dateOfDayNumber(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10)
}

/** 0 = Sunday … 6 = Saturday. */
export function weekdayOfDayNumber(day: number): number {
  return (((day + 4) % 7) + 7) % 7
}

/**
 * The UTC instant of a local wall time. Wall times inside a spring-forward gap move forward
 * by the gap; ambiguous fall-back times take the first (earlier) occurrence. Both rules are
 * deterministic and independent of the host zone.
 */
export function localToUtc(tz: string, day: number, minutes: number): number {
  const wallAsUtc = day * DAY_MS + minutes * MINUTE_MS
  // Offsets on either side of the wall time cover both sides of any transition that day.
  const before = zoneOffsetMs(tz, wallAsUtc - DAY_MS / 2)
  const after = zoneOffsetMs(tz, wallAsUtc + DAY_MS / 2)
  const earlier = wallAsUtc - Math.max(before, after)
  const later = wallAsUtc - Math.min(before, after)
  for (const candidate of [earlier, later]) {
    if (candidate + zoneOffsetMs(tz, candidate) === wallAsUtc) return candidate
  }
  // In a gap: no instant shows this wall time; use the instant the gap ends.
  return wallAsUtc - Math.min(before, after)
}

export interface LocalParts {
  day: number
  date: string
  minutes: number
  weekday: number
}

/** Local calendar date and wall-clock minutes of an instant in `tz` (`offsetMs`: the zone's offset at it, when already known). */
export function utcToLocal(tz: string, utcMs: number, offsetMs: number = zoneOffsetMs(tz, utcMs)): LocalParts {
  const wallAsUtc = utcMs + offsetMs
  const day = Math.floor(wallAsUtc / DAY_MS)
  return {
    day,
    date: dateOfDayNumber(day),
    minutes: Math.floor((wallAsUtc - day * DAY_MS) / MINUTE_MS),
    weekday: weekdayOfDayNumber(day),
  }
}
