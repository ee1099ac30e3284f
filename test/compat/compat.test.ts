// The compatibility suite: every kind of object the service signs, fetched over HTTP from a
// running service and verified as a client written from the specification verifies it
// (spec-verifier.ts, note-verifier.ts: exactly the published field list of each kind, nothing
// the specification does not state). The field lists are compared with the ones recorded when
// they were published (field-lists.ts): a list that changes meaning fails here. The kinds:
// seven receipt kinds (demo, live status, batch, tool endpoint, a reason-carrying override,
// health, safe-to-trade from the sample and the paid door), the real-time status's receipt and
// the conformance vectors; witness receipts; sealed digests of the three kinds a database holds
// and their log receipts; the log's checkpoints with the witness's cosignature, and the C2SP
// witness's cosignature of another log.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createHash, generateKeyPairSync, sign } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { sourceImportsOf } from '../helpers/source-imports'
import { startCompatService, SEALED_DAYS, type CompatService } from './harness'
import { PUBLISHED_FIELD_LISTS } from './field-lists'
import { canonicalPayload, fieldList, jcsFlat, membersOf, merkleRoot, receiptList, verifyDigestAsPublishedWithOptional, verifyReceipt, verifySigned, verifyWitnessReceipt, type Registry } from './spec-verifier'
import { cosignedBy, noteSignedBy, parseCheckpoint, parseNote, parseVkey } from './note-verifier'

let service: CompatService
let registry: Registry & Record<string, any>

beforeAll(async () => {
  service = await startCompatService()
  registry = (await get('/v5/keys')) as typeof registry
}, 60_000)
afterAll(() => service?.stop())

async function get(path: string, init: RequestInit = {}): Promise<any> {
  const response = await fetch(`${service.base}${path}`, init)
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`)
  return response.json()
}
const keyed = () => ({ headers: { 'x-oracle-key': service.apiKey } })
const ok = (verdict: { ok: boolean; why?: string }) => expect(verdict).toEqual({ ok: true })

describe('the suite is a client: nothing of the service in the verifiers', () => {
  test('the verifiers, the recorded lists and the tests import nothing from src/ (only the harness builds the app)', () => {
    for (const file of ['spec-verifier.ts', 'note-verifier.ts', 'field-lists.ts', 'compat.test.ts', 'headlessoracle.test.ts']) {
      const path = `test/compat/${file}`
      const text = readFileSync(join(import.meta.dir, file), 'utf8')
      expect({ file, imports: sourceImportsOf(path).filter((imported) => imported.startsWith('src/')) }).toEqual({ file, imports: [] })
      expect({ file, src: /from ['"][^'"]*\/src\//.test(text) }).toEqual({ file, src: false })
    }
  })
})

describe('field lists keep their meaning', () => {
  test('every list /v5/keys publishes is the one recorded when it was published; no published list goes unrecorded', () => {
    const spec = registry.canonical_payload_spec as Record<string, unknown>
    for (const [name, list] of Object.entries(PUBLISHED_FIELD_LISTS)) expect({ name, list: spec[name] }).toEqual({ name, list })
    const published = Object.keys(spec).filter((name) => name.endsWith('_fields'))
    expect(published.filter((name) => !(name in PUBLISHED_FIELD_LISTS))).toEqual([])
    // The rule itself, as the registry states it.
    expect(spec).toMatchObject({ algorithm: 'Ed25519', signature_encoding: 'hex-lowercase-128', payload_encoding: 'utf-8', key_order: 'sorted', value_type: 'string' })
  })
})

describe('receipts (main-api 2.3-2.5)', () => {
  test('seven receipt kinds, each over exactly its list: demo, live status, batch, tool endpoint, override, health, safe-to-trade', async () => {
    const now = service.now()
    const demo = await get('/v5/demo?mic=XNYS')
    const live = await get('/v5/status?mic=XNYS', keyed())
    const batch = (await get('/v5/batch?mics=XNYS,XLON,XJPX', keyed())).receipts as Record<string, unknown>[]
    const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_market_status', arguments: { mic: 'XLON' } } }
    const tool = JSON.parse((await get('/mcp', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify(call) })).result.content[0].text)
    await get('/v5/admin/overrides', { method: 'POST', headers: { 'content-type': 'application/json', 'x-oracle-key': service.adminKey }, body: JSON.stringify({ mic: 'XPAR', status: 'HALTED', reason: 'compatibility suite', expires_at: new Date(now + 3_600_000).toISOString() }) })
    const override = await get('/v5/status?mic=XPAR', keyed())
    const health = await get('/v5/health')
    const sample = await get('/v1/safe-to-trade/sample?venue=XLON&max_age=30')
    const paid = await get('/v1/safe-to-trade?venue=XJPX&max_age=30', keyed())
    const realtime = (await get('/v5/status/realtime?mic=XNYS', keyed())).signed_receipt
    const kinds: [string, Record<string, unknown>, string][] = [
      ['demo', demo, 'receipt_fields'],
      ['live status', live, 'receipt_fields'],
      ...batch.map((receipt, i): [string, Record<string, unknown>, string] => [`batch ${i}`, receipt, 'receipt_fields']),
      ['tool endpoint', tool, 'receipt_fields'],
      ['override', override, 'override_fields'],
      ['health', health, 'health_fields'],
      ['safe-to-trade sample', sample, 'safe_to_trade_fields'],
      ['safe-to-trade sample, its receipt mirror', sample.receipt, 'safe_to_trade_fields'],
      ['safe-to-trade paid', paid, 'safe_to_trade_fields'],
      ['real-time status', realtime, 'receipt_fields'],
    ]
    for (const [name, receipt, list] of kinds) {
      expect({ name, list: receiptList(receipt) }).toEqual({ name, list })
      expect({ name, verdict: verifyReceipt(registry, receipt, now) }).toEqual({ name, verdict: { ok: true } })
      // A signed member changed is refused (the check is not vacuous).
      const field = fieldList(registry, list).find((candidate) => candidate !== 'public_key_id')!
      expect({ name, verdict: verifyReceipt(registry, { ...receipt, [field]: `${String(receipt[field])}x` }, now).ok }).toEqual({ name, verdict: false })
    }
    expect([demo.receipt_mode, live.receipt_mode, override.source, override.status]).toEqual(['demo', 'live', 'OVERRIDE', 'HALTED'])
    // A minute later every receipt has expired: the verifier says so.
    expect(verifyReceipt(registry, live, now + 61_000)).toMatchObject({ ok: false })
  })

  test('conformance vectors: the canonical payload each vector states is the one built from its list', async () => {
    const vectors = (await get('/v5/conformance-vectors')).vectors as { name: string; receipt: Record<string, unknown>; canonical_payload: string; public_key: string }[]
    expect(vectors.length).toBeGreaterThanOrEqual(5)
    for (const vector of vectors) {
      const list = fieldList(registry, receiptList(vector.receipt))
      expect({ name: vector.name, payload: Buffer.from(vector.canonical_payload, 'base64').toString('utf8') }).toEqual({ name: vector.name, payload: canonicalPayload(vector.receipt, list)! })
      expect({ name: vector.name, verdict: verifyReceipt(registry, vector.receipt, service.now()) }).toEqual({ name: vector.name, verdict: { ok: true } })
    }
  })
})

describe('witness receipts (witness.md 2.1-2.3)', () => {
  test('a checkpoint signed as the spec says is stored; its receipt and the listed ones verify over exactly witness_fields', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519')
    const x = publicKey.export({ format: 'jwk' }).x!
    const kid = createHash('sha256').update(`{"crv":"Ed25519","kty":"OKP","x":"${x}"}`).digest('base64url')
    const checkpoints = [1, 2].map((count) => {
      const unsigned = { v: 'evidence.action/1', type: 'checkpoint', session_id: 'compat', count, last_entry_hash: `sha256:${createHash('sha256').update(`entry ${count}`).digest('hex')}`, ts: '2026-03-12T14:59:00Z', kid }
      return { ...unsigned, sig: sign(null, Buffer.from(jcsFlat(unsigned)), privateKey).toString('base64url') }
    })
    for (const checkpoint of checkpoints) {
      const response = await fetch(`${service.base}/v1/witness/checkpoints`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ checkpoint, public_key_jwk: { kty: 'OKP', crv: 'Ed25519', x } }) })
      expect(response.status).toBe(201)
      ok(verifyWitnessReceipt(registry, (await response.json()) as Record<string, unknown>, checkpoint))
    }
    const listed = (await get(`/v1/witness/checkpoints?kid=${kid}&session_id=compat`)).receipts as Record<string, unknown>[]
    expect(listed).toHaveLength(2)
    listed.forEach((receipt, i) => ok(verifyWitnessReceipt(registry, receipt, checkpoints[i]!)))
    expect(verifyWitnessReceipt(registry, { ...listed[0]!, fork: 'true' }, checkpoints[0]!).ok).toBe(false)
  })
})

describe('daily digests (main-api 2.7, 4.4) and their log receipts', () => {
  const digestOf = (date: string) => get(`/v5/audit/digest?date=${date}`)

  /** A sealed digest checked as a client would: its receipt over exactly digest_fields, saying what the digest says. */
  function checkDigest(digest: Record<string, any>) {
    const receipt = digest.receipt as Record<string, unknown>
    ok(verifySigned(registry, receipt, 'digest_fields'))
    expect(membersOf(receipt)).toEqual(fieldList(registry, 'digest_fields'))
    expect(receipt).toMatchObject({ date: digest.date, merkle_root: digest.merkle_root, previous_day_merkle_root: digest.previous_day_merkle_root ?? '', chain_length: String(digest.chain_length), total_receipts_issued: String(digest.total_receipts_issued), exchanges_attested: JSON.stringify(digest.exchanges_attested) })
    expect(merkleRoot(digest.receipt_ids)).toBe(digest.merkle_root)
  }

  test('sealed before the transparency log: receipt over exactly digest_fields, no log receipt', async () => {
    const digest = await digestOf(SEALED_DAYS.beforeLog)
    checkDigest(digest)
    expect(digest).not.toHaveProperty('log_receipt')
    expect(digest.previous_day_merkle_root).toBeNull()
  })

  test('sealed while its receipt signed log_tree_size: receipt over exactly digest_fields again; the log size in its log receipt; the receipt first published kept (a spec client refuses that one; under the rule published with it, it verifies)', async () => {
    const digest = await digestOf(SEALED_DAYS.withLogSizeInReceipt)
    checkDigest(digest)
    ok(verifySigned(registry, digest.log_receipt, 'digest_log_fields'))
    expect(membersOf(digest.log_receipt)).toEqual(fieldList(registry, 'digest_log_fields'))
    expect(digest.log_receipt).toMatchObject({ type: 'audit.digest-log/1', date: digest.date, merkle_root: digest.merkle_root, log_tree_size: '4' })
    // Why it was signed again: over exactly digest_fields the first receipt does not verify.
    expect(membersOf(digest.receipt_with_log_tree_size)).toContain('log_tree_size')
    expect(verifySigned(registry, digest.receipt_with_log_tree_size, 'digest_fields').ok).toBe(false)
    // What was published still verifies under the rule published with it (digest_optional_fields,
    // "signed when present"), saying the size its log receipt says; a client of that rule accepts
    // the receipts signed since as well (none carries an optional member), and refuses the size changed.
    ok(verifyDigestAsPublishedWithOptional(registry, digest.receipt_with_log_tree_size))
    expect(digest.receipt_with_log_tree_size.log_tree_size).toBe(digest.log_receipt.log_tree_size)
    ok(verifyDigestAsPublishedWithOptional(registry, digest.receipt))
    expect(verifyDigestAsPublishedWithOptional(registry, { ...digest.receipt_with_log_tree_size, log_tree_size: '5' }).ok).toBe(false)
    expect(verifyDigestAsPublishedWithOptional(registry, { ...digest.receipt, log_tree_size: '4' }).ok).toBe(false)
  })

  test('sealed now: receipt over exactly digest_fields; the log receipt names the log of /log/checkpoint', async () => {
    const digest = await digestOf(SEALED_DAYS.now)
    checkDigest(digest)
    ok(verifySigned(registry, digest.log_receipt, 'digest_log_fields'))
    expect(membersOf(digest.log_receipt)).toEqual(fieldList(registry, 'digest_log_fields'))
    expect(digest.log_receipt).toMatchObject({ date: SEALED_DAYS.now, merkle_root: digest.merkle_root, log_tree_size: '5', log_origin: registry.log_note_key.origin })
    expect(verifySigned(registry, { ...digest.log_receipt, log_tree_size: '6' }, 'digest_log_fields').ok).toBe(false)
    // A client tells it from every other signed object by its type, which the registry names for the list.
    expect((registry.canonical_payload_spec.field_list_selection as Record<string, string>).digest_log_fields).toContain(`'${digest.log_receipt.type}'`)
    expect(digest).not.toHaveProperty('receipt_with_log_tree_size')
    expect(digest.log_tree_size).toBe(5)
  })

  test('the chain: intact, each day linked to the day before, every digest verifying over exactly digest_fields, every log receipt over exactly digest_log_fields', async () => {
    const chain = await get('/v5/audit/chain')
    expect(chain).toMatchObject({ chain_intact: true, chain_length: 3, latest_date: SEALED_DAYS.now, oldest_date: SEALED_DAYS.beforeLog })
    const digests = chain.digests as Record<string, any>[]
    for (let i = 0; i < digests.length; i++) {
      ok(verifySigned(registry, digests[i]!.receipt, 'digest_fields'))
      expect(digests[i]!.previous_day_merkle_root).toBe(digests[i + 1]?.merkle_root ?? null)
    }
    // The log receipts too, each of its own day and root: the two days sealed since the log.
    const logged = digests.filter((item) => item.log_receipt)
    expect(logged.map((item) => item.date)).toEqual([SEALED_DAYS.now, SEALED_DAYS.withLogSizeInReceipt])
    for (const item of logged) {
      ok(verifySigned(registry, item.log_receipt, 'digest_log_fields'))
      expect(item.log_receipt).toMatchObject({ date: item.date, merkle_root: item.merkle_root })
    }
  })
})

describe('checkpoints (c2sp.org/signed-note, tlog-checkpoint, tlog-cosignature)', () => {
  test("the log's checkpoint: signed by the log note key, cosigned by the service's witness, holding the days sealed", async () => {
    const text = await (await fetch(`${service.base}/log/checkpoint`)).text()
    const note = parseNote(text)
    const checkpoint = parseCheckpoint(note.text)
    expect(checkpoint.origin).toBe(registry.log_note_key.origin)
    expect(noteSignedBy(note, parseVkey(registry.log_note_key.vkey))).toBe(true)
    expect(cosignedBy(note, parseVkey(registry.witness_cosigning_key.cosignature_vkey))).toBe(Math.floor(service.now() / 1000))
    expect(checkpoint.size).toBeGreaterThanOrEqual(Number((await get(`/v5/audit/digest?date=${SEALED_DAYS.now}`)).log_receipt.log_tree_size))
    // A changed text is refused.
    expect(noteSignedBy({ ...note, text: note.text.replace(/\n\d+\n/, `\n${checkpoint.size + 1}\n`) }, parseVkey(registry.log_note_key.vkey))).toBe(false)
  })

  test("the C2SP witness's cosignature of another log's checkpoint verifies with its published cosignature key", async () => {
    const vectors = JSON.parse(readFileSync(join(import.meta.dir, '../fixtures/transparency/note-vectors.json'), 'utf8')).witness
    const response = await fetch(`${service.base}/add-checkpoint`, { method: 'POST', body: `old 0\n\n${vectors.checkpoint_5}` })
    expect(response.status).toBe(200)
    const note = parseNote(`${vectors.checkpoint_5}${await response.text()}`)
    expect(noteSignedBy(note, parseVkey(vectors.log_vkey))).toBe(true)
    expect(cosignedBy(note, parseVkey(registry.witness_cosigning_key.cosignature_vkey))).toBe(Math.floor(service.now() / 1000))
  })
})
