// The RFC 8032 checks a native Ed25519 verifier leaves out, as byte prechecks: S < L, canonical
// encodings of A and R (y < p), neither of small order. Plain Uint8Array code with no runtime
// imports; the verifier package (packages/verify, used by the browser pages) applies the same checks, so both refuse
// exactly the same signatures.

const fromHex = (hex: string) => Uint8Array.from(hex.match(/../g)!, (pair) => parseInt(pair, 16))

/** Group order L, little-endian: S must be below it. */
const L_BYTES = fromHex('edd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010')

/**
 * Encodings (sign bit cleared) of the y-coordinates of the eight small-order points: identity
 * (y = 1), order 2 (y = p - 1), order 4 (y = 0) and the two y values of the order-8 points.
 * Encodings with y >= p are already refused by the canonical check.
 */
const SMALL_ORDER_Y = [
  '0100000000000000000000000000000000000000000000000000000000000000',
  'ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f',
  '0000000000000000000000000000000000000000000000000000000000000000',
  '26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05',
  'c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a',
].map(fromHex)

/** Little-endian comparison of two 32-byte values: a < b. */
function lessThan(a: Uint8Array, b: Uint8Array): boolean {
  for (let i = 31; i >= 0; i--) {
    if (a[i]! !== b[i]!) return a[i]! < b[i]!
  }
  return false
}

/** y (sign bit cleared) >= p = 2^255 - 19: top byte 0x7f, bytes 30..1 all 0xff, low byte >= 0xed. */
function yNotCanonical(point: Uint8Array): boolean {
  if ((point[31]! & 0x7f) !== 0x7f) return false
  for (let i = 30; i >= 1; i--) if (point[i] !== 0xff) return false
  return point[0]! >= 0xed
}

function smallOrder(point: Uint8Array): boolean {
  return SMALL_ORDER_Y.some((y) => {
    for (let i = 0; i < 31; i++) if (point[i] !== y[i]) return false
    return (point[31]! & 0x7f) === y[31]
  })
}

export type StrictRejection = 'bad_length' | 'non_canonical_s' | 'non_canonical_a' | 'non_canonical_r' | 'small_order_a' | 'small_order_r'

/**
 * The RFC 8032 prechecks the native verifier skips: S < L, canonical encodings of A and R
 * (y < p), and neither A nor R of small order. Returns the first failed rule, or null.
 */
export function strictPrecheck(publicKey: Uint8Array, signature: Uint8Array): StrictRejection | null {
  if (publicKey.length !== 32 || signature.length !== 64) return 'bad_length'
  if (!lessThan(signature.subarray(32), L_BYTES)) return 'non_canonical_s'
  const r = signature.subarray(0, 32)
  if (yNotCanonical(publicKey)) return 'non_canonical_a'
  if (yNotCanonical(r)) return 'non_canonical_r'
  if (smallOrder(publicKey)) return 'small_order_a'
  if (smallOrder(r)) return 'small_order_r'
  return null
}
