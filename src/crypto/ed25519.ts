// Ed25519 on the runtime's native implementation (≈ 25× faster than @noble/ed25519 here), with the
// strict RFC 8032 checks the native verifier leaves out done as cheap byte prechecks first
// (ed25519-strict.ts, shared with the browser pages' verifier).
import { createPrivateKey, createPublicKey, sign as nativeSign, verify as nativeVerify, type KeyObject } from 'node:crypto'
import { strictPrecheck } from './ed25519-strict'

export { strictPrecheck, type StrictRejection } from './ed25519-strict'

const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex')
const SPKI_ED25519_PREFIX = Buffer.from('302a300506032b6570032100', 'hex')

export function privateKeyFromSeed(seed: Uint8Array): KeyObject {
  if (seed.length !== 32) throw new RangeError('Ed25519 seed must be 32 bytes')
  return createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]), format: 'der', type: 'pkcs8' })
}

export function publicKeyObject(publicKey: Uint8Array): KeyObject {
  if (publicKey.length !== 32) throw new RangeError('Ed25519 public key must be 32 bytes')
  return createPublicKey({ key: Buffer.concat([SPKI_ED25519_PREFIX, publicKey]), format: 'der', type: 'spki' })
}

export function rawPublicKey(privateKey: KeyObject): Uint8Array {
  const spki = createPublicKey(privateKey).export({ format: 'der', type: 'spki' })
  return new Uint8Array(spki.subarray(spki.length - 32))
}

export function signBytes(privateKey: KeyObject, message: Uint8Array): Uint8Array {
  return new Uint8Array(nativeSign(null, message, privateKey))
}

/** The signature as lowercase hex, straight from the native result (no copy into a Uint8Array and back). */
export function signBytesHex(privateKey: KeyObject, message: Uint8Array): string {
  return nativeSign(null, message, privateKey).toString('hex')
}

/** Strict verification: prechecks, then the native cofactorless check. */
export function verifyStrict(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array, key?: KeyObject): boolean {
  if (strictPrecheck(publicKey, signature) !== null) return false
  try {
    return nativeVerify(null, message, key ?? publicKeyObject(publicKey), signature)
  } catch {
    // Native decoding refuses some off-curve encodings by throwing; that is a failed signature.
    return false
  }
}
