// Offsets read from Intl's formatted text (the fast path of zoneOffsetMs) against the offsets of
// formatToParts, for every exchange zone, and the per-file day templates that planDay shares.
import { describe, expect, test } from 'bun:test'
import { planDay } from '../../src/calendar/day-plan'
import { EXCHANGES } from '../../src/calendar/exchanges'
import { dayNumber, zoneOffsetMs } from '../../src/calendar/zone'
import { sharedCalendars } from '../helpers/app'

const partsFormatters = new Map<string, Intl.DateTimeFormat>()

function partsOffset(tz: string, utcMs: number): number {
  let formatter = partsFormatters.get(tz)
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone: tz, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' })
    partsFormatters.set(tz, formatter)
  }
  const fields: Record<string, number> = {}
  for (const part of formatter.formatToParts(utcMs)) if (part.type !== 'literal') fields[part.type] = Number(part.value)
  return Date.UTC(fields.year!, fields.month! - 1, fields.day!, fields.hour!, fields.minute!, fields.second!) - Math.floor(utcMs / 1000) * 1000
}

describe('zoneOffsetMs', () => {
  test('equals the formatToParts offset for every exchange zone, every 29 h 17 min over 2025-2029 (every hour of the day in turn), and at the ends of the supported range', () => {
    const zones = [...new Set(EXCHANGES.map((exchange) => exchange.timezone))]
    const instants = [0, Date.UTC(9999, 11, 31, 23, 59, 59, 999)]
    for (let ms = Date.UTC(2025, 0, 1); ms < Date.UTC(2030, 0, 1); ms += (29 * 60 + 17) * 60_000 + 1_234) instants.push(ms)
    let compared = 0
    for (const tz of zones) {
      for (const instant of instants) {
        const [fast, parts] = [zoneOffsetMs(tz, instant), partsOffset(tz, instant)]
        if (fast !== parts) expect({ tz, at: new Date(instant).toISOString(), offset: fast }).toEqual({ tz, at: new Date(instant).toISOString(), offset: parts })
        compared++
      }
    }
    expect(compared).toBe(zones.length * instants.length)
  })
})

describe('planDay', () => {
  test("a file's templates are parsed once and shared frozen: a caller cannot change another day's session", () => {
    const file = sharedCalendars().calendar('XKLS')!.file
    const monday = planDay(file, dayNumber('2026-12-07'))
    const nextMonday = planDay(file, dayNumber('2026-12-14'))
    expect(monday.segments).toEqual([[540, 750], [870, 1005]])
    expect(nextMonday.templateSegments).toBe(monday.templateSegments)
    expect(() => (monday.segments as [number, number][]).push([1100, 1200])).toThrow()
    expect(() => {
      monday.segments[0]![1] = 800
    }).toThrow()
    expect(planDay(file, dayNumber('2026-12-21')).segments).toEqual([[540, 750], [870, 1005]])
  })
})
