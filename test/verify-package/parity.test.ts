// The verifier package keeps its own copies of what the service defines (it depends on nothing of
// src/): the signed field lists and the strict Ed25519 rules must stay the same as the service's.
import { expect, test } from 'bun:test'
import { randomBytes } from 'node:crypto'
import { DEFAULT_FIELD_LISTS, DEFAULT_OPTIONAL_FIELDS, DIGEST_LOG_TYPE, ed25519Verify, fieldListOf, verifySigned } from '@openbell/verify'
import { DIGEST_LOG_TYPE as SERVICE_DIGEST_LOG_TYPE, OPTIONAL_SIGNED_FIELDS, SIGNED_FIELDS, receiptType, signedFieldsOf } from '../../src/crypto/signed-fields'
import { privateKeyFromSeed, rawPublicKey, signBytes, verifyStrict } from '../../src/crypto/ed25519'

test('the signed field lists and the recognition of kinds are the service’s', () => {
  expect(DEFAULT_FIELD_LISTS).toEqual(SIGNED_FIELDS as unknown as typeof DEFAULT_FIELD_LISTS)
  expect(DEFAULT_OPTIONAL_FIELDS).toEqual(OPTIONAL_SIGNED_FIELDS as typeof DEFAULT_OPTIONAL_FIELDS)
  expect(DIGEST_LOG_TYPE).toBe(SERVICE_DIGEST_LOG_TYPE)
  const samples = [{ type: 'witness.checkpoint/1' }, { type: DIGEST_LOG_TYPE, merkle_root: '', date: '' }, { merkle_root: '', date: '' }, { merkle_root: '', date: '', log_tree_size: '' }, { venue: '', safe: '' }, { mic: '', halt_detection: '' }, { mic: '', halt_detection: '', reason: '' }, { status: 'OK', source: 'SYSTEM' }, { status: 'OK' }, {}]
  for (const sample of samples) expect(fieldListOf(sample)).toBe(receiptType(sample))
})

test('for an object of every list, the package signs the members the service signs (a digest receipt with log_tree_size: that member too)', () => {
  const objects: Record<string, string>[] = []
  for (const list of Object.keys(SIGNED_FIELDS) as (keyof typeof SIGNED_FIELDS)[]) {
    const object: Record<string, string> = Object.fromEntries(SIGNED_FIELDS[list].map((name) => [name, '']))
    Object.assign(object, { status: 'OK', source: 'SYSTEM' })
    if (list === 'witness_fields') object.type = 'witness.checkpoint/1'
    if (list === 'digest_log_fields') object.type = DIGEST_LOG_TYPE
    objects.push(object, { ...object, log_tree_size: '4', note: 'unsigned' })
  }
  const seen = new Set<string>()
  for (const object of objects) {
    const type = receiptType(object)!
    seen.add(type)
    // A signature of the right shape by no listed key: the members are judged before the key.
    const verdict = verifySigned({ ...object, signature: '00'.repeat(64) }, { keys: [{ key_id: 'key_other', public_key: '00'.repeat(32) }] })
    expect({ type, list: verdict.fieldList, signed: verdict.signedMembers!.map(([name]) => name) }).toEqual({ type, list: type, signed: [...signedFieldsOf(type, object)].sort() })
    expect({ type, unsigned: verdict.unsignedMembers }).toEqual({ type, unsigned: Object.keys(object).filter((name) => !signedFieldsOf(type, object).includes(name)) })
  }
  expect([...seen].sort()).toEqual(Object.keys(SIGNED_FIELDS).sort())
})

test('strict Ed25519: the package and the service accept and refuse the same signatures', () => {
  const L = 2n ** 252n + 27742317777372353535851937790883648493n
  const le = (n: bigint) => Uint8Array.from({ length: 32 }, (_, i) => Number((n >> BigInt(8 * i)) & 255n))
  const fromLe = (bytes: Uint8Array) => bytes.reduceRight((n, byte) => (n << 8n) | BigInt(byte), 0n)
  for (let i = 0; i < 20; i++) {
    const key = privateKeyFromSeed(new Uint8Array(randomBytes(32)))
    const publicKey = rawPublicKey(key)
    const message = new Uint8Array(randomBytes(40))
    const signature = new Uint8Array(signBytes(key, message))
    const nonCanonical = Uint8Array.from([...signature.subarray(0, 32), ...le(fromLe(signature.subarray(32)) + L)])
    const smallOrderKey = Uint8Array.from({ length: 32 }, (_, j) => (j === 0 ? 1 : 0))
    const identitySignature = Uint8Array.from({ length: 64 }, (_, j) => (j === 0 ? 1 : 0))
    for (const [k, m, s] of [[publicKey, message, signature], [publicKey, message, nonCanonical], [publicKey, Uint8Array.of(...message, 0), signature], [smallOrderKey, message, identitySignature]] as const)
      expect(ed25519Verify(k, m, s)).toBe(verifyStrict(k, m, s))
  }
})
