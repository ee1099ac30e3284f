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
import { ENTRY_BYTES, RUN_LEAVES, bucketBits, bucketOf, fingerprint, type Fingerprint, type LeafBucket } from './leaf-buckets'

/** Ids read per store call while indexing (the event loop is free between calls). */
const READ_PAGE = 4096
/** Bucket rows written per transaction (about 0.5 MiB). */
const WRITE_ROWS = 512
/** Leaves sorted into their buckets per event-loop turn. */
const SORT_SLICE = 1 << 16

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
