import { describe, expect, test } from 'bun:test'
import { issueKey } from '../../src/accounts/keys'
import { OverrideService } from '../../src/market/overrides/service'
import { sqliteOverrideStore } from '../../src/market/overrides/store'
import { runOverridesCommand, parseDuration } from '../../src/cli/overrides'
import { openDatabase } from '../../src/store/database'
import { applyMigrations } from '../../src/store/migrate'
import { MIGRATIONS } from '../../src/wiring/migrations'
import { memoryLogger } from '../../src/log'
import { makeTestApp, TEST_ADMIN_KEY, FakeClock } from '../helpers/app'
import { verifyWithRegistry } from '../helpers/verify'

const OPEN_INSTANT = '2026-03-10T15:00:00.000Z'
const admin = { 'x-oracle-key': TEST_ADMIN_KEY, 'content-type': 'application/json' }
const inHours = (clock: FakeClock, hours: number) => new Date(clock.now() + hours * 3_600_000).toISOString()

describe('admin override endpoints', () => {
  test('set → every surface shows it at once, signed as OVERRIDE with reason; clear → back to the calendar', async () => {
    const harness = makeTestApp({ now: OPEN_INSTANT })
    const key = (await issueKey(harness.deps.accounts, { plan: 'pro', now: new Date(harness.clock.now()) })).key
    const set = await harness.json('/v5/admin/overrides', { method: 'POST', headers: admin, body: JSON.stringify({ mic: 'XNYS', status: 'HALTED', reason: 'Exchange declared an outage', expires_at: inHours(harness.clock, 2), operator: 'alice' }) })
    expect(set.status).toBe(201)
    expect(set.body.override).toMatchObject({ mic: 'XNYS', status: 'HALTED', created_by: 'admin-api:alice' })

    const keys = (await harness.json('/v5/keys')).body
    const demo = (await harness.json('/v5/demo')).body
    expect(demo).toMatchObject({ status: 'HALTED', source: 'OVERRIDE', reason: 'Exchange declared an outage' })
    expect(Object.keys(demo).filter((k) => k !== 'signature').sort()).toEqual(keys.canonical_payload_spec.override_fields)
    expect(verifyWithRegistry(keys, demo)).toBe(true)
    expect((await harness.json('/v5/status', { headers: { 'x-oracle-key': key } })).body.status).toBe('HALTED')
    expect((await harness.json('/v5/batch?mics=XNYS,XNAS', { headers: { 'x-oracle-key': key } })).body.receipts[0].status).toBe('HALTED')
    const sample = (await harness.json('/v1/safe-to-trade/sample?max_age=30')).body
    expect(sample).toMatchObject({ venue_status: 'HALTED', venue_source: 'OVERRIDE', safe: 'false' })
    expect(JSON.parse(sample.reasons)).toEqual(['VENUE_NOT_OPEN', 'VENUE_OVERRIDE_ACTIVE'])
    expect(await (await harness.request('/v5/card/XNYS')).text()).toContain('HALTED')

    const list = await harness.json('/v5/admin/overrides', { headers: admin })
    expect(list.body.overrides.map((o: { mic: string }) => o.mic)).toEqual(['XNYS'])

    expect((await harness.request('/v5/admin/overrides/XNYS', { method: 'DELETE', headers: admin })).status).toBe(204)
    expect((await harness.json('/v5/demo')).body).toMatchObject({ status: 'OPEN', source: 'SCHEDULE' })
    expect((await harness.json('/v5/admin/overrides/XNYS', { method: 'DELETE', headers: admin })).status).toBe(404)

    const logged = harness.log.lines.filter((line) => line.msg === 'override set' || line.msg === 'override cleared').map((line) => line.msg)
    expect(logged).toEqual(['override set', 'override cleared'])
  })

  const bad: [string, Record<string, unknown>, string][] = [
    ['unknown MIC', { mic: 'NOPE', status: 'HALTED', reason: 'r', expires_at: '+1' }, 'UNKNOWN_MIC'],
    ['bad status', { mic: 'XNYS', status: 'PAUSED', reason: 'r', expires_at: '+1' }, 'INVALID_STATUS'],
    ['missing reason', { mic: 'XNYS', status: 'HALTED', expires_at: '+1' }, 'REASON_REQUIRED'],
    ['reason too long', { mic: 'XNYS', status: 'HALTED', reason: 'x'.repeat(501), expires_at: '+1' }, 'REASON_TOO_LONG'],
    ['missing expiry', { mic: 'XNYS', status: 'HALTED', reason: 'r' }, 'EXPIRES_AT_REQUIRED'],
    ['expiry in the past', { mic: 'XNYS', status: 'HALTED', reason: 'r', expires_at: '-1' }, 'EXPIRES_AT_INVALID'],
    ['expiry beyond 7 days', { mic: 'XNYS', status: 'HALTED', reason: 'r', expires_at: '+169' }, 'EXPIRES_AT_INVALID'],
    ['expiry not a date', { mic: 'XNYS', status: 'HALTED', reason: 'r', expires_at: 'tomorrow' }, 'EXPIRES_AT_INVALID'],
    ['unknown member', { mic: 'XNYS', status: 'HALTED', reason: 'r', expires_at: '+1', colour: 'red' }, 'BAD_REQUEST'],
  ]
  for (const [name, body, code] of bad) {
    test(`${name} → 400 ${code}, nothing stored`, async () => {
      const harness = makeTestApp({ now: OPEN_INSTANT })
      const resolved = { ...body }
      if (typeof resolved.expires_at === 'string' && /^[+-]\d+$/.test(resolved.expires_at)) resolved.expires_at = inHours(harness.clock, Number(resolved.expires_at))
      const response = await harness.json('/v5/admin/overrides', { method: 'POST', headers: admin, body: JSON.stringify(resolved) })
      expect(response.status).toBe(400)
      expect(response.body.error).toBe(code)
      expect((harness.db.query('SELECT count(*) AS n FROM overrides').get() as { n: number }).n).toBe(0)
      expect((harness.db.query('SELECT count(*) AS n FROM override_events').get() as { n: number }).n).toBe(0)
    })
  }

  test('malformed JSON → 400; no admin key → 401; wrong key → 403', async () => {
    const harness = makeTestApp()
    expect((await harness.json('/v5/admin/overrides', { method: 'POST', headers: admin, body: '{nope' })).status).toBe(400)
    expect((await harness.json('/v5/admin/overrides', { method: 'POST', body: '{}' })).status).toBe(401)
    expect((await harness.json('/v5/admin/overrides', { headers: { 'x-oracle-key': 'svc_live_' + '0'.repeat(64) } })).status).toBe(403)
  })
})

describe('overrides persist and are shared across processes', () => {
  test('survive a restart, and a change made by another process is seen within a second', async () => {
    const dir = (await import('../helpers/app')).tempDir()
    const path = `${dir}/db.sqlite`
    const clock = new FakeClock(Date.parse(OPEN_INSTANT))
    const first = openDatabase(path)
    applyMigrations(first, MIGRATIONS)
    const service = new OverrideService(sqliteOverrideStore(first), clock, memoryLogger())
    await service.set({ mic: 'XLON', status: 'CLOSED', reason: 'test', expires_at: inHours(clock, 1) }, 'test')
    first.close()

    const second = openDatabase(path)
    const restarted = new OverrideService(sqliteOverrideStore(second), clock, memoryLogger())
    expect((await restarted.forMic('XLON'))?.status).toBe('CLOSED')

    // Another process (the CLI) writes to the same database.
    const other = new OverrideService(sqliteOverrideStore(openDatabase(path)), clock, memoryLogger())
    await other.set({ mic: 'XNAS', status: 'HALTED', reason: 'cli', expires_at: inHours(clock, 1) }, 'cli')
    expect(await restarted.forMic('XNAS')).toBeNull() // cached for up to one second
    clock.advance(1000)
    expect((await restarted.forMic('XNAS'))?.status).toBe('HALTED')
  })

  test('the override log is append-only', () => {
    const db = openDatabase(':memory:')
    applyMigrations(db, MIGRATIONS)
    db.run("INSERT INTO override_events (at, action, mic, actor) VALUES ('t', 'set', 'XNYS', 'x')")
    expect(() => db.run('UPDATE override_events SET actor = 1')).toThrow(/append-only/)
    expect(() => db.run('DELETE FROM override_events')).toThrow(/append-only/)
  })
})

describe('openbell overrides command', () => {
  test('set with --for, list, clear', async () => {
    const harness = makeTestApp({ now: OPEN_INSTANT })
    const lines: string[] = []
    const out = (line: string) => lines.push(line)
    expect(await runOverridesCommand(['set', 'xnys', 'halted', '--reason', 'drill', '--for', '2h'], harness.deps.overrides, harness.clock.now(), out)).toBe(0)
    expect(lines[0]).toContain('XNYS is HALTED (OVERRIDE) until 2026-03-10T17:00:00.000Z')
    expect((await harness.json('/v5/demo')).body.status).toBe('HALTED')
    await runOverridesCommand(['list'], harness.deps.overrides, harness.clock.now(), out)
    expect(lines.at(-1)).toMatch(/^XNYS\tHALTED/)
    await runOverridesCommand(['clear', 'XNYS'], harness.deps.overrides, harness.clock.now(), out)
    expect((await harness.json('/v5/demo')).body.status).toBe('OPEN')
    expect(await runOverridesCommand(['set', 'XNYS', 'HALTED', '--reason', 'x', '--for', '8d'], harness.deps.overrides, harness.clock.now(), out)).toBe(2)
    expect(lines.at(-1)).toContain('EXPIRES_AT_INVALID')
    expect(parseDuration('90m')).toBe(5_400_000)
    expect(parseDuration('2 hours')).toBeNull()
  })
})
