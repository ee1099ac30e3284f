// The public npm package @headlessoracle/verify (a client written for the same specification,
// a dev dependency here) against a running service: it reads /v5/keys itself (its keysUrl) and
// verifies the kinds it knows, market-state receipts (with or without a reason) and health
// receipts, by the union of receipt_fields, override_fields and health_fields; safe-to-trade
// receipts with the list given (its canonicalFields option, from /v5/keys). Objects that do not
// expire (witness receipts, digests) it does not know: it refuses them (MISSING_FIELDS), as a
// fail-closed client should.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { resetSpecCache, verify } from '@headlessoracle/verify'
import { startCompatService, SEALED_DAYS, type CompatService } from './harness'

let service: CompatService
let keysUrl: string

beforeAll(async () => {
  service = await startCompatService()
  keysUrl = `${service.base}/v5/keys`
  resetSpecCache()
}, 60_000)
afterAll(() => service?.stop())

const get = async (path: string, init: RequestInit = {}) => (await (await fetch(`${service.base}${path}`, init)).json()) as Record<string, any>
const keyed = () => ({ headers: { 'x-oracle-key': service.apiKey } })

describe('@headlessoracle/verify against this service', () => {
  test('market-state receipts of every surface, an override receipt and the health receipt verify; a changed member does not', async () => {
    const now = new Date(service.now())
    await get('/v5/admin/overrides', { method: 'POST', headers: { 'content-type': 'application/json', 'x-oracle-key': service.adminKey }, body: JSON.stringify({ mic: 'XPAR', status: 'HALTED', reason: 'package check', expires_at: new Date(service.now() + 3_600_000).toISOString() }) })
    const receipts: [string, Record<string, unknown>][] = [
      ['demo', await get('/v5/demo?mic=XNYS')],
      ['live status', await get('/v5/status?mic=XNYS', keyed())],
      ...((await get('/v5/batch?mics=XLON,XJPX', keyed())).receipts as Record<string, unknown>[]).map((receipt, i): [string, Record<string, unknown>] => [`batch ${i}`, receipt]),
      ['override', await get('/v5/status?mic=XPAR', keyed())],
      ['health', await get('/v5/health')],
    ]
    for (const [name, receipt] of receipts) {
      expect({ name, result: await verify(receipt, { keysUrl, now }) }).toEqual({ name, result: { valid: true } })
      expect({ name, result: await verify({ ...receipt, issued_at: '2026-03-12T14:59:59.000Z' }, { keysUrl, now }) }).toEqual({ name, result: { valid: false, reason: 'INVALID_SIGNATURE' } })
    }
    // Its own checks: expiry (60 s), and a key the registry does not list.
    expect(await verify(receipts[1]![1], { keysUrl, now: new Date(service.now() + 61_000) })).toEqual({ valid: false, reason: 'EXPIRED' })
    expect(await verify({ ...receipts[1]![1], public_key_id: 'key_unknown' }, { keysUrl, now })).toEqual({ valid: false, reason: 'UNKNOWN_KEY' })
  })

  test('safe-to-trade receipts, with safe_to_trade_fields from /v5/keys as its canonicalFields', async () => {
    const now = new Date(service.now())
    const keys = await get('/v5/keys')
    const canonicalFields = keys.canonical_payload_spec.safe_to_trade_fields as string[]
    for (const receipt of [await get('/v1/safe-to-trade/sample?venue=XLON&max_age=30'), await get('/v1/safe-to-trade?venue=XNYS&max_age=30', keyed())]) {
      expect(await verify(receipt, { keysUrl, now, canonicalFields })).toEqual({ valid: true })
      expect(await verify({ ...receipt, safe: receipt.safe === 'true' ? 'false' : 'true' }, { keysUrl, now, canonicalFields })).toEqual({ valid: false, reason: 'INVALID_SIGNATURE' })
    }
  })

  test('what it does not know (records that do not expire) it refuses rather than accepts', async () => {
    const digest = await get(`/v5/audit/digest?date=${SEALED_DAYS.now}`)
    for (const record of [digest.receipt, digest.log_receipt]) expect(await verify(record, { keysUrl, now: new Date(service.now()) })).toEqual({ valid: false, reason: 'MISSING_FIELDS' })
  })
})
