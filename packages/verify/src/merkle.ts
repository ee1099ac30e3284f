// RFC 9162 inclusion proofs and the subtree consistency proofs of
// draft-ietf-plants-merkle-tree-certs-03 section 4.4 (what tlog-witness sign-subtree checks).
import { equal } from './bytes.js'
import { nodeHash } from './crypto.js'

const odd = (n: number) => n % 2 === 1
const half = (n: number) => Math.floor(n / 2)

/**
 * RFC 9162 section 2.1.3.2: the root `path` leads to from the leaf hash at `index` in a tree of
 * `size`; null when the path does not have exactly the length that index and size need.
 */
export function rootFromInclusionProof(leaf: Uint8Array, index: number, size: number, path: readonly Uint8Array[]): Uint8Array | null {
  if (!Number.isSafeInteger(index) || !Number.isSafeInteger(size) || index < 0 || index >= size) return null
  let fn = index
  let sn = size - 1
  let r = leaf
  for (const p of path) {
    if (sn === 0 || p.length !== 32) return null
    if (odd(fn) || fn === sn) {
      r = nodeHash(p, r)
      while (!odd(fn) && fn !== 0) {
        fn = half(fn)
        sn = half(sn)
      }
    } else r = nodeHash(r, p)
    fn = half(fn)
    sn = half(sn)
  }
  return sn === 0 ? r : null
}

/** The smallest power of two at least n (n >= 1). */
const bitCeil = (n: number) => 2 ** Math.ceil(Math.log2(n))

/** [start, end) is a subtree: 0 <= start < end and start is a multiple of BIT_CEIL(end - start). */
export function validSubtree(start: number, end: number): boolean {
  return Number.isSafeInteger(start) && Number.isSafeInteger(end) && start >= 0 && start < end && start % bitCeil(end - start) === 0
}

/**
 * draft-ietf-plants-merkle-tree-certs-03 section 4.4.3: does `proof` show that the subtree
 * [start, end) with hash `nodeHashValue` is consistent with the tree of `size` leaves and root
 * `root`? (start = 0 makes it an RFC 9162 consistency proof, end = start + 1 an inclusion proof.)
 */
export function verifySubtreeConsistency(start: number, end: number, size: number, nodeHashValue: Uint8Array, root: Uint8Array, proof: readonly Uint8Array[]): boolean {
  if (!validSubtree(start, end) || !Number.isSafeInteger(size) || end > size) return false
  let fn = start
  let sn = end - 1
  let tn = size - 1
  const shift = () => {
    fn = half(fn)
    sn = half(sn)
    tn = half(tn)
  }
  if (sn === tn) while (fn !== sn) shift()
  else while (fn !== sn && odd(sn)) shift()
  const rest = [...proof]
  let fr: Uint8Array
  let sr: Uint8Array
  if (fn === sn) fr = sr = nodeHashValue
  else {
    const first = rest.shift()
    if (!first) return false
    fr = sr = first
  }
  for (const c of rest) {
    if (tn === 0 || c.length !== 32) return false
    if (odd(sn) || sn === tn) {
      if (fn < sn) fr = nodeHash(c, fr)
      sr = nodeHash(c, sr)
      while (!odd(sn)) {
        if (sn === 0) break
        shift()
      }
    } else sr = nodeHash(sr, c)
    shift()
  }
  return tn === 0 && equal(fr, nodeHashValue) && equal(sr, root)
}
