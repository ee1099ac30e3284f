// The consistency walk: for every venue and every local date from 2026-11-01 to 2027-12-31, the
// day GET /v5/calendar lists agrees at every instant with the engine behind /v5/status and
// /v5/historical (status and phase). The status and phase are constant between the compiled
// span and band boundaries, so checking each piece between consecutive boundaries (its first,
// middle and last millisecond) covers every instant. Then HTTP spot checks per venue: the signed
// /v5/status receipt and /v5/historical at instants taken from the listing.
import { beforeAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { issueKey } from '../../src/accounts/keys'
import type { CompiledCalendar } from '../../src/calendar/compile'
import type { CalendarDay } from '../../src/calendar/days'
import { MAX_RANGE_DAYS } from '../../src/calendar/date-range'
import { phaseAt, spanIndex, statusAt } from '../../src/calendar/engine'
import { SUPPORTED_MICS } from '../../src/calendar/mics'
import { dateOfDayNumber, dayNumber, localToUtc, utcToLocal } from '../../src/calendar/zone'
import { makeTestApp, type TestApp } from '../helpers/app'
import { readListedDay } from '../helpers/listed-days'

const WALK_FROM = '2026-11-01'
const WALK_TO = '2027-12-31'

let t: TestApp
let key: string
const listings = new Map<string, CalendarDay[]>()

/** The walk's dates in requests of at most MAX_RANGE_DAYS days. */
function chunks(): [string, string][] {
  const out: [string, string][] = []
  for (let day = dayNumber(WALK_FROM); day <= dayNumber(WALK_TO); day += MAX_RANGE_DAYS) out.push([dateOfDayNumber(day), dateOfDayNumber(Math.min(day + MAX_RANGE_DAYS - 1, dayNumber(WALK_TO)))])
  return out
}

beforeAll(async () => {
  t = makeTestApp({ now: '2026-11-25T12:00:00.000Z' })
  key = (await issueKey(t.deps.accounts, { plan: 'pro', now: new Date(t.clock.now()) })).key
  for (const mic of SUPPORTED_MICS) {
    const days: CalendarDay[] = []
    for (const [from, to] of chunks()) {
      const { status, body } = await t.json(`/v5/calendar?mic=${mic}&from=${from}&to=${to}`)
      expect(status).toBe(200)
      days.push(...body.days)
    }
    listings.set(mic, days)
  }
})

/** Every instant where the compiled status or phase may change within [start, end). */
function boundaries(calendar: CompiledCalendar, start: number, end: number): number[] {
  const points = [start, end]
  for (let i = Math.max(0, spanIndex(calendar, start)); i < calendar.starts.length && calendar.starts[i]! < end; i++) points.push(calendar.starts[i]!)
  const bands = calendar.bands
  if (bands) for (let i = 0; i < bands.starts.length; i++) if (bands.ends[i]! > start && bands.starts[i]! < end) points.push(bands.starts[i]!, bands.ends[i]!)
  return [...new Set(points.filter((point) => point >= start && point <= end))].sort((a, b) => a - b)
}

/** Checks every piece of every listed day against the engine; returns the number of pieces. */
function walk(calendar: CompiledCalendar, days: readonly CalendarDay[]): number {
  let pieces = 0
  for (const day of days) {
    const number = dayNumber(day.date)
    const points = boundaries(calendar, localToUtc(calendar.timezone, number, 0), localToUtc(calendar.timezone, number + 1, 0))
    const mic = calendar.mic
    // Sessions and phases of the listing are pieces of the day, and their edges are engine boundaries.
    for (const edge of [...day.sessions.flatMap((s) => [s.open, s.close]), ...(day.phases ?? []).flatMap((p) => [p.from, p.to])]) {
      if (!points.includes(Date.parse(edge))) expect({ mic, date: day.date, edge, boundary: false }).toEqual({ mic, date: day.date, edge, boundary: true })
    }
    for (let i = 0; i + 1 < points.length; i++) {
      const [from, to] = [points[i]!, points[i + 1]!]
      for (const instant of [from, Math.floor((from + to) / 2), to - 1]) {
        const listed = readListedDay(day, instant)
        const engine = { status: statusAt(calendar, instant).status, phase: phaseAt(calendar, instant) }
        if (listed.status !== engine.status || listed.phase !== engine.phase) expect({ mic, date: day.date, at: new Date(instant).toISOString(), ...listed }).toEqual({ mic, date: day.date, at: new Date(instant).toISOString(), ...engine })
      }
      pieces++
    }
  }
  return pieces
}

describe(`the walk ${WALK_FROM}..${WALK_TO}`, () => {
  test('every venue: the listing is one day per date, and at every instant it agrees with the engine', () => {
    const walked = { venues: 0, days: 0, pieces: 0 }
    for (const mic of SUPPORTED_MICS) {
      const calendar = t.deps.calendars.calendar(mic)
      expect({ mic, loaded: calendar !== null }).toEqual({ mic, loaded: true })
      const days = listings.get(mic)!
      expect(days.map((day) => day.date)).toEqual(Array.from({ length: dayNumber(WALK_TO) - dayNumber(WALK_FROM) + 1 }, (_, i) => dateOfDayNumber(dayNumber(WALK_FROM) + i)))
      walked.pieces += walk(calendar!, days)
      walked.days += days.length
      walked.venues++
    }
    expect(walked.venues).toBe(SUPPORTED_MICS.length)
    expect(walked.days).toBe(SUPPORTED_MICS.length * (dayNumber(WALK_TO) - dayNumber(WALK_FROM) + 1))
    expect(walked.pieces).toBeGreaterThan(walked.days)
  }, 30_000) // every venue, every day and every piece of a day: work that grows with the venue list

  test('every kind of day occurs in the walk, so the check covers each of them', () => {
    const kinds = new Set([...listings.values()].flat().map((day) => day.kind))
    for (const kind of ['regular', 'early_close', 'late_open', 'special', 'holiday', 'weekend', 'provisional']) expect({ kind, seen: kinds.has(kind as never) }).toEqual({ kind, seen: true })
  })

  test('HTTP spot checks per venue: /v5/status and /v5/historical say what the listed day says', async () => {
    let checked = 0
    for (const mic of SUPPORTED_MICS) {
      const days = listings.get(mic)!
      const regular = days.find((day) => day.kind === 'regular' && day.date >= '2026-12-01')!
      const notable = days.filter((day) => !['regular', 'weekend'].includes(day.kind))
      const instants = [
        Date.parse(regular.sessions[0]!.open) + 60_000,
        Date.parse(regular.sessions.at(-1)!.close) + 2 * 60_000,
        ...notable.slice(0, 2).map((day) => localToUtc(t.deps.calendars.calendar(mic)!.timezone, dayNumber(day.date), 12 * 60 + 7)),
      ]
      for (const instant of instants) {
        const local = utcToLocal(t.deps.calendars.calendar(mic)!.timezone, instant).date
        const listed = readListedDay(days.find((day) => day.date === local)!, instant)
        const at = new Date(instant).toISOString()
        t.clock.ms = instant
        const receipt = (await t.json(`/v5/status?mic=${mic}`, { headers: { 'x-oracle-key': key } })).body
        const historical = (await t.json(`/v5/historical?mic=${mic}&at=${at}`)).body
        expect({ mic, at, status: receipt.status, historical: historical.computed_status, phase: historical.phase }).toEqual({ mic, at, status: listed.status, historical: listed.status, phase: listed.phase })
        checked++
      }
    }
    expect(checked).toBeGreaterThanOrEqual(SUPPORTED_MICS.length * 2)
  })
})

describe('the same walk over the phase fixtures (test/fixtures/phases)', () => {
  test('bands that move with early closes and late opens, sit inside a session, change with seasons and dates', async () => {
    const fixtures = makeTestApp({ now: '2026-06-01T12:00:00.000Z', schedulesDir: join(import.meta.dir, '..', 'fixtures', 'phases') })
    const seen = new Set<string>()
    for (const mic of ['XLON', 'XJPX']) {
      const { status, body } = await fixtures.json(`/v5/calendar?mic=${mic}&from=2026-01-01&to=2026-12-31`)
      expect(status).toBe(200)
      for (const day of body.days as CalendarDay[]) for (const span of day.phases ?? []) seen.add(span.phase)
      expect(walk(fixtures.deps.calendars.calendar(mic)!, body.days)).toBeGreaterThan(365 * 3)
    }
    expect([...seen].sort()).toEqual(['closing_auction', 'continuous', 'post_close', 'pre_open_auction'])
  })
})
