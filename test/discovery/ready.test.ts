// GET /v5/ready against real parts: 200 when the node can answer live requests; 503 NOT_READY
// naming what fails when the audit log refuses rows (the SQLite connection made read-only, so
// every write really fails), when it is shut down, when the signing key is offline or when no
// calendar is loaded. /v5/health (liveness) stays as it was meanwhile. The database unreachable
// (PostgreSQL) is test/nodes/example.test.ts: one node's database cut under nginx.
import { beforeAll, describe, expect, test } from 'bun:test'
import { issueKey } from '../../src/accounts/keys'
import { OUTAGE_HOLD_MS } from '../../src/audit/log'
import { Signer } from '../../src/crypto/signer'
import { makeTestApp, sharedCalendars, tempDir } from '../helpers/app'

const allOk = { storage: { ok: true, backend: 'sqlite', status: 'ok' }, audit_log: { ok: true, status: 'ok' }, signer: { ok: true }, calendars: { ok: true, loaded: expect.any(Number), venues: expect.any(Number) } }

describe('GET /v5/ready', () => {
  // Compiling every venue's calendar once takes seconds on a loaded machine.
  beforeAll(() => void sharedCalendars(), 60_000)

  test('ready: 200 READY with every check, never cached; every venue of the list has its calendar', async () => {
    const t = makeTestApp()
    const ready = await t.json('/v5/ready')
    expect(ready.status).toBe(200)
    expect(ready.body).toEqual({ status: 'READY', node_id: t.deps.node.id, checks: allOk })
    expect(ready.body.checks.calendars.loaded).toBe(ready.body.checks.calendars.venues)
    expect(ready.headers.get('cache-control')).toBe('no-store')
    expect((await t.json('/v5/ready?verbose=1')).status).toBe(400)
  })

  test('the audit log refusing rows: 503 NOT_READY (audit_log) while /v5/health stays 200 OK; ready again after a good write', async () => {
    const t = makeTestApp()
    const { key } = await issueKey(t.deps.accounts, { plan: 'pro', now: new Date(t.clock.now()) })
    t.db.exec('PRAGMA query_only = ON')
    const refused = await t.json('/v5/status?mic=XNYS', { headers: { 'x-oracle-key': key } })
    expect([refused.status, refused.body.error]).toEqual([503, 'AUDIT_LOG_UNAVAILABLE'])
    const notReady = await t.json('/v5/ready')
    expect(notReady.status).toBe(503)
    expect(notReady.headers.get('retry-after')).toBe('5')
    expect(notReady.body).toEqual({ error: 'NOT_READY', message: expect.stringContaining('audit_log'), node_id: t.deps.node.id, failing: ['audit_log'], checks: { ...allOk, audit_log: { ok: false, status: 'failing' } } })
    // Liveness is not readiness: the process runs and signs.
    const health = await t.json('/v5/health')
    expect([health.status, health.body.status]).toEqual([200, 'OK'])
    // Without traffic the failure is let go after the hold (the next writes decide) ...
    expect(t.deps.audit.health(Date.now() + OUTAGE_HOLD_MS)).toBe('ok')
    // ... and a write that succeeds ends it at once.
    t.db.exec('PRAGMA query_only = OFF')
    expect((await t.json('/v5/status?mic=XNYS', { headers: { 'x-oracle-key': key } })).status).toBe(200)
    expect((await t.json('/v5/ready')).status).toBe(200)
  })

  test('shutting down: the stopped audit log makes the node not ready', async () => {
    const t = makeTestApp()
    const stop = t.deps.audit.start()
    expect((await t.json('/v5/ready')).status).toBe(200)
    await stop()
    const answer = await t.json('/v5/ready')
    expect([answer.status, answer.body.failing, answer.body.checks.audit_log]).toEqual([503, ['audit_log'], { ok: false, status: 'stopped' }])
  })

  test('the signing key offline: 503 (signer); /v5/health answers its CRITICAL_FAILURE as before', async () => {
    const t = makeTestApp({ signer: Signer.offline('no key file') })
    const answer = await t.json('/v5/ready')
    expect([answer.status, answer.body.failing]).toEqual([503, ['signer']])
    expect((await t.json('/v5/health')).status).toBe(500)
  })

  test('no calendar loaded: 503 (calendars, 0 loaded)', async () => {
    const t = makeTestApp({ schedulesDir: tempDir('openbell-test-no-schedules-') })
    const answer = await t.json('/v5/ready')
    expect([answer.status, answer.body.failing, answer.body.checks.calendars.loaded]).toEqual([503, ['calendars'], 0])
    expect((await t.json('/v5/health')).status).toBe(200)
  })
})
