// RFC 6962 / RFC 9162 proofs over the continuous log: inclusion and consistency proofs built from
// the hashes of perfect subtrees (which the tiles hold), the consistency verifier, and the root of
// a tree from its right edge (the partial tiles of every level).
import { nodeHash, rootOf, splitPoint } from '../audit/merkle'
import { EMPTY_ROOT } from './hashing'
import { TILE_HEIGHT } from './tiles'

/** Hashes of perfect subtrees: `node(h, k)` is MTH(D[k·2^h : (k+1)·2^h]). */
export interface NodeSource {
  node(height: number, index: number): Promise<Uint8Array>
}

const isPowerOfTwo = (n: number) => n > 0 && 2 ** Math.round(Math.log2(n)) === n

/**
 * MTH(D[from:to]) for the ranges RFC 6962's recursions visit: a range of 2^h leaves always starts
 * at a multiple of 2^h there, so it is one perfect subtree; any other range splits as MTH does.
 */
export async function rangeHash(source: NodeSource, from: number, to: number): Promise<Uint8Array> {
  const n = to - from
  if (n === 0) return EMPTY_ROOT
  if (isPowerOfTwo(n) && from % n === 0) return source.node(Math.round(Math.log2(n)), from / n)
  const k = splitPoint(n)
  return nodeHash(await rangeHash(source, from, from + k), await rangeHash(source, from + k, to))
}

/** RFC 9162 PATH(index, D[0:size]): the inclusion proof, siblings from the leaf up. */
export async function inclusionProof(source: NodeSource, index: number, size: number): Promise<Uint8Array[]> {
  if (!Number.isSafeInteger(index) || index < 0 || index >= size) throw new RangeError(`leaf ${index} is not in a tree of ${size}`)
  const path = async (m: number, from: number, to: number): Promise<Uint8Array[]> => {
    const n = to - from
    if (n === 1) return []
    const k = splitPoint(n)
    if (m < k) return [...(await path(m, from, from + k)), await rangeHash(source, from + k, to)]
    return [...(await path(m - k, from + k, to)), await rangeHash(source, from, from + k)]
  }
  return path(index, 0, size)
}

/** RFC 9162 PROOF(old, D[0:size]): the consistency proof; empty when old is 0 or equals size. */
export async function consistencyProof(source: NodeSource, old: number, size: number): Promise<Uint8Array[]> {
  if (!Number.isSafeInteger(old) || old < 0 || old > size) throw new RangeError(`no consistency proof from ${old} to ${size}`)
  if (old === 0 || old === size) return []
  const subproof = async (m: number, from: number, to: number, complete: boolean): Promise<Uint8Array[]> => {
    const n = to - from
    if (m === n) return complete ? [] : [await rangeHash(source, from, to)]
    const k = splitPoint(n)
    if (m <= k) return [...(await subproof(m, from, from + k, complete)), await rangeHash(source, from + k, to)]
    return [...(await subproof(m - k, from + k, to, false)), await rangeHash(source, from, from + k)]
  }
  return subproof(old, 0, size, true)
}

const equal = (a: Uint8Array, b: Uint8Array) => a.length === b.length && Buffer.compare(a, b) === 0
const half = (n: number) => Math.floor(n / 2)
const odd = (n: number) => n % 2 === 1

/**
 * RFC 9162 section 2.1.4.2: does `proof` show that the tree of `oldSize` with root `oldRoot` is a
 * prefix of the tree of `newSize` with root `newRoot`? A proof from the empty tree proves
 * nothing and is refused (as transparency-dev/merkle does); equal sizes need an empty proof.
 */
export function verifyConsistency(oldSize: number, newSize: number, oldRoot: Uint8Array, newRoot: Uint8Array, proof: readonly Uint8Array[]): boolean {
  if (!Number.isSafeInteger(oldSize) || !Number.isSafeInteger(newSize) || oldSize < 1 || oldSize > newSize) return false
  if (oldSize === newSize) return proof.length === 0 && equal(oldRoot, newRoot)
  if (!proof.length) return false
  const path = isPowerOfTwo(oldSize) ? [oldRoot, ...proof] : [...proof]
  let fn = oldSize - 1
  let sn = newSize - 1
  while (odd(fn)) {
    fn = half(fn)
    sn = half(sn)
  }
  let fr = path[0]!
  let sr = path[0]!
  for (const c of path.slice(1)) {
    if (sn === 0) return false
    if (odd(fn) || fn === sn) {
      fr = nodeHash(c, fr)
      sr = nodeHash(c, sr)
      while (!odd(fn) && fn !== 0) {
        fn = half(fn)
        sn = half(sn)
      }
    } else {
      sr = nodeHash(sr, c)
    }
    fn = half(fn)
    sn = half(sn)
  }
  return sn === 0 && equal(fr, oldRoot) && equal(sr, newRoot)
}

/**
 * The root of a tree from its right edge: per level, the hashes of its partial tile (the full
 * subtrees of 256^L leaves not yet gathered into a full tile), top level first. Each partial
 * tile splits into perfect subtrees by the binary digits of its width, largest first; the
 * root folds those subtrees from the right.
 */
export function rootFromEdge(edge: readonly (readonly Uint8Array[])[]): Uint8Array {
  const subtrees: Uint8Array[] = []
  for (let level = edge.length - 1; level >= 0; level--) {
    const hashes = edge[level]!
    let at = 0
    for (let bit = TILE_HEIGHT - 1; bit >= 0; bit--) {
      const width = 2 ** bit
      if (hashes.length & width) {
        subtrees.push(rootOf(hashes, at, at + width))
        at += width
      }
    }
  }
  if (!subtrees.length) return EMPTY_ROOT
  let root = subtrees.at(-1)!
  for (let i = subtrees.length - 2; i >= 0; i--) root = nodeHash(subtrees[i]!, root)
  return root
}
