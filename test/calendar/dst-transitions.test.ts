// Daylight-saving transitions are exact instants: found by daily steps and bisection to the
// millisecond, independent of where the search starts, and /v5/dst-risk reports them exactly
// (also from a cached answer, which lasts only until the next transition).
import { describe, expect, test } from 'bun:test'
import { transitionsBetween } from '../../src/calendar/dst'
import { zoneOffsetMs } from '../../src/calendar/zone'
import { makeTestApp, sharedCalendars } from '../helpers/app'

const HOUR = 3_600_000
const iso = (ms: number) => new Date(ms).toISOString()
const yearOf = (year: number) => [Date.UTC(year, 0, 1), Date.UTC(year + 1, 0, 1)] as const
const within = (zone: string, year: number) => transitionsBetween(zone, ...yearOf(year))

// Instants from each zone's law (second Sunday of March 02:00 local in the US, last Sunday of
// March 01:00 UTC in the EU, first Sunday of April 03:00 daylight time in Australia and
// New Zealand, and so on), written out rather than computed.
const facts: { zone: string; year: number; changes: [string, number, number][] }[] = [
  { zone: 'America/New_York', year: 2027, changes: [['2027-03-14T07:00:00.000Z', -5, -4], ['2027-11-07T06:00:00.000Z', -4, -5]] },
  { zone: 'America/New_York', year: 2026, changes: [['2026-03-08T07:00:00.000Z', -5, -4], ['2026-11-01T06:00:00.000Z', -4, -5]] },
  { zone: 'America/Chicago', year: 2027, changes: [['2027-03-14T08:00:00.000Z', -6, -5], ['2027-11-07T07:00:00.000Z', -5, -6]] },
  { zone: 'Europe/London', year: 2027, changes: [['2027-03-28T01:00:00.000Z', 0, 1], ['2027-10-31T01:00:00.000Z', 1, 0]] },
  { zone: 'Europe/Paris', year: 2028, changes: [['2028-03-26T01:00:00.000Z', 1, 2], ['2028-10-29T01:00:00.000Z', 2, 1]] },
  // Southern hemisphere: daylight time ends in April and starts in September/October.
  // Sydney: Sunday 4 April 2027 03:00 AEDT (UTC+11) is Saturday 3 April 16:00Z.
  { zone: 'Australia/Sydney', year: 2027, changes: [['2027-04-03T16:00:00.000Z', 11, 10], ['2027-10-02T16:00:00.000Z', 10, 11]] },
  { zone: 'Australia/Sydney', year: 2026, changes: [['2026-04-04T16:00:00.000Z', 11, 10], ['2026-10-03T16:00:00.000Z', 10, 11]] },
  { zone: 'Pacific/Auckland', year: 2027, changes: [['2027-04-03T14:00:00.000Z', 13, 12], ['2027-09-25T14:00:00.000Z', 12, 13]] },
  { zone: 'Pacific/Auckland', year: 2026, changes: [['2026-04-04T14:00:00.000Z', 13, 12], ['2026-09-26T14:00:00.000Z', 12, 13]] },
  // Brazil abolished daylight time in 2019.
  { zone: 'America/Sao_Paulo', year: 2027, changes: [] },
  { zone: 'America/Sao_Paulo', year: 2026, changes: [] },
]

describe('transitionsBetween', () => {
  for (const { zone, year, changes } of facts) {
    test(`${zone} ${year}: ${changes.map((c) => c[0]).join(', ') || 'no change'}`, () => {
      const found = within(zone, year)
      expect(found.map((t) => [iso(t.at), t.offsetBefore / HOUR, t.offsetAfter / HOUR])).toEqual(changes)
    })
  }

  test('an unaligned start finds the same instants as an aligned one', () => {
    for (const { zone, year } of facts) {
      const [from, to] = yearOf(year)
      const aligned = transitionsBetween(zone, from, to).map((t) => t.at)
      for (const skew of [1, 9_925, 59_999, 3_599_999, 86_399_999]) {
        expect(transitionsBetween(zone, from + skew, to).map((t) => t.at)).toEqual(aligned)
      }
    }
  })

  test('every covered zone changes offset only at whole minutes, exactly at the instant found (2026-2035)', () => {
    const snapshot = sharedCalendars().snapshot()
    const zones = new Set<string>()
    for (const entry of snapshot.entries.values()) if (entry.state === 'loaded') zones.add(entry.calendar.timezone)
    expect(zones.size).toBeGreaterThan(10)
    let count = 0
    for (const zone of zones) {
      const found = transitionsBetween(zone, Date.UTC(2026, 0, 1) + 12_345, Date.UTC(2036, 0, 1))
      for (const t of found) {
        count++
        expect(t.at % 60_000).toBe(0)
        expect(zoneOffsetMs(zone, t.at - 1)).toBe(t.offsetBefore)
        expect(zoneOffsetMs(zone, t.at)).toBe(t.offsetAfter)
      }
    }
    // At least New York, Chicago, London, Paris, Sydney and Auckland change twice a year.
    expect(count).toBeGreaterThanOrEqual(6 * 2 * 10)
  })

  test('a transition exactly at the start is not in (from, to]; one exactly at the end is', () => {
    const at = Date.parse('2027-03-14T07:00:00.000Z')
    expect(transitionsBetween('America/New_York', at, at + 86_400_000)).toEqual([])
    expect(transitionsBetween('America/New_York', at - 86_400_000, at).map((t) => iso(t.at))).toEqual(['2027-03-14T07:00:00.000Z'])
  })
})

describe('GET /v5/dst-risk with an unaligned clock', () => {
  const wholeMinute = /T\d{2}:\d{2}:00\.000Z$/
  const checkExact = (body: any) => {
    expect(body.transition_utc).toMatch(wholeMinute)
    expect(body.expires_at).toMatch(wholeMinute)
    expect(body.affected_exchanges.length).toBeGreaterThan(0)
    for (const entry of body.affected_exchanges) {
      expect(entry.transition_utc).toMatch(wholeMinute)
      if (entry.actual_open_utc_after_dst !== null) expect(entry.actual_open_utc_after_dst).toMatch(wholeMinute)
      if (entry.naive_agent_open_utc !== null) expect(entry.naive_agent_open_utc).toMatch(wholeMinute)
    }
  }

  test('US spring 2027: Bermuda at 06:00:00.000Z, New York at 07:00:00.000Z, Chicago at 08:00:00.000Z', async () => {
    const { json } = makeTestApp({ now: '2027-03-01T12:34:56.789Z' })
    const { status, body } = await json('/v5/dst-risk')
    expect(status).toBe(200)
    checkExact(body)
    // Atlantic/Bermuda (XBDA) follows the US rules one hour east of New York: its change comes first.
    expect(body.transition_utc).toBe('2027-03-14T06:00:00.000Z')
    const byMic = new Map(body.affected_exchanges.map((e: any) => [e.mic, e]))
    expect((byMic.get('XBDA') as any).transition_utc).toBe('2027-03-14T06:00:00.000Z')
    expect((byMic.get('XNYS') as any).transition_utc).toBe('2027-03-14T07:00:00.000Z')
    expect((byMic.get('XCBT') as any).transition_utc).toBe('2027-03-14T08:00:00.000Z')
    expect(body.expires_at).toBe('2027-03-14T08:00:00.000Z')
  })

  test('southern autumn 2027: Auckland and Sydney end daylight time on 3 April UTC', async () => {
    const { json } = makeTestApp({ now: '2027-03-30T05:17:23.456Z' })
    const { body } = await json('/v5/dst-risk')
    checkExact(body)
    const byMic = new Map(body.affected_exchanges.map((e: any) => [e.mic, e]))
    expect((byMic.get('XNZE') as any).transition_utc).toBe('2027-04-03T14:00:00.000Z')
    expect((byMic.get('XASX') as any).transition_utc).toBe('2027-04-03T16:00:00.000Z')
    expect(body.transition_utc).toBe('2027-04-03T14:00:00.000Z')
  })

  test('a cached answer is not shifted, and lasts only until the next transition', async () => {
    const harness = makeTestApp({ now: '2027-03-01T12:34:56.789Z' })
    const first = (await harness.json('/v5/dst-risk')).body
    // Later, still before the transition: the cached answer equals a fresh computation at this instant.
    harness.clock.advance(5 * 86_400_000 + 3 * HOUR + 7_654)
    const cached = (await harness.json('/v5/dst-risk')).body
    const fresh = (await makeTestApp({ now: iso(harness.clock.now()) }).json('/v5/dst-risk')).body
    expect(cached).toEqual(first)
    expect(cached).toEqual(fresh)
    checkExact(cached)
    // Between New York's change (07:00Z) and Chicago's (08:00Z): the passed one is no longer named.
    harness.clock.set('2027-03-14T07:30:00.000Z')
    const after = (await harness.json('/v5/dst-risk')).body
    expect(Date.parse(after.transition_utc)).toBeGreaterThan(harness.clock.now())
    expect(after.transition_utc).toBe('2027-03-14T08:00:00.000Z')
    expect(after.affected_exchanges.some((e: any) => e.mic === 'XNYS')).toBe(false)
    checkExact(after)
  })
})
