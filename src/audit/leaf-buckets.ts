// The leaf index's format (leaf-index.ts writes it, the stores read it): the fingerprint of an
// id, its bucket in a run, the 8-byte entries of a bucket row, and how a lookup confirms a match.
import { BLOCK_SIZE } from './merkle'

/** Leaves per run: 16 bytes of working memory each while sealing (32 MiB at most). */
export const RUN_LEAVES = 1 << 21
/** Entries a bucket holds on average at most: its row is at most about 1 KiB (8 bytes an entry). */
export const BUCKET_TARGET = 128
/** One entry: the fingerprint's low 32 bits, then the leaf index, both little-endian. */
export const ENTRY_BYTES = 8

/** The fingerprint of a receipt id: the first 8 bytes of SHA-256 of its UTF-8 text, as two 32-bit halves. */
export interface Fingerprint {
  hi: number
  lo: number
}

const digest = new Uint8Array(32)
const digestView = new DataView(digest.buffer)

export function fingerprint(receiptId: string, into: Fingerprint = { hi: 0, lo: 0 }): Fingerprint {
  Bun.SHA256.hash(receiptId, digest)
  into.hi = digestView.getUint32(0)
  into.lo = digestView.getUint32(4)
  return into
}

/** Bits of the bucket number for a run of `leaves`: the fewest that give buckets of BUCKET_TARGET or fewer entries on average. */
export function bucketBits(leaves: number): number {
  let bits = 0
  while (leaves > BUCKET_TARGET * 2 ** bits) bits++
  return bits
}

/** The bucket of a fingerprint in a run of 2^bits buckets: its top `bits` bits (the stores compute the same in SQL: hi >> (32 - bits)). */
export function bucketOf(hi: number, bits: number): number {
  // >>> 32 would shift by 0 in JavaScript.
  return bits === 0 ? 0 : hi >>> (32 - bits)
}

/** One bucket row of a run. */
export interface LeafBucket {
  bucket: number
  entries: Uint8Array
}

/** One run of a day's leaf index: leaves first_leaf .. first_leaf + leaves - 1, in 2^bits buckets. */
export interface LeafRun {
  run: number
  bits: number
  firstLeaf: number
  leaves: number
}

/**
 * The low half as stored in an entry (4 bytes, little-endian): the stores return only bucket
 * rows that hold these bytes somewhere (a byte search in the database), not the row of every run.
 */
export function storedLow(lo: number): Uint8Array {
  const bytes = new Uint8Array(4)
  new DataView(bytes.buffer).setUint32(0, lo, true)
  return bytes
}

/** Leaf indexes in a bucket's entries whose fingerprint has the low half `lo` (candidates, to be confirmed). */
export function candidatesIn(entries: Uint8Array, lo: number): number[] {
  const view = new DataView(entries.buffer, entries.byteOffset, entries.byteLength)
  const found: number[] = []
  for (let offset = 0; offset + ENTRY_BYTES <= entries.byteLength; offset += ENTRY_BYTES) {
    if (view.getUint32(offset, true) === lo) found.push(view.getUint32(offset + 4, true))
  }
  return found
}

/**
 * Where the id of leaf `leaf` of a sealed day is in the log: after the last position of the
 * block before its block (audit_blocks), at this offset. The stores read it to confirm a candidate.
 */
export function leafPlace(leaf: number): { blockBefore: number; offset: number } {
  return { blockBefore: Math.floor(leaf / BLOCK_SIZE) - 1, offset: leaf % BLOCK_SIZE }
}

/**
 * The first confirmed leaf among the candidates of each bucket row (rows of earlier days first),
 * or null: `idAt` reads the id stored at a leaf of a day.
 */
export async function confirmedLeaf(receiptId: string, lo: number, rows: readonly { date: string; entries: Uint8Array }[], idAt: (date: string, leaf: number) => Promise<string | null>): Promise<{ date: string; leaf_index: number } | null> {
  for (const row of rows) {
    for (const leaf of candidatesIn(row.entries, lo)) {
      if ((await idAt(row.date, leaf)) === receiptId) return { date: row.date, leaf_index: leaf }
    }
  }
  return null
}
