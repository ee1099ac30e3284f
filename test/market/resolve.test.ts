import { describe, expect, test } from 'bun:test'
import { resolveStatus } from '../../src/market/resolve'
import { makeTestApp } from '../helpers/app'

// Tuesday 10 March 2026, 11:00 EDT: XNYS is in its regular session by the calendar.
const OPEN_INSTANT = '2026-03-10T15:00:00.000Z'

describe('status resolution order', () => {
  test('calendar alone: OPEN from SCHEDULE', async () => {
    const { deps, clock } = makeTestApp({ now: OPEN_INSTANT })
    expect(await resolveStatus(deps, 'XNYS', clock.now())).toMatchObject({ status: 'OPEN', source: 'SCHEDULE' })
  })

  test('override beats halt beats calendar; an expired override is ignored', async () => {
    const { deps, clock } = makeTestApp({ now: OPEN_INSTANT })
    // A real-time halt (as the monitor would record it).
    ;(deps.halts as unknown as { halts: Map<string, unknown> }).halts.set('XNYS', { code: 'MWC1', since: 'x', reason: 'feed: MWC1' })
    expect(await resolveStatus(deps, 'XNYS', clock.now())).toMatchObject({ status: 'HALTED', source: 'REALTIME', reason: 'feed: MWC1' })
    await deps.overrides.set({ mic: 'XNYS', status: 'CLOSED', reason: 'exchange outage', expires_at: new Date(clock.now() + 3_600_000).toISOString() }, 'test')
    expect(await resolveStatus(deps, 'XNYS', clock.now())).toMatchObject({ status: 'CLOSED', source: 'OVERRIDE', reason: 'exchange outage' })
    clock.advance(3_600_000)
    expect(await resolveStatus(deps, 'XNYS', clock.now())).toMatchObject({ status: 'HALTED', source: 'REALTIME' })
  })

  test('an internal error is UNKNOWN from SYSTEM', async () => {
    const { deps, clock } = makeTestApp({ now: OPEN_INSTANT })
    deps.overrides.forMic = async () => {
      throw new Error('store gone')
    }
    expect(await resolveStatus(deps, 'XNYS', clock.now())).toMatchObject({ status: 'UNKNOWN', source: 'SYSTEM' })
  })

  test('outside calendar coverage is UNKNOWN, never a guess', async () => {
    const { deps } = makeTestApp()
    expect(await resolveStatus(deps, 'XNYS', Date.parse('2031-03-10T15:00:00Z'))).toMatchObject({ status: 'UNKNOWN', source: 'SCHEDULE' })
  })
})
