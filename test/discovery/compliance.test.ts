// /v5/compliance: every check passes on a healthy service and flips to fail, with its evidence,
// when its condition is broken; answers are cached for at most 60 s.
import { describe, expect, test } from 'bun:test'
import { cpSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { makeTestApp, REPO_SCHEDULES, tempDir, type TestApp } from '../helpers/app'
import { Signer } from '../../src/crypto/signer'
import { issueKey } from '../../src/accounts/keys'
import { COMPLIANCE_CHECK_IDS } from '../../src/discovery/compliance'
import { EMPTY_ROOT_HEX } from '../../src/audit/merkle'
import { setFirstStart } from '../helpers/installation'

interface Check {
  check: string
  status: 'pass' | 'fail'
  evidence: string
}

const DAY_MS = 86_400_000

async function report(t: TestApp) {
  const { status, body } = await t.json('/v5/compliance')
  expect(status).toBe(200)
  return body as { standard: string; oracle: string; version: string; last_verified: string; checks: Check[] }
}

const byId = (checks: Check[]) => Object.fromEntries(checks.map((check) => [check.check, check]))
const failing = (checks: Check[]) => checks.filter((check) => check.status === 'fail').map((check) => check.check)

/** A test app whose installation started before its (fake) clock, as a real one would. */
function healthyApp(options: Parameters<typeof makeTestApp>[0] = {}) {
  const t = makeTestApp(options)
  setFirstStart(t, new Date(t.clock.now() - DAY_MS).toISOString())
  return t
}

describe('/v5/compliance', () => {
  test('a healthy service passes every check; the fields of spec 2.7', async () => {
    const t = healthyApp()
    const body = await report(t)
    expect(body).toMatchObject({ oracle: t.config.issuer, version: '5.0.0', last_verified: new Date(t.clock.now()).toISOString() })
    expect(body.checks.map((check) => check.check)).toEqual(COMPLIANCE_CHECK_IDS)
    expect(failing(body.checks)).toEqual([])
    for (const check of body.checks) expect(check.evidence.length).toBeGreaterThan(10)
  })

  test('signer offline: the fresh receipt and the JWKS checks fail', async () => {
    const t = healthyApp({ signer: Signer.offline('test: key file unreadable') })
    const checks = (await report(t)).checks
    expect(failing(checks)).toEqual(['receipt_verifies', 'jwks_thumbprint'])
    expect(byId(checks).receipt_verifies!.evidence).toContain('publishes no key')
  })

  test('a calendar that expires within 30 days fails the horizon check, naming the venue', async () => {
    const t = healthyApp()
    const xnys = t.deps.calendars.calendar('XNYS')!
    // 20 days before XNYS's coverage ends.
    t.clock.ms = xnys.coverageEnd - 20 * DAY_MS
    const check = byId((await report(t)).checks).calendar_horizon!
    expect(check.status).toBe('fail')
    expect(check.evidence).toContain(`XNYS coverage ends ${xnys.coverageTo}`)
  })

  test('a calendar file rejected at reload fails the files check (the old version stays in force)', async () => {
    const dir = tempDir()
    cpSync(REPO_SCHEDULES, dir, { recursive: true })
    const t = healthyApp({ schedulesDir: dir })
    expect(byId((await report(t)).checks).calendar_files!.status).toBe('pass')
    writeFileSync(join(dir, 'XLON.json'), '{"mic": "XLON", "broken": ')
    t.deps.calendars.reload('test')
    t.clock.advance(61_000)
    const check = byId((await report(t)).checks).calendar_files!
    expect(check.status).toBe('fail')
    expect(check.evidence).toContain('XLON')
  })

  test('a tampered digest chain fails the audit check; an unsealed yesterday fails too', async () => {
    const t = healthyApp({ now: '2026-03-09T15:00:00.000Z' })
    const { key } = await issueKey(t.deps.accounts, { plan: 'pro', now: new Date(t.clock.now()) })
    await t.deps.auditTrail.sealer.startedOn()
    expect((await t.json('/v5/status?mic=XNYS', { headers: { 'x-oracle-key': key } })).status).toBe(200)
    // The next day, before sealing has run: yesterday is due and not sealed.
    t.clock.set('2026-03-10T12:00:00.000Z')
    const unsealed = byId((await report(t)).checks).audit_chain!
    expect(unsealed.status).toBe('fail')
    expect(unsealed.evidence).toContain('2026-03-09 is not sealed')
    await t.deps.auditTrail.sealer.tick()
    t.clock.advance(61_000)
    expect(byId((await report(t)).checks).audit_chain!.status).toBe('pass')
    t.clock.set('2026-03-11T00:01:00.000Z')
    await t.deps.auditTrail.sealer.tick()
    t.db.run('DROP TRIGGER audit_digests_no_update')
    t.db.run(`UPDATE audit_digests SET merkle_root = '${EMPTY_ROOT_HEX}' WHERE date = '2026-03-09'`)
    t.clock.advance(61_000)
    const tampered = byId((await report(t)).checks).audit_chain!
    expect(tampered.status).toBe('fail')
    expect(tampered.evidence).toContain('BROKEN')
  })

  test('a witness store that refuses writes, or is at its row ceiling, fails the witness check; the probe leaves no row', async () => {
    const t = healthyApp()
    expect(byId((await report(t)).checks).witness_writable!.status).toBe('pass')
    expect((t.db.query('SELECT count(*) AS n FROM witness_checkpoints').get() as { n: number }).n).toBe(0)
    t.db.run('PRAGMA query_only = ON')
    t.clock.advance(61_000)
    const check = byId((await report(t)).checks).witness_writable!
    expect(check.status).toBe('fail')
    expect(check.evidence).toContain('not writable')

    const full = healthyApp({ env: { WITNESS_MAX_ROWS: '1' } })
    full.db.run(`INSERT INTO witness_checkpoints (kid, session_id, count, last_entry_hash, received_at, utc_day, pool, account_id, fork, receipt_json) VALUES ('k', 's', 1, 'h', '2026-03-02T00:00:00Z', '2026-03-02', 'anonymous', NULL, 0, '{}')`)
    expect(byId((await report(full)).checks).witness_writable!.evidence).toContain('full')
  })

  test('a halt monitor with no good poll for two intervals during a US session fails the halt check', async () => {
    // 2026-03-02 15:00 UTC is inside the NYSE session; nothing listens on the discard port.
    const t = healthyApp({ haltFeed: { url: 'http://127.0.0.1:9/halts', format: 'rss', intervalMs: 30_000 } })
    await t.deps.halts.tick()
    expect(byId((await report(t)).checks).halt_monitor!.status).toBe('pass')
    t.clock.advance(61_000)
    const check = byId((await report(t)).checks).halt_monitor!
    expect(check.status).toBe('fail')
    expect(check.evidence).toContain('degraded during a US session')
  })

  test('a clock before the recorded first start fails the clock check', async () => {
    const t = makeTestApp()
    setFirstStart(t, new Date(t.clock.now() + 3_600_000).toISOString())
    const check = byId((await report(t)).checks).clock_bounds!
    expect(check.status).toBe('fail')
    expect(check.evidence).toContain('is before first start of this installation')
  })

  test('answers are cached for at most 60 s', async () => {
    const t = healthyApp()
    const first = await report(t)
    t.db.run('PRAGMA query_only = ON')
    t.clock.advance(59_000)
    expect(await report(t)).toEqual(first)
    t.clock.advance(1_000)
    const fresh = await report(t)
    expect(fresh.last_verified).not.toBe(first.last_verified)
    expect(failing(fresh.checks)).toEqual(['witness_writable'])
  })
})
