import { describe, expect, test } from 'bun:test'
import { issueKey } from '../../src/accounts/keys'
import { Signer } from '../../src/crypto/signer'
import { SUPPORTED_MICS } from '../../src/calendar/mics'
import { makeTestApp, type TestApp } from '../helpers/app'
import { signedMembers, verifyWithRegistry, type KeyRegistry } from '../helpers/verify'

const OPEN_INSTANT = '2026-03-10T15:00:00.000Z'

async function withKey(harness: TestApp, plan: 'pro' | 'free' = 'pro') {
  return (await issueKey(harness.deps.accounts, { plan, now: new Date(harness.clock.now()) })).key
}

async function registry(harness: TestApp): Promise<KeyRegistry> {
  return (await harness.json('/v5/keys')).body
}

describe('GET /v5/demo', () => {
  test('a demo receipt with exactly the spec fields, verifiable with /v5/keys alone', async () => {
    const harness = makeTestApp({ now: OPEN_INSTANT })
    const { status, body } = await harness.json('/v5/demo?mic=XNYS')
    expect(status).toBe(200)
    expect(body).toMatchObject({ mic: 'XNYS', status: 'OPEN', source: 'SCHEDULE', receipt_mode: 'demo', schema_version: 'v5.0', issuer: 'oracle.test', public_key_id: 'key_2026_v1', issued_at: OPEN_INSTANT, expires_at: '2026-03-10T15:01:00.000Z' })
    expect(['active', 'schedule_only']).toContain(body.halt_detection)
    expect(body.reason).toBeUndefined()
    const keys = await registry(harness)
    expect(signedMembers(body)).toEqual(keys.canonical_payload_spec.receipt_fields!)
    expect(verifyWithRegistry(keys, body)).toBe(true)
    expect(verifyWithRegistry(keys, { ...body, status: 'CLOSED' })).toBe(false)
  })

  test('defaults to XNYS; unknown MIC is 400; halt_detection is schedule_only outside the US venues', async () => {
    const harness = makeTestApp({ now: OPEN_INSTANT })
    expect((await harness.json('/v5/demo')).body.mic).toBe('XNYS')
    const bad = await harness.json('/v5/demo?mic=ZZZZ')
    expect(bad.status).toBe(400)
    expect(bad.body).toMatchObject({ error: 'UNKNOWN_MIC' })
    expect(bad.body.supported).toEqual([...SUPPORTED_MICS])
    expect((await harness.json('/v5/demo?mic=XLON')).body.halt_detection).toBe('schedule_only')
  })

  test('the demo surface is not written to the audit log; live receipts are', async () => {
    const harness = makeTestApp({ now: OPEN_INSTANT })
    await harness.json('/v5/demo')
    const key = await withKey(harness)
    const live = await harness.json('/v5/status', { headers: { 'x-oracle-key': key } })
    // Answered only after the row is committed: no flush needed before reading it.
    const rows = harness.db.query('SELECT * FROM audit_log').all() as Record<string, string>[]
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ receipt_id: live.body.receipt_id, mic: 'XNYS', status: 'OPEN', source: 'SCHEDULE', schema_version: 'v5.0', surface: '/v5/status', day: '2026-03-10', payment_ref: null })
    expect(rows[0]!.key_hash).toBe(new Bun.CryptoHasher('sha256').update(key).digest('hex'))
    expect(JSON.parse(rows[0]!.receipt_json!)).toEqual(live.body)
  })
})

describe('GET /v5/status', () => {
  test('with a key: a live receipt', async () => {
    const harness = makeTestApp({ now: OPEN_INSTANT })
    const key = await withKey(harness)
    const { status, body } = await harness.json('/v5/status?mic=XNYS', { headers: { 'x-oracle-key': key } })
    expect(status).toBe(200)
    expect(body.receipt_mode).toBe('live')
    expect(verifyWithRegistry(await registry(harness), body)).toBe(true)
  })

  test('no key: 402 with x402 payment requirements and a base64 PAYMENT-REQUIRED header', async () => {
    const harness = makeTestApp({ env: { X402_PAY_TO: '0x' + '1'.repeat(40) } })
    const response = await harness.request('/v5/status')
    expect(response.status).toBe(402)
    const body = (await response.json()) as Record<string, any>
    expect(body.error).toBe('PAYMENT_REQUIRED')
    expect(body.x402Version).toBe(2)
    expect(body.payTo).toBe('0x' + '1'.repeat(40))
    expect(body.amount).toBe('0.001')
    expect(body.accepts[0]).toMatchObject({ scheme: 'exact', network: 'eip155:8453', amount: '1000', payTo: '0x' + '1'.repeat(40) })
    const header = JSON.parse(Buffer.from(response.headers.get('payment-required')!, 'base64').toString('utf8'))
    expect(header.accepts).toEqual(body.accepts)
  })

  test('a payment header is never served unverified: malformed → 402, payments not configured → 503', async () => {
    const harness = makeTestApp()
    const malformed = await harness.json('/v5/status', { headers: { 'x-payment': '{"txHash":"0xabc"}' } })
    expect(malformed.status).toBe(402)
    expect(malformed.body.error).toBe('PAYMENT_MALFORMED')
    const unconfigured = await harness.json('/v5/status', { headers: { 'x-payment': JSON.stringify({ txHash: `0x${'ab'.repeat(32)}`, network: 'base' }) } })
    expect(unconfigured.status).toBe(503)
    expect(unconfigured.body.error).toBe('PAYMENTS_NOT_CONFIGURED')
  })

  test('unknown key 403; suspended key 402', async () => {
    const harness = makeTestApp()
    expect((await harness.json('/v5/status', { headers: { 'x-oracle-key': 'svc_live_' + 'f'.repeat(64) } })).status).toBe(403)
    const { key, account } = await issueKey(harness.deps.accounts, { plan: 'pro', now: new Date(harness.clock.now()) })
    await harness.deps.accounts.setStatus(account.id, 'suspended')
    expect((await harness.json('/v5/status', { headers: { 'x-oracle-key': key } })).status).toBe(402)
  })
})

describe('GET /v5/status/realtime', () => {
  test('needs a key; answers a signed receipt with the halt monitor state', async () => {
    const harness = makeTestApp({ now: OPEN_INSTANT })
    expect((await harness.json('/v5/status/realtime')).status).toBe(401)
    const key = await withKey(harness)
    const { status, body } = await harness.json('/v5/status/realtime?mic=XNAS', { headers: { 'x-oracle-key': key } })
    expect(status).toBe(200)
    expect(body.mic).toBe('XNAS')
    expect(verifyWithRegistry(await registry(harness), body.signed_receipt)).toBe(true)
    expect(body.halt_monitor).toMatchObject({ status: 'disabled', venues: ['XNYS', 'XNAS'], applies_to_mic: true })
  })
})

describe('GET /v5/batch', () => {
  test('every venue, each independently signed and verifiable', async () => {
    const harness = makeTestApp({ now: OPEN_INSTANT })
    const key = await withKey(harness)
    const { status, body } = await harness.json(`/v5/batch?mics=${SUPPORTED_MICS.join(',')}`, { headers: { 'x-oracle-key': key } })
    expect(status).toBe(200)
    expect(body.batch_id).toMatch(/^[0-9a-f-]{36}$/)
    expect(body.receipts.map((r: { mic: string }) => r.mic)).toEqual([...SUPPORTED_MICS])
    expect(new Set(body.receipts.map((r: { receipt_id: string }) => r.receipt_id)).size).toBe(SUPPORTED_MICS.length)
    const keys = await registry(harness)
    for (const receipt of body.receipts) {
      expect(receipt.receipt_mode).toBe('live')
      expect(verifyWithRegistry(keys, receipt)).toBe(true)
    }
  })

  test('duplicates are removed, case is folded', async () => {
    const harness = makeTestApp({ now: OPEN_INSTANT })
    const key = await withKey(harness)
    const { body } = await harness.json('/v5/batch?mics=XNYS,xnys, XLON ,XNYS', { headers: { 'x-oracle-key': key } })
    expect(body.receipts.map((r: { mic: string }) => r.mic)).toEqual(['XNYS', 'XLON'])
  })

  const bad: [string, string][] = [
    ['/v5/batch', 'MICS_REQUIRED'],
    ['/v5/batch?mics=', 'MICS_REQUIRED'],
    ['/v5/batch?mics=,,', 'MICS_REQUIRED'],
    ['/v5/batch?mics=XNYS,NOPE', 'UNKNOWN_MIC'],
  ]
  for (const [path, code] of bad) {
    test(`${path} → 400 ${code}`, async () => {
      const harness = makeTestApp()
      const key = await withKey(harness)
      const { status, body } = await harness.json(path, { headers: { 'x-oracle-key': key } })
      expect(status).toBe(400)
      expect(body.error).toBe(code)
    })
  }

  test('no key: 402', async () => {
    const harness = makeTestApp()
    expect((await harness.json('/v5/batch?mics=XNYS')).status).toBe(402)
  })
})

describe('signer offline → unsigned CRITICAL_FAILURE with status UNKNOWN', () => {
  for (const [name, path, needsKey] of [
    ['demo', '/v5/demo', false],
    ['status', '/v5/status', true],
    ['batch', '/v5/batch?mics=XNYS,XLON', true],
    ['realtime', '/v5/status/realtime', true],
    ['health', '/v5/health', false],
    ['conformance vectors', '/v5/conformance-vectors', false],
  ] as const) {
    test(name, async () => {
      const harness = makeTestApp({ now: OPEN_INSTANT, signer: Signer.offline('test') })
      const headers: Record<string, string> = needsKey ? { 'x-oracle-key': await withKey(harness) } : {}
      const { status, body } = await harness.json(path, { headers })
      expect(status).toBe(500)
      expect(body).toMatchObject({ error: 'CRITICAL_FAILURE', status: 'UNKNOWN' })
      expect(body.signature).toBeUndefined()
    })
  }
})
