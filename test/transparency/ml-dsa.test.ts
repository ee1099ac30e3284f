// ML-DSA-44 two ways: the service signs with the runtime's native implementation (node:crypto,
// BoringSSL in Bun), the verifier package checks with @noble/post-quantum. Each must accept what
// the other makes, both must derive the same key from a seed (FIPS 204 KeyGen_internal, as NIST's
// ACVP vector and torchwood's Go log say), and the keys come from the signing seed alone.
import { describe, expect, test } from 'bun:test'
import { createPublicKey, randomBytes, verify as nativeVerify } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { ml_dsa44 } from '@noble/post-quantum/ml-dsa.js'
import { checkSignature, parseNote, parseVkey, subtreeMessage } from '@openbell/verify'
import { MlDsaCosigner, mlDsa44KeyFromSeed } from '../../src/transparency/ml-dsa'
import { logKeys, transparencyKeyDocument } from '../../src/transparency/keys'
import { checkpointText } from '../../src/transparency/checkpoint'
import { testSigner } from '../helpers/app'
import { Signer } from '../../src/crypto/signer'

const VECTORS = join(import.meta.dir, '../../packages/verify/test/vectors')
const acvp = JSON.parse(readFileSync(join(VECTORS, 'fips204-acvp-keygen.json'), 'utf8'))
const torchwood = JSON.parse(readFileSync(join(VECTORS, 'torchwood-mldsa.json'), 'utf8'))
const SPKI_PREFIX = Buffer.from('30820532300b06096086480165030403110382052100', 'hex')
const nativePublicKey = (raw: Uint8Array) => createPublicKey({ key: Buffer.concat([SPKI_PREFIX, raw]), format: 'der', type: 'spki' })

describe('ML-DSA-44: native signing, @noble verification', () => {
  test("the same key from a seed both ways: NIST ACVP's keyGen vector, torchwood's log key, random seeds", () => {
    expect(Buffer.from(mlDsa44KeyFromSeed(Buffer.from(acvp.seed, 'hex')).publicKey).toString('hex').toUpperCase()).toBe(acvp.pk)
    expect(parseVkey(new MlDsaCosigner('example.com/mldsa-log', Buffer.from(torchwood.seed, 'hex')).vkey)!.text).toBe(torchwood.vkey)
    for (let i = 0; i < 5; i++) {
      const seed = new Uint8Array(randomBytes(32))
      expect(Buffer.from(mlDsa44KeyFromSeed(seed).publicKey).equals(Buffer.from(ml_dsa44.keygen(seed).publicKey))).toBe(true)
    }
  })

  test('what the service signs, @noble verifies; what @noble signs, the native verifier accepts; a changed message fails both', () => {
    for (let i = 0; i < 5; i++) {
      const seed = new Uint8Array(randomBytes(32))
      const cosigner = new MlDsaCosigner('witness.example/w', seed)
      const root = new Uint8Array(randomBytes(32))
      const text = checkpointText('example.com/log', 1000 + i, root)
      const line = cosigner.cosign(text, 1_764_000_000 + i)
      expect(checkSignature(parseNote(`${text}\n${line}`)!, parseVkey(cosigner.vkey)!)).toEqual({ verdict: 'valid', timestamp: 1_764_000_000 + i })
      // The same line under another size of the tree is not a signature of it.
      expect(checkSignature(parseNote(`${checkpointText('example.com/log', 1001 + i, root)}\n${line}`)!, parseVkey(cosigner.vkey)!).verdict).toBe('invalid')
      const message = subtreeMessage('witness.example/w', 0, 'example.com/log', 0, 5, new Uint8Array(32))!
      const nobleSignature = ml_dsa44.sign(message, ml_dsa44.keygen(seed).secretKey)
      expect(nativeVerify(null, message, nativePublicKey(cosigner.publicKey), nobleSignature)).toBe(true)
      expect(nativeVerify(null, Buffer.concat([message, Buffer.of(0)]), nativePublicKey(cosigner.publicKey), nobleSignature)).toBe(false)
    }
  })

  test("torchwood's published ML-DSA-44 checkpoint signature (filippo.io/mldsa) verifies natively too", () => {
    const note = parseNote(torchwood.checkpoint)!
    const key = parseVkey(torchwood.vkey)!
    const [origin, size, root] = note.text.split('\n') as [string, string, string]
    const message = subtreeMessage(key.name, 0, origin, 0, Number(size), Buffer.from(root, 'base64'))!
    expect(nativeVerify(null, message, nativePublicKey(key.publicKey), note.signatures[0]!.signature.subarray(8))).toBe(true)
  })

  test('the log and witness ML-DSA-44 keys come from the signing seed: the same on every node, distinct per role, gone when offline', () => {
    const a = logKeys(testSigner(), 'oracle.test/log', 'oracle.test/witness')!
    const b = logKeys(testSigner(), 'oracle.test/log', 'oracle.test/witness')!
    expect(a.noteMlDsa.vkey).toBe(b.noteMlDsa.vkey)
    expect(a.witness.mlDsa.vkey).toBe(b.witness.mlDsa.vkey)
    expect(a.noteMlDsa.vkey.split('+')[2]).not.toBe(a.witness.mlDsa.vkey.split('+')[2])
    const other = logKeys(Signer.fromSeed(new Uint8Array(32).fill(7), 'key_other', '2026-01-01T00:00:00.000Z', null), 'oracle.test/log', 'oracle.test/witness')!
    expect(other.noteMlDsa.vkey).not.toBe(a.noteMlDsa.vkey)
    expect(logKeys(Signer.offline('no key'), 'oracle.test/log', 'oracle.test/witness')).toBeNull()
    const published = transparencyKeyDocument(a) as Record<string, Record<string, string>>
    expect(published.log_ml_dsa_key).toMatchObject({ vkey: a.noteMlDsa.vkey, algorithm: 'ML-DSA-44', key_id: a.noteMlDsa.vkey.split('+')[1] })
    expect(published.witness_ml_dsa_key).toMatchObject({ vkey: a.witness.mlDsa.vkey, algorithm: 'ML-DSA-44' })
    expect(parseVkey(published.log_ml_dsa_key!.vkey!)!.type).toBe(6)
  })
})
