// The verifier package keeps its own copies of what the service defines (it depends on nothing of
// src/): the signed field lists and the strict Ed25519 rules must stay the same as the service's.
import { expect, test } from 'bun:test'
import { randomBytes } from 'node:crypto'
import { DEFAULT_FIELD_LISTS, DEFAULT_OPTIONAL_FIELDS, ed25519Verify, fieldListOf } from '@openbell/verify'
import { OPTIONAL_SIGNED_FIELDS, SIGNED_FIELDS, receiptType } from '../../src/crypto/signed-fields'
import { privateKeyFromSeed, rawPublicKey, signBytes, verifyStrict } from '../../src/crypto/ed25519'

test('the signed field lists and the recognition of kinds are the service’s', () => {
  expect(DEFAULT_FIELD_LISTS).toEqual(SIGNED_FIELDS as unknown as typeof DEFAULT_FIELD_LISTS)
  expect(DEFAULT_OPTIONAL_FIELDS).toEqual(OPTIONAL_SIGNED_FIELDS as typeof DEFAULT_OPTIONAL_FIELDS)
  const samples = [{ type: 'witness.checkpoint/1' }, { merkle_root: '', date: '' }, { venue: '', safe: '' }, { mic: '', halt_detection: '' }, { mic: '', halt_detection: '', reason: '' }, { status: 'OK', source: 'SYSTEM' }, { status: 'OK' }, {}]
  for (const sample of samples) expect(fieldListOf(sample)).toBe(receiptType(sample))
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
