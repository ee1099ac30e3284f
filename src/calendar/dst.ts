// Finding the instants where a zone's UTC offset changes (daylight saving transitions).
import { DAY_MS, MINUTE_MS, zoneOffsetMs } from './zone'

export interface OffsetTransition {
  timezone: string
  at: number
  offsetBefore: number
  offsetAfter: number
}

/** Transitions in (from, to], found by daily steps and then a binary search to the minute. */
export function transitionsBetween(timezone: string, from: number, to: number): OffsetTransition[] {
  const found: OffsetTransition[] = []
  let previousAt = from
  let previousOffset = zoneOffsetMs(timezone, from)
  for (let at = from + DAY_MS; previousAt < to; at += DAY_MS) {
    const probe = Math.min(at, to)
    const offset = zoneOffsetMs(timezone, probe)
    if (offset !== previousOffset) {
      let low = previousAt
      let high = probe
      while (high - low > MINUTE_MS) {
        const mid = low + Math.floor((high - low) / 2 / MINUTE_MS) * MINUTE_MS
        if (zoneOffsetMs(timezone, mid) === previousOffset) low = mid
        else high = mid
      }
      found.push({ timezone, at: high, offsetBefore: previousOffset, offsetAfter: offset })
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
