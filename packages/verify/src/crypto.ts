// The primitives, all from @noble: SHA-256, strict RFC 8032 Ed25519 verification, ML-DSA-44
// (FIPS 204, pure mode, empty context) verification.
import { sha256 as nobleSha256, sha512 } from '@noble/hashes/sha2.js'
import * as ed from '@noble/ed25519'
import { ml_dsa44 } from '@noble/post-quantum/ml-dsa.js'
import { concat } from './bytes.js'

export const sha256 = (bytes: Uint8Array): Uint8Array => nobleSha256(bytes)

/** RFC 6962 leaf hash: SHA-256(0x00 ‖ entry). */
export const leafHash = (entry: Uint8Array) => sha256(concat(Uint8Array.of(0), entry))
/** RFC 6962 interior node: SHA-256(0x01 ‖ left ‖ right). */
export const nodeHash = (left: Uint8Array, right: Uint8Array) => sha256(concat(Uint8Array.of(1), left, right))

/** Group order L, little-endian: S must be below it. */
const L = Uint8Array.from([0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde, 0x14, ...new Array(15).fill(0), 0x10])
/** y-coordinates (sign bit cleared) of the small-order points; y >= p is refused separately. */
const SMALL_ORDER_Y = [
  '0100000000000000000000000000000000000000000000000000000000000000',
  'ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f',
  '0000000000000000000000000000000000000000000000000000000000000000',
  '26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05',
  'c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a',
].map((hex) => Uint8Array.from(hex.match(/../g)!, (pair) => parseInt(pair, 16)))
/** p = 2^255 - 19, little-endian. */
const P = Uint8Array.from([0xed, ...new Array(30).fill(0xff), 0x7f])

const lessThan = (a: Uint8Array, b: Uint8Array) => {
  for (let i = 31; i >= 0; i--) if (a[i]! !== b[i]!) return a[i]! < b[i]!
  return false
}
const y = (point: Uint8Array) => Uint8Array.from(point, (byte, i) => (i === 31 ? byte & 0x7f : byte))
const smallOrder = (point: Uint8Array) => SMALL_ORDER_Y.some((candidate) => y(point).every((byte, i) => byte === candidate[i]))

/**
 * Ed25519 as RFC 8032 says, strictly: S < L, canonical encodings (y < p) of the key and of R,
 * neither of small order, then the cofactorless equation. These are the checks the service
 * applies to what it verifies, so both refuse the same signatures.
 */
export function ed25519Verify(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  if (publicKey.length !== 32 || signature.length !== 64) return false
  const r = signature.subarray(0, 32)
  if (!lessThan(signature.subarray(32), L) || !lessThan(y(publicKey), P) || !lessThan(y(r), P) || smallOrder(publicKey) || smallOrder(r)) return false
  // Synchronous verification needs SHA-512: set here (not at import), and only when the application has not set its own.
  if (!ed.hashes.sha512) ed.hashes.sha512 = sha512
  try {
    return ed.verify(signature, message, publicKey, { zip215: false })
  } catch {
    return false
  }
}

export const ML_DSA_44_PUBLIC_KEY_BYTES = 1312
export const ML_DSA_44_SIGNATURE_BYTES = 2420

/** ML-DSA-44 (FIPS 204 ML-DSA.Verify, empty context) of `signature` over `message`. */
export function mlDsa44Verify(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  if (publicKey.length !== ML_DSA_44_PUBLIC_KEY_BYTES || signature.length !== ML_DSA_44_SIGNATURE_BYTES) return false
  try {
    return ml_dsa44.verify(signature, message, publicKey)
  } catch {
    return false
  }
}
