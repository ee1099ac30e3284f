// The leaf index of sealed days: where a receipt is in its day's tree, without an index on the
// random receipt id. Its predecessor, one B-tree keyed by the id over all days (`audit_leaves`),
// took each sealing chunk all over an ever larger index: sealing a day of ten million took
// 439 s with event-loop pauses of seconds. Here a sealed day is cut into runs of RUN_LEAVES
// leaves in log order; each run's leaves are spread by a fingerprint of the id over 2^bits
// buckets of about BUCKET_TARGET entries, and each bucket is one row (date, run, bucket,
// entries) written in key order: every write lands at the end of the table, whatever its size.
// A lookup reads, for every run of every sealed day, the one bucket its fingerprint selects and
// confirms each matching entry by the id stored at that leaf, so a fingerprint shared by two ids
// can never name the wrong leaf. Days sealed before this index keep answering from audit_leaves.
import type { AuditStore } from './store'
import { BLOCK_SIZE } from './day-tree'

/** Leaves per run: 16 bytes of working memory each while sealing (32 MiB at most). */
export const RUN_LEAVES = 1 << 21
/** Entries a bucket holds on average at most: its row is at most about 1 KiB (8 bytes an entry). */
export const BUCKET_TARGET = 128
/** One entry: the fingerprint's low 32 bits, then the leaf index, both little-endian. */
export const ENTRY_BYTES = 8
/** Ids read per store call while indexing (the event loop is free between calls). */
const READ_PAGE = 4096
/** Bucket rows written per transaction (about 0.5 MiB). */
const WRITE_ROWS = 512
/** Leaves sorted into their buckets per event-loop turn. */
const SORT_SLICE = 1 << 16

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

const nextTurn = () => new Promise((resolve) => setImmediate(resolve))

/**
 * Writes the leaf index of `date`, a day of `size` rows closed to new ones, reading its ids in
 * log order a page at a time with the event loop free in between. Deterministic (the same rows
 * give the same runs, buckets and bytes), and the stores ignore rows already there, so a seal cut
 * short is simply run again. A run's row (its bits) is written after its buckets: lookups read
 * only runs written whole. `runLeaves` is for tests (several runs in a small day).
 */
export async function writeLeafIndex(store: AuditStore, date: string, size: number, runLeaves = RUN_LEAVES): Promise<void> {
  const capacity = Math.min(size, runLeaves)
  // Per leaf of the run: the fingerprint's halves as read, then the run's entries by bucket.
  const his = new Uint32Array(capacity)
  const los = new Uint32Array(capacity)
  const entries = new Uint8Array(capacity * ENTRY_BYTES)
  const entriesView = new DataView(entries.buffer)
  const fp: Fingerprint = { hi: 0, lo: 0 }
  let afterSeq = 0
  for (let run = 0; run * runLeaves < size; run++) {
    const firstLeaf = run * runLeaves
    const leaves = Math.min(runLeaves, size - firstLeaf)
    for (let read = 0; read < leaves; ) {
      const rows = await store.dayIds(date, afterSeq, Math.min(READ_PAGE, leaves - read))
      if (!rows.length) throw new Error(`audit: ${date} has fewer rows than the ${size} its tree was built over; sealing again`)
      for (const row of rows) {
        fingerprint(row.receipt_id, fp)
        his[read] = fp.hi
        los[read] = fp.lo
        read++
      }
      afterSeq = rows.at(-1)!.seq
      await nextTurn()
    }
    // Counting sort by bucket (within a bucket the leaves stay in log order), a slice of
    // leaves per turn: two passes over two million leaves held the event loop for 100 ms.
    const bits = bucketBits(leaves)
    const buckets = 2 ** bits
    const starts = new Uint32Array(buckets + 1)
    for (let from = 0; from < leaves; from += SORT_SLICE) {
      for (let i = from; i < Math.min(leaves, from + SORT_SLICE); i++) starts[bucketOf(his[i]!, bits) + 1]!++
      await nextTurn()
    }
    for (let b = 0; b < buckets; b++) starts[b + 1]! += starts[b]!
    const next = starts.slice(0, buckets)
    for (let from = 0; from < leaves; from += SORT_SLICE) {
      for (let i = from; i < Math.min(leaves, from + SORT_SLICE); i++) {
        const offset = next[bucketOf(his[i]!, bits)]!++ * ENTRY_BYTES
        entriesView.setUint32(offset, los[i]!, true)
        entriesView.setUint32(offset + 4, firstLeaf + i, true)
      }
      await nextTurn()
    }
    let batch: LeafBucket[] = []
    for (let b = 0; b < buckets; b++) {
      if (starts[b + 1]! > starts[b]!) batch.push({ bucket: b, entries: entries.subarray(starts[b]! * ENTRY_BYTES, starts[b + 1]! * ENTRY_BYTES) })
      if (batch.length === WRITE_ROWS || (b === buckets - 1 && batch.length)) {
        await store.insertLeafBuckets(date, run, batch)
        batch = []
        await nextTurn()
      }
    }
    await store.insertLeafRun(date, { run, bits, firstLeaf, leaves })
  }
}
