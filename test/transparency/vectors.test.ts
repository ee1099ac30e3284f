// The log's formats and proofs against published test vectors, stored under test/fixtures/
// transparency with their sources named: signed notes and vkeys (C2SP, golang/mod), cosignature/v1
// key ids and timestamps (transparency-dev/formats), tile paths (tessera), Merkle inclusion and
// consistency vectors (transparency-dev/merkle), and tessera's own test log, rebuilt here byte
// for byte.
import { describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { leafHash, rootFromPath, rootOf } from '../../src/audit/merkle'
import { checkNoteSignature, formatVkey, parseNote, parseVkey, SIG_COSIGNATURE_V1, SIG_ED25519 } from '../../src/transparency/note'
import { cosignatureTimestamp, cosignerKey } from '../../src/transparency/cosignature'
import { parseCheckpoint } from '../../src/transparency/checkpoint'
import { consistencyProof, inclusionProof, verifyConsistency, type NodeSource } from '../../src/transparency/proofs'
import { decodeBundle, encodeBundle, ENTRIES_LEVEL, parseTilePath, tilePath } from '../../src/transparency/tiles'
import { appendEntries, emptyEdge } from '../../src/transparency/integrate'
import { noteSignerOf } from '../helpers/note-keys'

const FIXTURES = join(import.meta.dir, '../fixtures/transparency')
const fixture = (name: string) => JSON.parse(readFileSync(join(FIXTURES, name), 'utf8'))
const b64 = (text: string) => new Uint8Array(Buffer.from(text, 'base64'))

const notes = fixture('note-vectors.json')

describe('signed notes and vkeys', () => {
  test('the C2SP example: the vkey parses and verifies the example note', () => {
    const key = parseVkey(notes.c2sp_example.vkey)!
    expect(key.name).toBe('example.com/foo')
    expect(formatVkey(key.name, SIG_ED25519, key.publicKey)).toBe(notes.c2sp_example.vkey)
    const note = parseNote(notes.c2sp_example.note)!
    expect(note.text).toBe('This is an example message.\n')
    expect(checkNoteSignature(note, key)).toBe('valid')
  })

  test('golang/mod sumdb vectors: signing reproduces the published note; Open rules hold', () => {
    const signer = noteSignerOf(notes.sumdb.peter_skey)
    expect(signer.vkey).toBe(notes.sumdb.peter_vkey)
    expect(signer.sign(notes.sumdb.text)).toBe(notes.sumdb.signed)
    const peter = parseVkey(notes.sumdb.peter_vkey)!
    const enoch = parseVkey(notes.sumdb.enoch_vkey)!
    const both = parseNote(notes.sumdb.signed + notes.sumdb.enoch_signature_line)!
    expect(both.signatures.map((s) => s.name)).toEqual(['PeterNeumann', 'EnochRoot'])
    expect(checkNoteSignature(both, peter)).toBe('valid')
    expect(checkNoteSignature(both, enoch)).toBe('valid')
    // A damaged signature of a known key is invalid, not merely absent.
    const peterLine = notes.sumdb.signed.slice(notes.sumdb.text.length + 1)
    const damaged = parseNote(`${notes.sumdb.text}\n${peterLine.slice(0, 60)}ABCD${peterLine.slice(60)}`)
    expect(damaged === null || checkNoteSignature(damaged, peter) === 'invalid').toBe(true)
    // Malformed notes (TestOpen's list).
    for (const bad of [notes.sumdb.text, `${notes.sumdb.text}\n`, `${notes.sumdb.text}\n${peterLine.slice(0, -1)}`, `\u0001${notes.sumdb.signed}`, `${notes.sumdb.text}\n\u2014 Bad Name x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n`, `${notes.sumdb.signed}Unexpected line.\n`])
      expect(parseNote(bad)).toBeNull()
    // TestNewVerifier: every truncation, every changed byte and the two adjusted keys are refused.
    const vkey = notes.sumdb.peter_vkey as string
    for (let i = 0; i < vkey.length; i++) {
      for (let j = i + 1; j <= vkey.length; j++) if (i !== 0 || j !== vkey.length) expect(parseVkey(vkey.slice(i, j))).toBeNull()
      const changed = vkey.slice(0, i) + String.fromCharCode(vkey.charCodeAt(i) + 1) + vkey.slice(i + 1)
      expect(parseVkey(changed)).toBeNull()
    }
    for (const bad of notes.sumdb.bad_vkeys) expect(parseVkey(bad)).toBeNull()
  })

  test('a vkey whose base64 key holds "+" parses (witness-network list keys)', () => {
    expect(parseVkey('sum.golang.org+033de0ae+Ac4zctda0e5eza+HJyk9SxEdh+s3Ux18htTTAD8OuAn8')?.name).toBe('sum.golang.org')
  })

  test('cosignature/v1 (transparency-dev/formats vectors): the 0x04 key id, vkeys refused, the timestamp read', () => {
    const vectors = notes.cosignature_v1
    // A published native cosignature/v1 vkey: our key id of type 0x04 is its id.
    const native = parseVkey(vectors.native_vkey)!
    expect([native.type, native.keyId.toString(16)]).toEqual([SIG_COSIGNATURE_V1, 'da77ade7'])
    expect(cosignerKey(native).keyId).toBe(0xda77ade7)
    expect(formatVkey(native.name, SIG_COSIGNATURE_V1, native.publicKey)).toBe(vectors.native_vkey)
    // An Ed25519 vkey used for cosigning: its cosignatures carry the 0x04 id, not the published one.
    const ed = parseVkey(vectors.ed25519_vkey)!
    expect(ed.keyId.toString(16)).toBe('7997405c')
    expect(cosignerKey(ed).keyId).toBe(parseVkey(formatVkey(ed.name, SIG_COSIGNATURE_V1, ed.publicKey))!.keyId)
    expect(cosignerKey(ed).keyId).not.toBe(ed.keyId)
    for (const bad of vectors.bad_vkeys) expect(parseVkey(bad)).toBeNull()
    // A published cosignature's bytes: key id, then the timestamp; an Ed25519 note signature is not one.
    const line = (base64: string) => parseNote(`checkpoint text\n\n\u2014 witness.example ${base64}\n`)!.signatures[0]!
    const cosignature = line(vectors.timestamp_signature)
    expect(cosignature.keyId.toString(16)).toBe('646846b9')
    expect(cosignatureTimestamp(cosignature.signature)).toBe(vectors.timestamp)
    expect(cosignatureTimestamp(line(vectors.ed25519_signature).signature)).toBeNull()
  })
})

describe('tile paths (tessera vectors)', () => {
  const paths = fixture('tile-path-vectors.json')
  test('encoding', () => {
    for (const v of paths.tile_paths) expect(tilePath(v.level, BigInt(v.index), v.width || 256)).toBe(v.path)
    for (const v of paths.entries_paths) expect(tilePath(ENTRIES_LEVEL, BigInt(v.index), v.width || 256)).toBe(v.path)
  })
  test('parsing', () => {
    for (const v of paths.parse) {
      const got = parseTilePath(v.level, v.index)
      if (v.wantErr) expect(got).toBeNull()
      else expect(got).toEqual({ level: v.want.level, index: BigInt(v.want.index), width: v.want.width || 256 })
    }
  })
})

// The 8-leaf reference tree the merkle vectors are built on (transparency-dev/merkle testonly).
const LEAVES = ['', '00', '10', '2021', '3031', '40414243', '5051525354555657', '606162636465666768696a6b6c6d6e6f'].map((hex) => new Uint8Array(Buffer.from(hex, 'hex')))
const leafSource = (leaves: readonly Uint8Array[]): NodeSource => {
  const hashes = leaves.map(leafHash)
  return { node: async (height, index) => rootOf(hashes, index * 2 ** height, (index + 1) * 2 ** height) }
}

describe('Merkle vectors (transparency-dev/merkle testdata)', () => {
  const merkle = fixture('merkle-vectors.json')
  test('every consistency vector: accepted exactly when it should be; happy paths are what we generate', async () => {
    const source = leafSource(LEAVES)
    let happy = 0
    for (const [name, v] of Object.entries<any>(merkle.consistency)) {
      const ok = verifyConsistency(v.size1, v.size2, b64(v.root1 ?? ''), b64(v.root2 ?? ''), (v.proof ?? []).map(b64))
      expect({ name, ok }).toEqual({ name, ok: !v.wantErr })
      if (!v.wantErr && v.size1 > 0 && v.size2 <= 8 && name.endsWith('happy-path.json')) {
        expect((await consistencyProof(source, v.size1, v.size2)).map((h) => Buffer.from(h).toString('base64'))).toEqual(v.proof ?? [])
        happy++
      }
    }
    expect(happy).toBeGreaterThanOrEqual(4)
  })
  test('every inclusion vector: accepted exactly when it should be; happy paths are what we generate', async () => {
    const source = leafSource(LEAVES)
    let happy = 0
    for (const [name, v] of Object.entries<any>(merkle.inclusion)) {
      const root = rootFromPath(b64(v.leafHash ?? ''), v.leafIdx, v.treeSize, (v.proof ?? []).map(b64))
      const ok = root !== null && b64(v.root ?? '').length === 32 && Buffer.compare(root, b64(v.root)) === 0
      expect({ name, ok }).toEqual({ name, ok: !v.wantErr })
      if (!v.wantErr && v.treeSize <= 8 && name.endsWith('happy-path.json')) {
        expect(Buffer.from(leafHash(LEAVES[v.leafIdx]!)).toString('base64')).toBe(v.leafHash)
        expect((await inclusionProof(source, v.leafIdx, v.treeSize)).map((h) => Buffer.from(h).toString('base64'))).toEqual(v.proof ?? [])
        happy++
      }
    }
    expect(happy).toBeGreaterThanOrEqual(4)
  })
  test('generated proofs verify for every pair of sizes up to 40', async () => {
    const leaves = Array.from({ length: 40 }, (_, i) => new Uint8Array([i, i >> 8]))
    const source = leafSource(leaves)
    const hashes = leaves.map(leafHash)
    for (let n = 1; n <= 40; n++) {
      const root = rootOf(hashes, 0, n)
      for (let m = 1; m <= n; m++) {
        const proof = await consistencyProof(source, m, n)
        expect(verifyConsistency(m, n, rootOf(hashes, 0, m), root, proof)).toBe(true)
        if (m < n && proof.length) expect(verifyConsistency(m, n, rootOf(hashes, 0, m), root, proof.slice(1))).toBe(false)
        const path = await inclusionProof(source, m - 1, n)
        expect(Buffer.compare(rootFromPath(hashes[m - 1]!, m - 1, n, path)!, root)).toBe(0)
      }
    }
  })
})

describe("tessera's test log, rebuilt", () => {
  const dir = join(FIXTURES, 'tessera-log')
  const entries = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eit', 'nain', 'ten', 'ileven', 'twelf', 'threeten', 'fourten', 'fivten'].map((s) => new Uint8Array(Buffer.from(s)))
  test('each size: our tiles, bundles and root equal tessera’s, and its checkpoints verify', () => {
    const key = parseVkey(notes.tessera.vkey)!
    let edge = emptyEdge()
    for (let size = 0; size <= entries.length; size++) {
      if (size > 0) {
        const step = appendEntries(edge, [entries[size - 1]!])
        edge = step.edge
        const tile = step.partials.find((p) => p.level === 0)!
        expect(Buffer.compare(tile.data, readFileSync(join(dir, tilePath(0, 0, size))))).toBe(0)
        const bundle = step.partials.find((p) => p.level === ENTRIES_LEVEL)!
        const published = readFileSync(join(dir, tilePath(ENTRIES_LEVEL, 0, size)))
        expect(Buffer.compare(bundle.data, published)).toBe(0)
        expect(decodeBundle(published)!.map((e) => Buffer.from(e).toString())).toEqual(entries.slice(0, size).map((e) => Buffer.from(e).toString()))
        expect(Buffer.compare(encodeBundle(decodeBundle(published)!), published)).toBe(0)
      }
      const note = parseNote(readFileSync(join(dir, `checkpoint.${size}`), 'utf8'))!
      expect(checkNoteSignature(note, key)).toBe('valid')
      const checkpoint = parseCheckpoint(note.text)!
      expect(checkpoint.size).toBe(size)
      const root = size === 0 ? appendEntries(emptyEdge(), []).root : appendEntries(emptyEdge(), entries.slice(0, size)).root
      expect(Buffer.from(root).toString('base64')).toBe(Buffer.from(checkpoint.root).toString('base64'))
    }
  })
  test('signing the size-15 body with the published key reproduces tessera’s checkpoint', () => {
    const signer = noteSignerOf(notes.tessera.skey)
    const published = readFileSync(join(dir, 'checkpoint.15'), 'utf8')
    expect(signer.sign(parseNote(published)!.text)).toBe(published)
  })
})

describe('our trees against larger ones', () => {
  test('full tiles, bundles and the root over 70,000 entries (two tile levels)', () => {
    const entries = Array.from({ length: 70_000 }, (_, i) => new Uint8Array(Buffer.from(`entry ${i}`)))
    // In uneven steps, as the integrator reads them.
    let edge = emptyEdge()
    const full = new Map<string, Uint8Array>()
    let root: Uint8Array = new Uint8Array()
    for (let at = 0; at < entries.length; ) {
      const step = appendEntries(edge, entries.slice(at, at + 1 + (at % 977)))
      for (const tile of step.full) full.set(`${tile.level}/${tile.index}`, tile.data)
      at = step.edge.size
      edge = step.edge
      root = step.root
    }
    const hashes = entries.map(leafHash)
    expect(Buffer.compare(root, rootOf(hashes))).toBe(0)
    // C2SP's example: 273 full level-0 tiles, 1 full level-1 tile; partial widths 112, 17, 1.
    expect([...full.keys()].filter((k) => k.startsWith('0/')).length).toBe(273)
    expect([...full.keys()].filter((k) => k.startsWith('1/')).length).toBe(1)
    expect([...full.keys()].filter((k) => k.startsWith('-1/')).length).toBe(273)
    expect(edge.levels.map((l) => l.length)).toEqual([112, 17, 1])
    // Level 1, hash 5 = MTH of leaves 1280..1535; level 2 partial hash 0 = MTH of the first 65,536.
    expect(Buffer.compare(full.get('1/0')!.subarray(5 * 32, 6 * 32), rootOf(hashes, 1280, 1536))).toBe(0)
    expect(Buffer.compare(edge.levels[2]![0]!, rootOf(hashes, 0, 65536))).toBe(0)
  })
})
