// The daily digests and the continuous log: a sealed digest names (and signs) the log's tree size
// that holds every receipt of its day and the days before; a digest sealed before that member
// existed still verifies; and retention keeps a day's bodies until the log has integrated them.
import { expect, test } from 'bun:test'
import { issueKey } from '../../src/accounts/keys'
import { sealedDigest } from '../../src/audit/digest'
import { makeTestApp } from '../helpers/app'
import { verifyWithRegistry } from '../helpers/verify'

async function setup() {
  const harness = makeTestApp({ now: '2026-03-09T23:59:50.000Z', env: { RECEIPT_RETENTION_DAYS: '31' } })
  const { key } = await issueKey(harness.deps.accounts, { plan: 'pro', now: new Date(harness.clock.now()) })
  await harness.deps.auditTrail.sealer.startedOn()
  const status = async () => (await harness.json('/v5/status?mic=XNYS', { headers: { 'x-oracle-key': key } })).body as Record<string, string>
  return { harness, status }
}

test('sealed digests sign log_tree_size; across midnight it holds the late receipts of the day before', async () => {
  const { harness, status } = await setup()
  for (let i = 0; i < 4; i++) await status()
  harness.clock.set('2026-03-10T00:00:01.000Z')
  for (let i = 0; i < 3; i++) await status()
  harness.clock.set('2026-03-10T00:00:20.000Z')
  expect(await harness.deps.auditTrail.sealer.tick()).toEqual(['2026-03-09'])
  const day1 = (await harness.json('/v5/audit/digest?date=2026-03-09')).body
  expect(day1).toMatchObject({ total_receipts_issued: 4, log_tree_size: 4 })
  harness.clock.set('2026-03-11T00:00:20.000Z')
  await status()
  expect(await harness.deps.auditTrail.sealer.tick()).toEqual(['2026-03-10'])
  const day2 = (await harness.json('/v5/audit/digest?date=2026-03-10')).body
  expect(day2).toMatchObject({ total_receipts_issued: 3, log_tree_size: 7 })
  const keys = (await harness.json('/v5/keys')).body
  expect(keys.canonical_payload_spec.digest_optional_fields).toEqual(['log_tree_size'])
  expect(verifyWithRegistry(keys, day2.receipt)).toBe(true)
  // A changed size is a broken signature, at /v5/verify as well.
  expect(verifyWithRegistry(keys, { ...day2.receipt, log_tree_size: '6' })).toBe(false)
  const verify = (receipt: unknown) => harness.json('/v5/verify', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ receipt }) })
  expect((await verify(day2.receipt)).body).toMatchObject({ valid: true, reason: 'SIGNATURE_VALID' })
  expect((await verify({ ...day2.receipt, log_tree_size: '6' })).body).toMatchObject({ valid: false, reason: 'INVALID_SIGNATURE' })
  expect((await verify({ ...day2.receipt, log_tree_size: 7 })).body).toMatchObject({ valid: false, reason: 'MALFORMED_RECEIPT' })
  // A digest signed before log_tree_size existed (no such member) still verifies, both ways.
  const old = JSON.parse(sealedDigest(harness.deps.signer, harness.config.issuer, '2026-03-08', { rootHex: 'ab'.repeat(32), size: 1 }, ['XNYS'], null, '2026-03-09T00:00:10.000Z').signed_json)
  expect('log_tree_size' in old).toBe(false)
  expect(verifyWithRegistry(keys, old)).toBe(true)
  expect((await verify(old)).body).toMatchObject({ valid: true, reason: 'SIGNATURE_VALID' })
})

test('retention keeps the bodies of a day the log has not integrated; prunes once it has', async () => {
  const { harness, status } = await setup()
  await status()
  await status()
  harness.clock.set('2026-04-20T00:00:20.000Z')
  await harness.deps.auditTrail.sealer.tick()
  expect(await harness.deps.auditTrail.retention.tick()).toBe(0)
  expect(harness.log.lines.some((line) => String(line.msg).includes('not integrated them yet'))).toBe(true)
  await harness.deps.transparency.integrator.tick()
  expect(await harness.deps.auditTrail.retention.tick()).toBe(2)
  // The log still serves their exact bytes.
  const bundle = await harness.request('/log/tile/entries/000.p/2')
  expect(bundle.status).toBe(200)
})
