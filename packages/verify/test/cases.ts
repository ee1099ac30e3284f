// The package's checks, as plain functions over vectors handed in, so the same cases run in Bun
// (test/verify-package/), in Node (node --test on the compiled output, node.test.ts) and in
// Chromium (browser.ts): published vectors (C2SP signed-note, golang/mod, transparency-dev,
// tessera, torchwood's ML-DSA-44 log, NIST ACVP ML-DSA-44 keyGen; C2SP Wycheproof ML-DSA-44 in
// wycheproof-cases.ts) and vectors a running service made (service-cases.ts).
import { ml_dsa44 } from '@noble/post-quantum/ml-dsa.js'
import { checkSignature, fromHex, leafHash, nodeHash, parseNote, parsePolicy, parseTlogProof, formatTlogProof, parseVkey, quorumMet, rootFromInclusionProof, toBase64, toHex, utf8, validSubtree, verifySubtreeConsistency, verifyTlogProof } from '../src/index.js'
import { b64, check, cosignerVkey, flipped, same, type Case } from './check.js'
import { serviceCases } from './service-cases.js'
import { wycheproofCases } from './wycheproof-cases.js'

export type { Case } from './check.js'

export interface Vectors {
  /** test/fixtures/transparency/note-vectors.json */
  notes: any
  /** test/fixtures/transparency/merkle-vectors.json */
  merkle: any
  /** tessera's test log: its vkey and the checkpoint at each size 0..15 */
  tessera: { vkey: string; checkpoints: string[] }
  /** test/vectors/torchwood-mldsa.json */
  torchwood: any
  /** test/vectors/fips204-acvp-keygen.json */
  acvp: any
  /** test/vectors/wycheproof/: C2SP Wycheproof's ML-DSA-44 verify and sign-from-seed vectors (gunzipped) */
  wycheproof: { verify: any; signSeed: any }
  /** Made by a running service (test/helpers/signed-vectors.ts); absent when run alone. */
  service?: any
}

// The 8-leaf reference tree of transparency-dev/merkle's vectors.
const LEAVES = ['', '00', '10', '2021', '3031', '40414243', '5051525354555657', '606162636465666768696a6b6c6d6e6f'].map((hex) => fromHex(hex)!)

/** MTH over leaf hashes, straight from RFC 6962. */
export function mth(hashes: Uint8Array[]): Uint8Array {
  if (hashes.length === 1) return hashes[0]!
  let k = 1
  while (k * 2 < hashes.length) k *= 2
  return nodeHash(mth(hashes.slice(0, k)), mth(hashes.slice(k)))
}

/** SUBTREE_PROOF of draft-ietf-plants-merkle-tree-certs-03 section 4.4.1, from its definition. */
export function subtreeProof(start: number, end: number, hashes: Uint8Array[], known = true): Uint8Array[] {
  const n = hashes.length
  if (start === 0 && end === n) return known ? [] : [mth(hashes)]
  let k = 1
  while (k * 2 < n) k *= 2
  if (end <= k) return [...subtreeProof(start, end, hashes.slice(0, k), known), mth(hashes.slice(k))]
  if (k <= start) return [...subtreeProof(start - k, end - k, hashes.slice(k), known), mth(hashes.slice(0, k))]
  return [...subtreeProof(0, end - k, hashes.slice(k), false), mth(hashes.slice(0, k))]
}

export function cases(vectors: Vectors): Case[] {
  const list: Case[] = []
  const add = (name: string, run: () => void) => list.push({ name, run })
  const { notes } = vectors

  add('C2SP signed-note example: the vkey verifies the note; a changed byte does not', () => {
    const key = parseVkey(notes.c2sp_example.vkey)!
    const note = parseNote(notes.c2sp_example.note)!
    same(checkSignature(note, key).verdict, 'valid', 'example note')
    same(checkSignature(parseNote(notes.c2sp_example.note.replace('example', 'Example'))!, key).verdict, 'invalid', 'changed text')
  })

  add('golang/mod sumdb vectors: both signatures verify, a damaged one is invalid, malformed notes and vkeys are refused', () => {
    const peter = parseVkey(notes.sumdb.peter_vkey)!
    const enoch = parseVkey(notes.sumdb.enoch_vkey)!
    const both = parseNote(notes.sumdb.signed + notes.sumdb.enoch_signature_line)!
    same([checkSignature(both, peter).verdict, checkSignature(both, enoch).verdict], ['valid', 'valid'], 'both keys')
    const peterLine: string = notes.sumdb.signed.slice(notes.sumdb.text.length + 1)
    const damaged = parseNote(`${notes.sumdb.text}\n${peterLine.slice(0, 60)}ABCD${peterLine.slice(60)}`)
    check(damaged === null || checkSignature(damaged, peter).verdict === 'invalid', 'a damaged signature of a known key is invalid')
    for (const bad of [notes.sumdb.text, `${notes.sumdb.text}\n`, `${notes.sumdb.text}\n${peterLine.slice(0, -1)}`, `\u0001${notes.sumdb.signed}`, `${notes.sumdb.signed}Unexpected line.\n`]) check(parseNote(bad) === null, `malformed note accepted: ${JSON.stringify(bad.slice(-30))}`)
    const vkey: string = notes.sumdb.peter_vkey
    for (let i = 0; i < vkey.length; i++) {
      const changed = vkey.slice(0, i) + String.fromCharCode(vkey.charCodeAt(i) + 1) + vkey.slice(i + 1)
      check(parseVkey(changed) === null || toHex(parseVkey(changed)!.publicKey) !== toHex(peter.publicKey) || parseVkey(changed)!.name !== peter.name, `changed vkey accepted at ${i}`)
      check(parseVkey(vkey.slice(0, i)) === null, `truncated vkey accepted at ${i}`)
    }
    for (const bad of notes.sumdb.bad_vkeys) check(parseVkey(bad) === null, `bad vkey accepted: ${bad}`)
  })

  add('transparency-dev cosignature/v1 vectors: the native 0x04 vkey and its key id; refused vkeys', () => {
    const native = parseVkey(notes.cosignature_v1.native_vkey)!
    same([native.type, native.keyId.toString(16)], [4, 'da77ade7'], 'native cosigner vkey')
    for (const bad of notes.cosignature_v1.bad_vkeys) check(parseVkey(bad) === null, `bad vkey accepted: ${bad}`)
  })

  add('transparency-dev witness vectors: the monkeys checkpoints verify; the published consistency proof 5 → 8 holds as a subtree proof [0, 5)', () => {
    const key = parseVkey(notes.witness.log_vkey)!
    const five = parseNote(notes.witness.checkpoint_5)!
    const eight = parseNote(notes.witness.checkpoint_8)!
    same([checkSignature(five, key).verdict, checkSignature(eight, key).verdict], ['valid', 'valid'], 'log signatures')
    const root = (note: typeof five) => b64(note.text.split('\n')[2]!)
    const proof = (notes.witness.consistency_5_8_hex as string[]).map((hex) => fromHex(hex)!)
    check(verifySubtreeConsistency(0, 5, 8, root(five), root(eight), proof), 'published consistency proof')
    check(!verifySubtreeConsistency(0, 5, 8, root(five), root(eight), [proof[0]!, flipped(proof[1]!), ...proof.slice(2)]), 'a changed proof hash')
  })

  add('transparency-dev/merkle inclusion vectors: accepted exactly when they should be', () => {
    let checked = 0
    for (const [name, v] of Object.entries<any>(vectors.merkle.inclusion)) {
      const root = rootFromInclusionProof(b64(v.leafHash ?? ''), v.leafIdx, v.treeSize, (v.proof ?? []).map(b64))
      const ok = root !== null && b64(v.root ?? '').length === 32 && toHex(root) === toHex(b64(v.root))
      same({ name, ok }, { name, ok: !v.wantErr }, 'inclusion vector')
      checked++
    }
    check(checked > 50, 'the vectors were read')
    same(toBase64(leafHash(LEAVES[0]!)), 'bjQLnP+zepicpUTmu3gKLHiQHT+zNzh2hRGjBhevoB0=', 'leaf hash of the empty entry')
  })

  add('transparency-dev/merkle consistency vectors (old size >= 1) as subtree proofs from 0: accepted exactly when they should be', () => {
    let checked = 0
    for (const [name, v] of Object.entries<any>(vectors.merkle.consistency)) {
      if (!(v.size1 >= 1)) continue
      const ok = verifySubtreeConsistency(0, v.size1, v.size2, b64(v.root1 ?? ''), b64(v.root2 ?? ''), (v.proof ?? []).map(b64))
      same({ name, ok }, { name, ok: !v.wantErr }, 'consistency vector')
      checked++
    }
    check(checked > 50, 'the vectors were read')
  })

  add("tessera's test log: the checkpoint at every size verifies with its vkey", () => {
    const key = parseVkey(vectors.tessera.vkey)!
    same(vectors.tessera.checkpoints.length, 16, 'checkpoints 0..15')
    vectors.tessera.checkpoints.forEach((text, size) => same(checkSignature(parseNote(text)!, key).verdict, 'valid', `checkpoint ${size}`))
  })

  add('subtrees (draft-ietf-plants-merkle-tree-certs-03): the valid ranges; the worked examples; every subtree of trees up to 20 leaves, and each changed, shortened or lengthened proof refused', () => {
    const table: [number, number, boolean][] = [[0, 1, true], [4, 8, true], [8, 13, true], [0, 13, true], [2, 4, true], [6, 8, true], [2, 6, false], [5, 13, false], [1, 7, false], [7, 9, false], [5, 3, false], [-1, 3, false], [0, 0, false]]
    for (const [start, end, want] of table) same(validSubtree(start, end), want, `validSubtree(${start}, ${end})`)
    const hashes = Array.from({ length: 20 }, (_, i) => leafHash(Uint8Array.of(i)))
    const d14 = hashes.slice(0, 14)
    same(subtreeProof(4, 8, d14).map(toHex), [mth(d14.slice(0, 4)), mth(d14.slice(8, 14))].map(toHex), 'example [4, 8) in 14')
    same(subtreeProof(8, 13, d14).map(toHex), [d14[12]!, d14[13]!, mth(d14.slice(8, 12)), mth(d14.slice(0, 8))].map(toHex), 'example [8, 13) in 14')
    let checked = 0
    for (let n = 1; n <= 20; n++) {
      const tree = hashes.slice(0, n)
      const root = mth(tree)
      for (let end = 1; end <= n; end++)
        for (let start = 0; start < end; start++) {
          if (!validSubtree(start, end)) continue
          const node = mth(tree.slice(start, end))
          const proof = subtreeProof(start, end, tree)
          check(verifySubtreeConsistency(start, end, n, node, root, proof), `[${start}, ${end}) in ${n}`)
          check(!verifySubtreeConsistency(start, end, n, flipped(node), root, proof), `wrong node hash [${start}, ${end}) in ${n}`)
          if (start < end && (start > 0 || end < n)) check(!verifySubtreeConsistency(start, end, n, node, flipped(root), proof), `wrong root [${start}, ${end}) in ${n}`)
          for (let i = 0; i < proof.length; i++) check(!verifySubtreeConsistency(start, end, n, node, root, proof.map((h, j) => (j === i ? flipped(h) : h))), `changed proof [${start}, ${end}) in ${n}`)
          check(!verifySubtreeConsistency(start, end, n, node, root, [...proof, new Uint8Array(32)]), `lengthened proof [${start}, ${end}) in ${n}`)
          if (proof.length) check(!verifySubtreeConsistency(start, end, n, node, root, proof.slice(0, -1)), `shortened proof [${start}, ${end}) in ${n}`)
          checked++
        }
    }
    check(checked > 300, 'subtrees checked')
  })

  add("torchwood's ML-DSA-44 log (filippo.io/mldsa): its vkey, and its checkpoint signature verifies; a changed byte does not", () => {
    const key = parseVkey(vectors.torchwood.vkey)!
    same([key.type, key.keyId.toString(16), key.publicKey.length], [6, 'b5df45c5', 1312], 'the 0x06 vkey')
    same(checkSignature(parseNote(vectors.torchwood.checkpoint)!, key), { verdict: 'valid', timestamp: 0 }, 'published signature')
    const line: string = vectors.torchwood.checkpoint.split('\n\n')[1]
    const bytes = b64(line.split(' ')[2]!.trim())
    const bent = `${vectors.torchwood.checkpoint.split('\n\n')[0]}\n\n\u2014 example.com/mldsa-log ${toBase64(flipped(bytes, 100))}\n`
    same(checkSignature(parseNote(bent)!, key).verdict, 'invalid', 'changed signature')
    // As a log under a policy: the size-1 tree's only leaf is "testonly".
    const proof = formatTlogProof({ extra: null, index: 0, path: [], checkpoint: vectors.torchwood.checkpoint })
    same(verifyTlogProof(proof, `log ${vectors.torchwood.vkey}\nquorum none\n`, utf8('testonly')).valid, true, 'a tlog-proof over the published checkpoint')
    same(verifyTlogProof(proof, `log ${vectors.torchwood.vkey}\nquorum none\n`, utf8('testonlY')).reason, 'inclusion_failed', 'another entry')
  })

  add('NIST ACVP ML-DSA-44 keyGen (FIPS 204): the key pair from the seed is the published one', () => {
    const pair = ml_dsa44.keygen(fromHex(vectors.acvp.seed.toLowerCase())!)
    same(toHex(pair.publicKey), vectors.acvp.pk.toLowerCase(), 'pk')
    same(toHex(pair.secretKey), vectors.acvp.sk.toLowerCase(), 'sk')
    // And what it signs verifies (pure ML-DSA, empty context), what it did not does not.
    const message = utf8('openbell')
    const signature = ml_dsa44.sign(message, pair.secretKey)
    check(ml_dsa44.verify(signature, message, pair.publicKey) && !ml_dsa44.verify(signature, utf8('openbelL'), pair.publicKey), 'sign and verify')
  })

  add('tlog-policy: the spec example parses and evaluates its quorum; each malformed policy is refused with its line', () => {
    const w = (name: string, seed: number) => `witness ${name} ${cosignerVkey(name, seed)}`
    const example = ['log ' + notes.witness.log_vkey, w('X1', 1), w('X2', 2), w('X3', 3), 'group X-witnesses 2 X1 X2 X3', '', w('Y1', 4), w('Y2', 5), w('Y3', 6), 'group Y-witnesses any Y1 Y2 Y3', '', '  # two organisations', 'group X-and-Y all X-witnesses Y-witnesses', 'quorum X-and-Y', ''].join('\n')
    const parsed = parsePolicy(example)
    check(parsed.ok, `the example parses: ${JSON.stringify(parsed)}`)
    same(quorumMet(parsed.policy, new Set(['X1', 'X3', 'Y2'])), true, 'two X and one Y')
    same(quorumMet(parsed.policy, new Set(['X1', 'Y2', 'Y3'])), false, 'one X')
    same(quorumMet(parsed.policy, new Set(['X1', 'X2'])), false, 'no Y')
    const refused: [string, number][] = [
      ['quorum none\nquorum none\n', 2],
      [`${w('A', 1)}\n${w('A', 2)}\nquorum A\n`, 2],
      [`${w('A', 1)}\n${w('B', 1)}\nquorum A\n`, 2],
      ['group G any A\nquorum G\n', 1],
      [`${w('A', 1)}\ngroup G 2 A\nquorum G\n`, 2],
      [`${w('A', 1)}\ngroup G any A A\nquorum G\n`, 2],
      [`${w('A', 1)}\ngroup G any none\nquorum G\n`, 2],
      [`${w('A', 1)}\n`, 2],
      ['quorum B\n', 1],
      [`witness A ${notes.witness.log_vkey}\nquorum A\n`, 1],
      [`log ${notes.cosignature_v1.native_vkey}\nquorum none\n`, 1],
      ['frobnicate\nquorum none\n', 1],
      ['quorum none\n\u0001\n', 2],
    ]
    for (const [text, line] of refused) {
      const result = parsePolicy(text)
      check(!result.ok && result.line === line, `refused at line ${line}: ${JSON.stringify(text)} → ${JSON.stringify(result)}`)
    }
    same(parsePolicy('quorum none').ok, true, 'quorum none, no logs, no witnesses')
  })

  add('tlog-proof format: round trip; malformed proofs are refused', () => {
    const proof = { extra: utf8('abc'), index: 5, path: [new Uint8Array(32), new Uint8Array(32).fill(1)], checkpoint: 'o\n6\nAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n\n\u2014 o AAAAAAA=\n' }
    const text = formatTlogProof(proof)
    same(text.split('\n').slice(0, 3), ['c2sp.org/tlog-proof@v1', 'extra YWJj', 'index 5'], 'the first lines')
    const parsed = parseTlogProof(text)
    check(parsed.ok && parsed.proof.index === 5 && parsed.proof.path.length === 2 && parsed.proof.checkpoint === proof.checkpoint && toHex(parsed.proof.extra!) === toHex(proof.extra), 'round trip')
    for (const bad of [text.replace('@v1', '@v2'), text.replace('index 5', 'index 05'), text.replace('extra YWJj', 'extra YWJ'), text.replace('extra YWJj\n', 'extra \n'), text.replace('\n\no\n6', '\no\n6'), text.replace('index 5\n', 'index 5\nAAAA\n')]) check(!parseTlogProof(bad).ok, `malformed proof accepted: ${JSON.stringify(bad.slice(0, 60))}`)
  })

  list.push(...wycheproofCases(vectors.wycheproof))
  if (vectors.service) list.push(...serviceCases(vectors.service))
  return list
}
