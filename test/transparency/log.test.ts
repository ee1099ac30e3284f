// The receipt log over the app: live receipts become leaves (their exact logged bytes), the
// integrator writes tiles and publishes a checkpoint cosigned by the service's own witness,
// tiles and bundles are served with the spec's paths and caching, and both proofs verify, also
// with an independent verifier (@sigstore/verify: signed-note checkpoint and RFC 9162 inclusion).
import { beforeAll, describe, expect, test } from 'bun:test'
import { gunzipSync } from 'node:zlib'
import { createPublicKey } from 'node:crypto'
import { verifyCheckpoint, LogCheckpoint } from '@sigstore/verify/dist/tlog/checkpoint'
import { verifyMerkleInclusion } from '@sigstore/verify/dist/tlog/merkle'
import { issueKey } from '../../src/accounts/keys'
import { leafHash, rootFromPath, rootOf } from '../../src/audit/merkle'
import { checkNoteSignature, parseNote, parseVkey } from '../../src/transparency/note'
import { parseCheckpoint } from '../../src/transparency/checkpoint'
import { cosignerKey, verifyCosignature } from '../../src/transparency/cosignature'
import { verifyConsistency } from '../../src/transparency/proofs'
import { decodeBundle, tileHashes } from '../../src/transparency/tiles'
import { makeTestApp, type TestApp } from '../helpers/app'

const b64 = (text: string) => new Uint8Array(Buffer.from(text, 'base64'))

describe('the receipt log over the app', () => {
  let harness: TestApp
  let key: string
  const receipts: Record<string, string>[] = []
  const status = async (mic = 'XNYS') => {
    const response = await harness.json(`/v5/status?mic=${mic}`, { headers: { 'x-oracle-key': key } })
    expect(response.status).toBe(200)
    return response.body as Record<string, string>
  }
  const keys = async () => (await harness.json('/v5/keys')).body

  beforeAll(async () => {
    harness = makeTestApp()
    key = (await issueKey(harness.deps.accounts, { plan: 'pro', now: new Date(harness.clock.now()) })).key
  })

  test('before any receipt: an empty, signed and cosigned checkpoint; /v5/keys names both keys', async () => {
    expect((await harness.request('/log/checkpoint')).status).toBe(503)
    await harness.deps.transparency.integrator.tick()
    const response = await harness.request('/log/checkpoint')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8')
    expect(response.headers.get('cache-control')).toBe('public, max-age=1')
    const note = parseNote(await response.text())!
    expect(note.text).toBe('oracle.test/log\n0\n47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=\n')
    const published = await keys()
    expect(published.log_note_key.vkey).toMatch(/^oracle\.test\/log\+[0-9a-f]{8}\+A[A-Za-z0-9+/]{43}$/)
    expect(published.log_note_key.key_id).toBe(published.log_note_key.vkey.split('+')[1])
    expect(published.witness_cosigning_key.vkey).toMatch(/^oracle\.test\/witness\+[0-9a-f]{8}\+A/)
    expect(published.witness_cosigning_key.cosignature_vkey).toMatch(/^oracle\.test\/witness\+[0-9a-f]{8}\+B/)
    expect(checkNoteSignature(note, parseVkey(published.log_note_key.vkey)!)).toBe('valid')
    expect(verifyCosignature(note, cosignerKey(parseVkey(published.witness_cosigning_key.cosignature_vkey)!))).toBe(Math.floor(harness.clock.now() / 1000))
    // The note key is not the receipt key, and the witness key is neither.
    expect(parseVkey(published.log_note_key.vkey)!.publicKey).not.toEqual(parseVkey(published.witness_cosigning_key.vkey)!.publicKey)
    expect(Buffer.from(parseVkey(published.log_note_key.vkey)!.publicKey).toString('hex')).not.toBe(published.keys[0].public_key)
  })

  test('receipts become leaves in answer order, with their exact logged bytes; tiles and proofs verify', async () => {
    for (let i = 0; i < 300; i++) receipts.push(await status(i % 3 === 0 ? 'XLON' : 'XNYS'))
    await harness.deps.audit.flush()
    expect(await harness.deps.transparency.integrator.tick()).toBe(300)
    const note = parseNote(await (await harness.request('/log/checkpoint')).text())!
    const checkpoint = parseCheckpoint(note.text)!
    expect(checkpoint.size).toBe(300)
    // The bundles hold the receipts as logged, in order; their leaf hashes are level 0.
    const full = await harness.request('/log/tile/entries/000', { headers: { 'accept-encoding': 'gzip' } })
    expect(full.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect(full.headers.get('content-encoding')).toBe('gzip')
    const bundle = decodeBundle(gunzipSync(new Uint8Array(await full.arrayBuffer())))!
    const plain = decodeBundle(new Uint8Array(await (await harness.request('/log/tile/entries/000')).arrayBuffer()))!
    const partial = await harness.request('/log/tile/entries/001.p/44')
    expect(partial.headers.get('cache-control')).toBe('public, max-age=300')
    const entries = [...bundle, ...decodeBundle(new Uint8Array(await partial.arrayBuffer()))!]
    expect(plain.length).toBe(256)
    expect(entries.map((entry) => JSON.parse(Buffer.from(entry).toString()).receipt_id)).toEqual(receipts.map((r) => r.receipt_id))
    expect(Buffer.from(entries[7]!).toString()).toBe(JSON.stringify(receipts[7]))
    const fullTile = await harness.request('/log/tile/0/000')
    expect([fullTile.headers.get('cache-control'), fullTile.headers.get('content-type')]).toEqual(['public, max-age=31536000, immutable', 'application/octet-stream'])
    const level0 = tileHashes(new Uint8Array(await fullTile.arrayBuffer()))!
    expect(level0.map((h) => Buffer.from(h).toString('hex'))).toEqual(entries.slice(0, 256).map((e) => Buffer.from(leafHash(e)).toString('hex')))
    const partialTile = await harness.request('/log/tile/1/000.p/1')
    expect(partialTile.headers.get('cache-control')).toBe('public, max-age=300')
    const level1 = tileHashes(new Uint8Array(await partialTile.arrayBuffer()))!
    expect(Buffer.compare(level1[0]!, rootOf(level0))).toBe(0)
    expect(Buffer.compare(rootOf(entries.map(leafHash)), checkpoint.root)).toBe(0)
    // Beyond the checkpoint: 404; a wider partial than the tree has: 404; malformed: 404.
    for (const path of ['/log/tile/0/001', '/log/tile/0/001.p/45', '/log/tile/entries/002.p/1', '/log/tile/2/000.p/1', '/log/tile/0/1', '/log/tile/0/000.p/256'])
      expect({ path, status: (await harness.request(path)).status }).toEqual({ path, status: 404 })

    // Inclusion, by receipt id, against this checkpoint and a smaller tree.
    for (const [index, size] of [[0, 300], [7, 300], [299, 300], [255, 256], [100, 101]] as const) {
      const proof = await harness.json(`/log/proof/inclusion?id=${receipts[index]!.receipt_id}&size=${size}`)
      expect(proof.status).toBe(200)
      expect(proof.body).toMatchObject({ id: receipts[index]!.receipt_id, leaf_index: index, size })
      expect(Buffer.compare(rootFromPath(leafHash(entries[index]!), index, size, proof.body.hashes.map(b64))!, rootOf(entries.slice(0, size).map(leafHash)))).toBe(0)
    }
    // Consistency from every 37th size.
    for (let old = 0; old <= 300; old += 37) {
      const proof = await harness.json(`/log/proof/consistency?old=${old}&new=300`)
      expect(proof.body).toMatchObject({ old, new: 300 })
      if (old > 0) expect(verifyConsistency(old, 300, rootOf(entries.slice(0, old).map(leafHash)), checkpoint.root, proof.body.hashes.map(b64))).toBe(true)
      else expect(proof.body.hashes).toEqual([])
    }
  })

  test('@sigstore/verify (an independent verifier) accepts the checkpoint and an inclusion proof', async () => {
    const text = await (await harness.request('/log/checkpoint')).text()
    const published = await keys()
    const noteKey = parseVkey(published.log_note_key.vkey)!
    const logID = Buffer.alloc(32)
    logID.writeUInt32BE(noteKey.keyId, 0)
    const tlogs = [{ logID, baseURL: `https://${noteKey.name}`, publicKey: createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(noteKey.publicKey).toString('base64url') }, format: 'jwk' }), validFor: { start: new Date(0), end: new Date(8.64e15) } }]
    const index = 123
    const proof = (await harness.json(`/log/proof/inclusion?id=${receipts[index]!.receipt_id}&size=300`)).body
    const entry = {
      canonicalizedBody: Buffer.from(JSON.stringify(receipts[index])),
      inclusionProof: { logIndex: String(index), treeSize: '300', rootHash: Buffer.alloc(0), hashes: proof.hashes.map((h: string) => Buffer.from(h, 'base64')), checkpoint: { envelope: text } },
    }
    const checkpoint = verifyCheckpoint(entry as never, tlogs as never)
    expect([checkpoint.origin, checkpoint.logSize]).toEqual(['oracle.test/log', 300n])
    expect(() => verifyMerkleInclusion(entry as never, checkpoint)).not.toThrow()
    // It refuses a receipt changed by one byte, and a checkpoint signed by another key.
    const changed = { ...entry, canonicalizedBody: Buffer.from(JSON.stringify({ ...receipts[index], status: 'CLOSED' })) }
    expect(() => verifyMerkleInclusion(changed as never, checkpoint)).toThrow()
    const otherKey = [{ ...tlogs[0]!, publicKey: createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.alloc(32, 7).toString('base64url') }, format: 'jwk' }) }]
    expect(() => verifyCheckpoint(entry as never, otherKey as never)).toThrow()
    expect(LogCheckpoint.fromString(parseNote(text)!.text).logHash.length).toBe(32)
  })

  test('bad proof requests get the error object and change nothing', async () => {
    const cases: [string, number, string][] = [
      ['/log/proof/consistency?old=1&new=301', 400, 'SIZE_OUT_OF_RANGE'],
      ['/log/proof/consistency?old=10&new=5', 400, 'SIZE_OUT_OF_RANGE'],
      ['/log/proof/consistency?old=01&new=5', 400, 'INVALID_SIZE'],
      ['/log/proof/consistency?new=5', 400, 'INVALID_SIZE'],
      ['/log/proof/consistency?old=0&new=0', 400, 'SIZE_OUT_OF_RANGE'],
      [`/log/proof/inclusion?id=${receipts[0]!.receipt_id}&size=0`, 400, 'SIZE_OUT_OF_RANGE'],
      [`/log/proof/inclusion?id=${receipts[0]!.receipt_id}&size=999`, 400, 'SIZE_OUT_OF_RANGE'],
      [`/log/proof/inclusion?id=${receipts[200]!.receipt_id}&size=100`, 400, 'SIZE_OUT_OF_RANGE'],
      ['/log/proof/inclusion?id=not-a-uuid&size=5', 400, 'INVALID_RECEIPT_ID'],
      [`/log/proof/inclusion?id=${crypto.randomUUID()}&size=5`, 404, 'RECEIPT_NOT_FOUND'],
    ]
    for (const [path, status, code] of cases) {
      const response = await harness.json(path)
      expect({ path, status: response.status, code: response.body.error }).toEqual({ path, status, code })
      expect(typeof response.body.message).toBe('string')
    }
  })

  test('a database that cannot be read: 503 LOG_UNAVAILABLE, never a made-up answer', async () => {
    await Bun.sleep(600) // past the cached state
    harness.db.close()
    for (const path of ['/log/checkpoint', '/log/tile/0/000', '/log/proof/consistency?old=1&new=2']) {
      const response = await harness.json(path)
      expect({ path, status: response.status, error: response.body.error }).toEqual({ path, status: 503, error: 'LOG_UNAVAILABLE' })
    }
  })
})
