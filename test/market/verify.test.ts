import { describe, expect, test } from 'bun:test'
import { Signer } from '../../src/crypto/signer'
import { hexToBytes } from '../../src/crypto/encoding'
import { makeTestApp } from '../helpers/app'

const OPEN_INSTANT = '2026-03-10T15:00:00.000Z'
const post = (receipt: unknown) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ receipt }) })

describe('POST /v5/verify', () => {
  test('a fresh receipt: valid, not expired, SIGNATURE_VALID', async () => {
    const harness = makeTestApp({ now: OPEN_INSTANT })
    const receipt = (await harness.json('/v5/demo')).body
    const { status, body } = await harness.json('/v5/verify', post(receipt))
    expect(status).toBe(200)
    expect(body).toEqual({ valid: true, expired: false, reason: 'SIGNATURE_VALID', receipt_type: 'receipt_fields', unsigned_members: [], mic: 'XNYS', status: 'OPEN', expires_at: receipt.expires_at })
  })

  test('members the signature does not cover are named in unsigned_members beside valid (issue 24 item 7)', async () => {
    const harness = makeTestApp({ now: OPEN_INSTANT })
    const receipt = (await harness.json('/v5/demo')).body
    // Someone adds claims to a genuine receipt: the signature still holds, and the answer says
    // which members it does not vouch for.
    const padded = { ...receipt, safe_to_trade: true, note: 'verified by openbell' }
    const { body } = await harness.json('/v5/verify', post(padded))
    expect(body).toMatchObject({ valid: true, reason: 'SIGNATURE_VALID', unsigned_members: ['safe_to_trade', 'note'] })
    const viaGet = await harness.json(`/v5/verify?receipt=${encodeURIComponent(JSON.stringify(padded))}`)
    expect(viaGet.body.unsigned_members).toEqual(['safe_to_trade', 'note'])
    // The tool endpoint's verify_receipt answers the same.
    const rpc = await harness.json('/mcp', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'verify_receipt', arguments: { receipt: padded } } }) })
    expect(JSON.parse(rpc.body.result.content[0].text).unsigned_members).toEqual(['safe_to_trade', 'note'])
    // The unsigned extras the service itself adds are listed too: they are not attested either.
    const health = (await harness.json('/v5/health')).body
    expect((await harness.json('/v5/verify', post(health))).body).toMatchObject({ valid: true, unsigned_members: expect.arrayContaining(['exchange_count', 'supported_mics']) })
    const sample = (await harness.json('/v1/safe-to-trade/sample?max_age=5')).body
    expect((await harness.json('/v5/verify', post(sample))).body.unsigned_members).toEqual(expect.arrayContaining(['receipt', 'discovery_url', 'door', 'note']))
    // Unrecognised type: no signed list to compare with.
    expect((await harness.json('/v5/verify', post({ hello: 'world' }))).body).toMatchObject({ valid: false, reason: 'MALFORMED_RECEIPT', unsigned_members: null })
  })

  test('tampered field → INVALID_SIGNATURE', async () => {
    const harness = makeTestApp({ now: OPEN_INSTANT })
    const receipt = (await harness.json('/v5/demo')).body
    const { body } = await harness.json('/v5/verify', post({ ...receipt, status: 'CLOSED' }))
    expect(body).toMatchObject({ valid: false, reason: 'INVALID_SIGNATURE' })
  })

  test('after expires_at → valid signature, expired, a RECEIPT_EXPIRED message asking for a re-fetch', async () => {
    const harness = makeTestApp({ now: OPEN_INSTANT })
    const receipt = (await harness.json('/v5/demo')).body
    harness.clock.advance(61_000)
    const { body } = await harness.json('/v5/verify', post(receipt))
    expect(body.valid).toBe(true)
    expect(body.expired).toBe(true)
    expect(body.reason).toMatch(/^RECEIPT_EXPIRED/)
    expect(body.reason).toMatch(/fetch a fresh receipt/)
  })

  test('unknown public_key_id → INVALID_SIGNATURE even if the bytes verify under our key', async () => {
    const harness = makeTestApp({ now: OPEN_INSTANT })
    const receipt = (await harness.json('/v5/demo')).body
    const { body } = await harness.json('/v5/verify', post({ ...receipt, public_key_id: 'key_1999_v1' }))
    expect(body).toMatchObject({ valid: false, reason: 'INVALID_SIGNATURE' })
  })

  test('a receipt signed by another key → INVALID_SIGNATURE', async () => {
    const other = makeTestApp({ now: OPEN_INSTANT, signer: Signer.fromSeed(hexToBytes('11'.repeat(32))!, 'key_2026_v1', '2026-01-01T00:00:00.000Z', null) })
    const forged = (await other.json('/v5/demo')).body
    const harness = makeTestApp({ now: OPEN_INSTANT })
    expect((await harness.json('/v5/verify', post(forged))).body).toMatchObject({ valid: false, reason: 'INVALID_SIGNATURE' })
  })

  test('health, override and safe-to-trade receipts are recognised, wrappers stripped', async () => {
    const harness = makeTestApp({ now: OPEN_INSTANT })
    const health = (await harness.json('/v5/health')).body
    expect((await harness.json('/v5/verify', post(health))).body).toMatchObject({ valid: true, receipt_type: 'health_fields' })
    const sample = (await harness.json('/v1/safe-to-trade/sample?max_age=5')).body
    expect((await harness.json('/v5/verify', post(sample))).body).toMatchObject({ valid: true, receipt_type: 'safe_to_trade_fields', mic: 'XNYS', status: 'OPEN' })
    await harness.deps.overrides.set({ mic: 'XNYS', status: 'CLOSED', reason: 'drill', expires_at: '2026-03-10T16:00:00.000Z' }, 'test')
    const override = (await harness.json('/v5/demo')).body
    expect((await harness.json('/v5/verify', post(override))).body).toMatchObject({ valid: true, receipt_type: 'override_fields' })
    // Removing the signed reason breaks it.
    const { reason: _reason, ...withoutReason } = override
    expect((await harness.json('/v5/verify', post(withoutReason))).body.valid).toBe(false)
  })

  test('malformed receipts → 200 MALFORMED_RECEIPT; missing or non-JSON body → 400', async () => {
    const harness = makeTestApp({ now: OPEN_INSTANT })
    const receipt = (await harness.json('/v5/demo')).body
    for (const bad of [{ hello: 'world' }, { ...receipt, status: 5 }, { ...receipt, signature: 'XYZ' }, { ...receipt, signature: receipt.signature.toUpperCase() }]) {
      const { status, body } = await harness.json('/v5/verify', post(bad))
      expect(status).toBe(200)
      expect(body).toMatchObject({ valid: false, reason: 'MALFORMED_RECEIPT' })
    }
    expect((await harness.json('/v5/verify', { method: 'POST', body: '{' })).status).toBe(400)
    expect((await harness.json('/v5/verify', { method: 'POST', body: '{}' })).body.error).toBe('RECEIPT_REQUIRED')
    expect((await harness.json('/v5/verify', { method: 'POST', body: '{"receipt":"x"}' })).status).toBe(400)
    expect((await harness.json('/v5/verify', { method: 'POST', body: JSON.stringify({ receipt: { pad: 'x'.repeat(20_000) } }) })).status).toBe(413) // over 16 KB: PAYLOAD_TOO_LARGE (issue 11 item 10)
  })

  test('no key configured → ORACLE_NOT_CONFIGURED', async () => {
    const signed = makeTestApp({ now: OPEN_INSTANT })
    const receipt = (await signed.json('/v5/demo')).body
    const offline = makeTestApp({ now: OPEN_INSTANT, signer: Signer.offline('x') })
    expect((await offline.json('/v5/verify', post(receipt))).body).toMatchObject({ valid: false, reason: 'ORACLE_NOT_CONFIGURED' })
  })
})

describe('GET /v5/verify', () => {
  test('takes the JSON-encoded receipt in the query', async () => {
    const harness = makeTestApp({ now: OPEN_INSTANT })
    const receipt = (await harness.json('/v5/demo')).body
    const { status, body } = await harness.json(`/v5/verify?receipt=${encodeURIComponent(JSON.stringify(receipt))}`)
    expect(status).toBe(200)
    expect(body.valid).toBe(true)
    expect((await harness.json('/v5/verify')).status).toBe(400)
    expect((await harness.json('/v5/verify?receipt=%7B')).status).toBe(400)
  })
})
