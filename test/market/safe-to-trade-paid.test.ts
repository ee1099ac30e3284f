// GET /v1/safe-to-trade: the paid door. Builder and pro keys (x402 payment: test/payments/x402.test.ts),
// venue required, the sample door's signed content without door/note, audit-logged, no per-address limit.
import { describe, expect, test } from 'bun:test'
import { Signer } from '../../src/crypto/signer'
import { issueKey } from '../../src/accounts/keys'
import { makeTestApp, type TestApp } from '../helpers/app'
import { signedMembers, verifyWithRegistry } from '../helpers/verify'

const OPEN_INSTANT = '2026-03-10T15:00:00.000Z'

async function keyOf(t: TestApp, plan: 'builder' | 'pro' | 'free' | 'sandbox') {
  return (await issueKey(t.deps.accounts, { plan, now: new Date(t.clock.now()) })).key
}

const auditRows = (t: TestApp) => t.db.query('SELECT receipt_id, mic, status, source, surface, key_hash, payment_ref FROM audit_log').all() as Record<string, string | null>[]

describe('GET /v1/safe-to-trade', () => {
  test('a builder key gets the signed receipt of the sample door without door and note; it is audit-logged with the key hash', async () => {
    const t = makeTestApp({ now: OPEN_INSTANT })
    const key = await keyOf(t, 'builder')
    const { status, body } = await t.json('/v1/safe-to-trade?venue=XNYS&max_age=30&instrument=AAPL', { headers: { 'x-oracle-key': key } })
    expect(status).toBe(200)
    expect(body).toMatchObject({ venue: 'XNYS', venue_status: 'OPEN', venue_source: 'SCHEDULE', safe: 'true', reasons: '[]', max_age: '30', instrument: 'AAPL', receipt_mode: 'live' })
    expect(body.door).toBeUndefined()
    expect(body.note).toBeUndefined()
    const keys = (await t.json('/v5/keys')).body
    expect(signedMembers(body)).toEqual(keys.canonical_payload_spec.safe_to_trade_fields)
    expect(verifyWithRegistry(keys, body)).toBe(true)
    expect(verifyWithRegistry(keys, body.receipt)).toBe(true)
    expect(body.discovery_url).toBe(`${t.config.publicBaseUrl}/v5/keys`)
    // Same signed members as the sample door.
    const sample = (await t.json('/v1/safe-to-trade/sample?venue=XNYS&max_age=30&instrument=AAPL')).body
    expect(signedMembers(sample)).toEqual(signedMembers(body))
    await t.deps.audit.flush()
    const [row] = auditRows(t).filter((r) => r.receipt_id === body.receipt_id)
    expect(row).toMatchObject({ mic: 'XNYS', status: 'OPEN', source: 'SCHEDULE', surface: '/v1/safe-to-trade', payment_ref: null })
    expect(row!.key_hash).toHaveLength(64)
  })

  test('metered on the key like /v5/status: /v5/usage counts each answered request; a refused request is not counted', async () => {
    const t = makeTestApp({ now: OPEN_INSTANT })
    const key = await keyOf(t, 'builder')
    const usage = async () => (await t.json('/v5/usage', { headers: { 'x-oracle-key': key } })).body.requests_today as number
    const before = await usage()
    for (let i = 0; i < 3; i++) expect((await t.json('/v1/safe-to-trade?venue=XNYS&max_age=30', { headers: { 'x-oracle-key': key } })).status).toBe(200)
    expect((await t.json('/v1/safe-to-trade?max_age=30', { headers: { 'x-oracle-key': key } })).status).toBe(400)
    expect(await usage()).toBe(before + 3)
  })

  test('a pro key is admitted; free and sandbox keys get 403 PLAN_NOT_ALLOWED; an unknown key 403; no key 402 with the status price', async () => {
    const t = makeTestApp({ now: OPEN_INSTANT, env: { X402_PAY_TO: '0x' + '3'.repeat(40), X402_STATUS_PRICE: '0.002' } })
    expect((await t.json('/v1/safe-to-trade?venue=XLON&max_age=5', { headers: { 'x-oracle-key': await keyOf(t, 'pro') } })).status).toBe(200)
    for (const plan of ['free', 'sandbox'] as const) {
      const refused = await t.json('/v1/safe-to-trade?venue=XLON&max_age=5', { headers: { 'x-oracle-key': await keyOf(t, plan) } })
      expect(refused).toMatchObject({ status: 403, body: { error: 'PLAN_NOT_ALLOWED' } })
    }
    expect((await t.json('/v1/safe-to-trade?venue=XLON&max_age=5', { headers: { 'x-oracle-key': 'ob_live_not_a_key' } })).status).toBe(403)
    const unpaid = await t.json('/v1/safe-to-trade?venue=XLON&max_age=5')
    expect(unpaid.status).toBe(402)
    expect(unpaid.headers.get('payment-required')).toBeTruthy()
    expect(JSON.stringify(unpaid.body)).toContain('2000') // 0.002 USDC in atomic units (6 decimals)
    expect(JSON.stringify(unpaid.body)).toContain('/v1/safe-to-trade')
    // Only the pro key's receipt was logged.
    expect(auditRows(t)).toHaveLength(1)
  })

  test('venue is required (400 VENUE_REQUIRED) and checked before access; the sample door\'s other 400s apply', async () => {
    const t = makeTestApp({ now: OPEN_INSTANT })
    for (const [query, error] of [
      ['?max_age=5', 'VENUE_REQUIRED'],
      ['?venue=&max_age=5', 'VENUE_REQUIRED'],
      ['?venue=XXXX&max_age=5', 'UNKNOWN_VENUE'],
      ['?venue=XNYS', 'MAX_AGE_REQUIRED'],
      ['?venue=XNYS&max_age=61', 'MAX_AGE_INVALID'],
      [`?venue=XNYS&max_age=5&instrument=${'x'.repeat(65)}`, 'INSTRUMENT_TOO_LONG'],
    ] as const) {
      expect(await t.json(`/v1/safe-to-trade${query}`)).toMatchObject({ status: 400, body: { error } })
    }
    expect(auditRows(t)).toHaveLength(0)
  })

  test('not rate-limited per address: 70 requests in a minute from one address are all answered', async () => {
    const t = makeTestApp({ now: OPEN_INSTANT })
    const key = await keyOf(t, 'builder')
    const headers = { 'x-oracle-key': key, 'cf-connecting-ip': '198.51.100.7' }
    const answers = await Promise.all(Array.from({ length: 70 }, () => t.request('/v1/safe-to-trade?venue=XNYS&max_age=5', { headers })))
    expect(answers.map((answer) => answer.status)).toEqual(Array(70).fill(200))
  })

  test('signer offline: 500 CRITICAL_FAILURE, unsigned UNKNOWN/SYSTEM, safe false, nothing logged', async () => {
    const t = makeTestApp({ now: OPEN_INSTANT, signer: Signer.offline('test') })
    const { status, body } = await t.json('/v1/safe-to-trade?venue=XNYS&max_age=5', { headers: { 'x-oracle-key': await keyOf(t, 'builder') } })
    expect(status).toBe(500)
    expect(body).toMatchObject({ error: 'CRITICAL_FAILURE', status: 'UNKNOWN', venue_status: 'UNKNOWN', venue_source: 'SYSTEM', safe: 'false' })
    expect(body.signature).toBeUndefined()
    expect(auditRows(t)).toHaveLength(0)
  })

  test('HEAD checks access like GET and signs nothing', async () => {
    const t = makeTestApp({ now: OPEN_INSTANT })
    const key = await keyOf(t, 'builder')
    const head = await t.request('/v1/safe-to-trade?venue=XNYS&max_age=5', { method: 'HEAD', headers: { 'x-oracle-key': key } })
    expect(head.status).toBe(200)
    expect((await t.request('/v1/safe-to-trade?max_age=5', { method: 'HEAD', headers: { 'x-oracle-key': key } })).status).toBe(400)
    expect((await t.request('/v1/safe-to-trade?venue=XNYS&max_age=5', { method: 'HEAD', headers: { 'x-oracle-key': await keyOf(t, 'free') } })).status).toBe(403)
    expect(auditRows(t)).toHaveLength(0)
  })
})
