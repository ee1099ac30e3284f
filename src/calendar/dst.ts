// Finding the instants where a zone's UTC offset changes (daylight saving transitions).
import { DAY_MS, MINUTE_MS, zoneOffsetMs } from './zone'

export interface OffsetTransition {
  timezone: string
  at: number
  offsetBefore: number
  offsetAfter: number
}

/**
 * The exact instant in (low, high] where the offset stops being `offsetBefore`, by bisection to
 * the millisecond. The search does not depend on where `low` lies, so an unaligned start (a
 * request's "now") gives the same instant as an aligned one.
 */
function exactChange(timezone: string, low: number, high: number, offsetBefore: number): number {
  while (high - low > 1) {
    const mid = low + Math.floor((high - low) / 2)
    if (zoneOffsetMs(timezone, mid) === offsetBefore) low = mid
    else high = mid
  }
  return high
}

/**
 * Transitions in (from, to], found by daily steps and then bisection to the millisecond.
 * Daily steps assume at most one change a day, which holds for every zone the calendars use;
 * the transitions of those zones are whole-minute instants (test/calendar/dst-transitions.test.ts).
 */
export function transitionsBetween(timezone: string, from: number, to: number): OffsetTransition[] {
  const found: OffsetTransition[] = []
  let previousAt = from
  let previousOffset = zoneOffsetMs(timezone, from)
  while (previousAt < to) {
    const probe = Math.min(previousAt + DAY_MS, to)
    const offset = zoneOffsetMs(timezone, probe)
    if (offset !== previousOffset) {
      found.push({ timezone, at: exactChange(timezone, previousAt, probe, previousOffset), offsetBefore: previousOffset, offsetAfter: offset })
    }
    previousAt = probe
    previousOffset = offset
  }
  return found
}

export function formatOffset(offsetMs: number): string {
  const minutes = Math.round(offsetMs / MINUTE_MS)
  const sign = minutes < 0 ? '-' : '+'
  const abs = Math.abs(minutes)
  return `UTC${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`
}
