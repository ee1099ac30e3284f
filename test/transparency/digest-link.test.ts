// The daily digests and the continuous log: a sealed digest's receipt signs exactly digest_fields,
// and its log receipt (digest_log_fields) the log's tree size that holds every receipt of its day
// and the days before; a digest sealed while its receipt signed that size is signed again over
// exactly digest_fields, keeping what was published; and retention keeps a day's bodies until
// the log has integrated them.
import { expect, test } from 'bun:test'
import { issueKey } from '../../src/accounts/keys'
import { makeTestApp } from '../helpers/app'
import { sealWithLogSizeInReceipt } from '../helpers/legacy-digest'
import { verifyWithRegistry, type KeyRegistry } from '../helpers/verify'

async function setup() {
  const harness = makeTestApp({ now: '2026-03-09T23:59:50.000Z', env: { RECEIPT_RETENTION_DAYS: '31' } })
  const { key } = await issueKey(harness.deps.accounts, { plan: 'pro', now: new Date(harness.clock.now()) })
  await harness.deps.auditTrail.sealer.startedOn()
  const status = async () => (await harness.json('/v5/status?mic=XNYS', { headers: { 'x-oracle-key': key } })).body as Record<string, string>
  return { harness, status }
}

test('sealed digests: receipt signs exactly digest_fields; the log receipt binds the day to the log size holding it and the days before, across midnight', async () => {
  const { harness, status } = await setup()
  for (let i = 0; i < 4; i++) await status()
  harness.clock.set('2026-03-10T00:00:01.000Z')
  for (let i = 0; i < 3; i++) await status()
  harness.clock.set('2026-03-10T00:00:20.000Z')
  expect(await harness.deps.auditTrail.sealer.tick()).toEqual(['2026-03-09'])
  const day1 = (await harness.json('/v5/audit/digest?date=2026-03-09')).body
  expect(day1).toMatchObject({ total_receipts_issued: 4, log_tree_size: 4, log_receipt: { log_tree_size: '4' } })
  harness.clock.set('2026-03-11T00:00:20.000Z')
  await status()
  expect(await harness.deps.auditTrail.sealer.tick()).toEqual(['2026-03-10'])
  const day2 = (await harness.json('/v5/audit/digest?date=2026-03-10')).body
  expect(day2).toMatchObject({ total_receipts_issued: 3, log_tree_size: 7, log_receipt: { type: 'audit.digest-log/1', date: '2026-03-10', merkle_root: day2.merkle_root, log_tree_size: '7', log_origin: 'oracle.test/log' } })
  const keys = (await harness.json('/v5/keys')).body
  expect(keys.canonical_payload_spec.digest_log_fields).toEqual(['date', 'issuer', 'log_origin', 'log_tree_size', 'merkle_root', 'public_key_id', 'type'])
  expect('log_tree_size' in day2.receipt).toBe(false)
  expect(verifyWithRegistry(keys, day2.receipt)).toBe(true)
  expect(verifyWithRegistry(keys, day2.log_receipt)).toBe(true)
  // A changed size is a broken signature, at /v5/verify as well.
  expect(verifyWithRegistry(keys, { ...day2.log_receipt, log_tree_size: '6' })).toBe(false)
  const verify = (receipt: unknown) => harness.json('/v5/verify', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ receipt }) })
  expect((await verify(day2.log_receipt)).body).toMatchObject({ valid: true, reason: 'SIGNATURE_VALID', receipt_type: 'digest_log_fields' })
  expect((await verify({ ...day2.log_receipt, log_tree_size: '6' })).body).toMatchObject({ valid: false, reason: 'INVALID_SIGNATURE' })
  expect((await verify({ ...day2.log_receipt, log_tree_size: 7 })).body).toMatchObject({ valid: false, reason: 'MALFORMED_RECEIPT' })
  // The log receipt of one day is not the digest of another: the day and root are signed.
  expect(verifyWithRegistry(keys, { ...day2.log_receipt, merkle_root: day1.merkle_root })).toBe(false)
})

test('a digest sealed while its receipt signed log_tree_size: signed again over exactly digest_fields, with its log receipt; what was published is kept; the chain holds', async () => {
  const { harness, status } = await setup()
  await status()
  // 2026-03-09 sealed as the release before migration 13 sealed it: log_tree_size among the receipt's signed members.
  harness.clock.set('2026-03-10T00:00:20.000Z')
  const store = harness.deps.audit.store
  await sealWithLogSizeInReceipt(harness, '2026-03-09', 1)
  const keys = (await harness.json('/v5/keys')).body
  const before = (await harness.json('/v5/audit/digest?date=2026-03-09')).body
  // What a client written from the specification met: a receipt with a member digest_fields does not list.
  expect(exactly(keys, before.receipt, 'digest_fields')).toBe(false)
  // The sealer's next run signs it again, once, and seals the next day with a log receipt as usual.
  harness.clock.set('2026-03-11T00:00:20.000Z')
  expect(await harness.deps.auditTrail.sealer.tick()).toEqual(['2026-03-10'])
  expect(harness.log.lines.some((line) => line.msg === 'audit digests signed again over exactly digest_fields, with their log receipts')).toBe(true)
  const after = (await harness.json('/v5/audit/digest?date=2026-03-09')).body
  expect(exactly(keys, after.receipt, 'digest_fields')).toBe(true)
  expect(exactly(keys, after.log_receipt, 'digest_log_fields')).toBe(true)
  expect(after.log_receipt).toMatchObject({ log_tree_size: '1', merkle_root: before.merkle_root, date: '2026-03-09' })
  // The receipt as first published stays, and verifies as it did (at /v5/verify too).
  expect(after.receipt_with_log_tree_size).toEqual(before.receipt)
  expect(verifyWithRegistry(keys, after.receipt_with_log_tree_size)).toBe(true)
  const verify = (receipt: unknown) => harness.json('/v5/verify', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ receipt }) })
  expect((await verify(after.receipt_with_log_tree_size)).body).toMatchObject({ valid: true, receipt_type: 'digest_fields' })
  expect((await verify(after.receipt)).body).toMatchObject({ valid: true, receipt_type: 'digest_fields', unsigned_members: [] })
  // Same digest: every value but the signature is the one published.
  const { signature: _a, log_tree_size: _size, ...published } = before.receipt
  const { signature: _b, ...again } = after.receipt
  expect(again).toEqual(published)
  // The chain: the next day links to it, every mirror agrees, and the row itself never changed.
  const chain = (await harness.json('/v5/audit/chain')).body
  expect(chain).toMatchObject({ chain_intact: true, chain_length: 2 })
  expect(chain.digests.map((digest: { date: string }) => digest.date)).toEqual(['2026-03-10', '2026-03-09'])
  expect(chain.digests[0].previous_day_merkle_root).toBe(before.merkle_root)
  for (const digest of chain.digests) expect(exactly(keys, digest.receipt, 'digest_fields')).toBe(true)
  expect((await store.digest('2026-03-09'))!.signed_json).toBe(JSON.stringify(before.receipt))
  // Nothing left to sign again: a later run does nothing more.
  expect(await store.digestsToSignAgain()).toEqual([])
})

/** A verifier written from the specification: exactly the named list of /v5/keys, nothing else. */
function exactly(keys: KeyRegistry, receipt: Record<string, string>, list: string): boolean {
  const names = keys.canonical_payload_spec[list]!
  return verifyWithRegistry({ ...keys, canonical_payload_spec: { ...keys.canonical_payload_spec, [list.replace('_fields', '_optional_fields')]: [] } }, receipt) && Object.keys(receipt).filter((name) => name !== 'signature').every((name) => names.includes(name))
}

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
