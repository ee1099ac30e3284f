// RFC 6962 (Certificate Transparency) Merkle trees over a day's receipt ids, and the one
// audit-path verifier everybody uses (the service, the tests and docs/audit.md's script).
//   leaf  = SHA-256(0x00 ‖ UTF-8 receipt_id)
//   node  = SHA-256(0x01 ‖ left ‖ right)
//   split = the largest power of two smaller than n; the empty tree's root = SHA-256("")
import { createHash } from 'node:crypto'
import { HASH_HEX, rootFromAuditPath } from './inclusion'

/** Leaves per block of a day's tree (day-tree.ts); sealing keeps the roots of a day's full blocks. */
export const BLOCK_SIZE = 1024

export const EMPTY_ROOT_HEX = createHash('sha256').digest('hex')

// Bun's one-shot SHA-256 over a reused buffer holding prefix and input: a node hash took 0.41 µs
// with createHash/update/update/digest and takes 0.14 µs so (a leaf of a 480-byte receipt 0.68
// against 0.39 µs); the transparency log hashes two or three per receipt. Same bytes either way.
let scratch = new Uint8Array(1024)
const node = new Uint8Array(65)
node[0] = 1
const encoder = new TextEncoder()

/** Leaf hash of a receipt id (UTF-8) or of raw bytes (the RFC 6962 reference vectors use bytes). */
export function leafHash(entry: string | Uint8Array): Uint8Array {
  // A UTF-8 string takes at most three bytes per UTF-16 unit.
  const most = 1 + (typeof entry === 'string' ? entry.length * 3 : entry.length)
  if (scratch.length < most) scratch = new Uint8Array(most)
  scratch[0] = 0
  let length: number
  if (typeof entry === 'string') length = encoder.encodeInto(entry, scratch.subarray(1)).written
  else {
    scratch.set(entry, 1)
    length = entry.length
  }
  return Bun.SHA256.hash(scratch.subarray(0, 1 + length), new Uint8Array(32)) as Uint8Array
}

export function nodeHash(left: Uint8Array, right: Uint8Array): Uint8Array {
  if (left.length !== 32 || right.length !== 32) return new Uint8Array(createHash('sha256').update(node.subarray(0, 1)).update(left).update(right).digest())
  node.set(left, 1)
  node.set(right, 33)
  return Bun.SHA256.hash(node, new Uint8Array(32)) as Uint8Array
}

/** Largest power of two strictly smaller than n (n ≥ 2). */
export function splitPoint(n: number): number {
  let k = 1
  while (k * 2 < n) k *= 2
  return k
}

/**
 * Root of the RFC 6962 tree whose lowest level is `hashes`. With leaf hashes this is MTH(D[n]);
 * with the roots of consecutive aligned blocks of 2^j leaves (the last one may be short) it is
 * the same root, because every split of the leaf tree above block size falls on a block edge.
 */
export function rootOf(hashes: readonly Uint8Array[], from = 0, to = hashes.length): Uint8Array {
  const n = to - from
  if (n === 0) return new Uint8Array(createHash('sha256').digest())
  if (n === 1) return hashes[from]!
  const k = splitPoint(n)
  return nodeHash(rootOf(hashes, from, from + k), rootOf(hashes, from + k, to))
}

/** RFC 6962 PATH(m, D[n]) over the lowest level `hashes`, siblings listed from the bottom up. */
export function auditPath(index: number, hashes: readonly Uint8Array[], from = 0, to = hashes.length): Uint8Array[] {
  const n = to - from
  if (index < 0 || index >= n) throw new RangeError(`leaf index ${index} outside a tree of ${n}`)
  if (n === 1) return []
  const k = splitPoint(n)
  if (index < k) return [...auditPath(index, hashes, from, from + k), rootOf(hashes, from + k, to)]
  return [...auditPath(index - k, hashes, from + k, to), rootOf(hashes, from, from + k)]
}

/**
 * rootOf and auditPath over one fixed lowest level, each subtree's root hashed once and kept:
 * a day of ten million receipts has about 9,800 block roots, and each proof against it hashed
 * them all twice (its root and its path), about 20,000 hashes per request.
 */
export class MerkleLevel {
  private readonly roots = new Map<number, Uint8Array>()

  constructor(readonly hashes: readonly Uint8Array[]) {}

  root(from = 0, to = this.hashes.length): Uint8Array {
    const n = to - from
    if (n <= 1) return rootOf(this.hashes, from, to)
    const key = from * 2 ** 32 + to
    let root = this.roots.get(key)
    if (!root) {
      const k = splitPoint(n)
      root = nodeHash(this.root(from, from + k), this.root(from + k, to))
      this.roots.set(key, root)
    }
    return root
  }

  /** auditPath(index, hashes) with the subtree roots kept. */
  path(index: number, from = 0, to = this.hashes.length): Uint8Array[] {
    const n = to - from
    if (index < 0 || index >= n) throw new RangeError(`leaf index ${index} outside a tree of ${n}`)
    if (n === 1) return []
    const k = splitPoint(n)
    if (index < k) return [...this.path(index, from, from + k), this.root(from + k, to)]
    return [...this.path(index - k, from + k, to), this.root(from, from + k)]
  }
}

/** The verifier (audit/inclusion.ts, shared with the browser pages) over this module's node hash. */
export function rootFromPath(leaf: Uint8Array, index: number, size: number, path: readonly Uint8Array[]): Uint8Array | null {
  return rootFromAuditPath(nodeHash, leaf, index, size, path)
}

export function verifyInclusion(receiptId: string, index: number, size: number, pathHex: readonly string[], rootHex: string): boolean {
  if (!pathHex.every((item) => HASH_HEX.test(item)) || !HASH_HEX.test(rootHex)) return false
  const root = rootFromPath(leafHash(receiptId), index, size, pathHex.map((item) => Buffer.from(item, 'hex')))
  return root !== null && Buffer.from(root).toString('hex') === rootHex
}

export const toHex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex')
