// SQL for the audit trail: the receipt log (one row per live receipt, in log order), the sealed
// daily digests, the leaf index that proofs of sealed days look ids up in, and a little state
// (the tables: schema.ts).
import type { Database } from 'bun:sqlite'
import { addDays } from './dates'
import { confirmedLeaf, fingerprint, leafPlace, storedLow, type LeafBucket, type LeafRun } from './leaf-buckets'
import { BLOCK_SIZE } from './merkle'

/** One live receipt as logged. receipt_json is null once the body was pruned. */
export interface AuditRow {
  receipt_id: string
  day: string
  mic: string
  status: string
  source: string
  issued_at: string
  schema_version: string
  surface: string
  key_hash: string | null
  payment_ref: string | null
  /** Neither key nor payment: the surface's own caller reference (the tool endpoint's salted daily address hash). */
  client_ref: string | null
  receipt_json: string | null
}

export interface DigestRow {
  date: string
  total_receipts_issued: number
  exchanges_attested: string
  merkle_root: string
  previous_day_merkle_root: string | null
  chain_length: number
  computed_at: string
  /** The digest's receipt as signed at sealing. */
  signed_json: string
  /** The log receipt (digest_log_fields) of a digest sealed since the transparency log exists (audit_digest_receipts). */
  log_receipt_json: string | null
  /** For a digest whose signed_json signed log_tree_size too: the same digest signed over exactly digest_fields. */
  resigned_json: string | null
}

export interface BlockRow {
  root: string
  last_seq: number
}

export interface IdRow {
  seq: number
  receipt_id: string
}

export interface KeyReceiptQuery {
  keyHash: string
  mic?: string
  /** Strictly after this ISO instant. */
  after?: string
  limit: number
}

/**
 * Async like every store (PostgreSQL stands behind it with DATABASE_URL; src/audit/store-postgres.ts
 * says how the log keeps one order across nodes). The SQLite implementation does each write
 * before its first await.
 */
export interface AuditStore {
  /** Commits all rows, or none: rejects with SealedDayError when one is dated on a sealed day. */
  insertBatch(rows: readonly AuditRow[]): Promise<void>
  dayIds(day: string, afterSeq: number, limit: number): Promise<IdRow[]>
  dayCount(day: string): Promise<number>
  dayHasMic(day: string, mic: string): Promise<boolean>
  firstLogDay(): Promise<string | null>
  /** The latest day with a logged row. */
  lastLogDay(): Promise<string | null>
  /** The highest log position of a day's rows (null for a day without rows). */
  lastSeqOfDay(day: string): Promise<number | null>
  /** Up to `limit` rows from log position `fromSeq` on, in log order: the transparency log's entries. */
  entries(fromSeq: number, limit: number): Promise<{ seq: number; receipt_json: string | null }[]>
  /**
   * entries() as [position, UTF-8 body] pairs, the body's stored bytes as they are (no string made
   * and encoded again, about 0.5 µs per entry on SQLite). Optional: the log reads entries() without it.
   */
  entryBytes?(fromSeq: number, limit: number): Promise<[seq: number, body: Uint8Array | null][]>
  archivePage(day: string, mic: string, afterSeq: number, limit: number): Promise<{ seq: number; receipt_json: string | null }[]>
  archiveCount(day: string, mic: string): Promise<number>
  keyReceipts(query: KeyReceiptQuery): Promise<AuditRow[]>
  /** Where a receipt is in a sealed day's tree: the leaf index of days sealed since migration 11, confirmed by the id at that leaf; else audit_leaves. */
  sealedLeaf(receiptId: string): Promise<{ date: string; leaf_index: number } | null>
  unsealedEntry(receiptId: string, fromDay: string): Promise<{ seq: number; day: string } | null>
  leafIndex(day: string, seq: number): Promise<number>
  digest(date: string): Promise<DigestRow | null>
  lastDigest(): Promise<DigestRow | null>
  latestDigests(limit: number): Promise<DigestRow[]>
  /** Sealed digests whose receipt signed log_tree_size and that have no audit_digest_receipts row yet, oldest first. */
  digestsToSignAgain(): Promise<DigestRow[]>
  /** Records the log receipt and the receipt signed again of such a digest (once: a row already there is kept). */
  addDigestReceipts(date: string, logReceiptJson: string | null, resignedJson: string | null): Promise<void>
  /** Adds bucket rows of run `run` of the leaf index of `date` in one transaction; rows already there are kept as they are. */
  insertLeafBuckets(date: string, run: number, buckets: readonly LeafBucket[]): Promise<void>
  /** Records run `run` of `date`'s leaf index as written whole (after its buckets): from then on lookups read it. */
  insertLeafRun(date: string, run: LeafRun): Promise<void>
  /**
   * In one transaction that no batch can commit beside: unless sealed already, checks the day
   * still has `size` rows (counting only the rows after `blocks`: theirs cannot change) and stores build(previous) with the roots of the day's full blocks (so
   * proofs need not rebuild them), with its log receipt when it has one. `build` is synchronous (it signs).
   */
  insertDigest(date: string, size: number, blocks: readonly BlockRow[], build: (previous: DigestRow | null) => DigestRow): Promise<DigestRow>
  /**
   * Closes `date` to new rows before it is sealed: from then on a batch with a row of that day
   * (or before) is refused with SealedDayError, so the count the digest is built over cannot
   * change under the sealer. Without it a node still writing the day (its clock behind the
   * sealer's) made every seal fail its count check, for as long as it wrote.
   */
  closeDay(date: string): Promise<void>
  /** Roots of a sealed day's full blocks, in order. */
  blocks(date: string): Promise<BlockRow[]>
  state(name: string): Promise<string | null>
  setStateIfMissing(name: string, value: string): Promise<void>
  setState(name: string, value: string): Promise<void>
  /** Sealed dates after `afterDate` and before `beforeDate`, oldest first. */
  sealedDatesBetween(afterDate: string, beforeDate: string): Promise<string[]>
  /**
   * Drops the bodies of up to `limit` rows of `day` after log position `afterSeq`, in one short
   * transaction; returns the last log position covered (null when none) and the rows changed.
   */
  pruneChunk(day: string, afterSeq: number, limit: number): Promise<{ lastSeq: number | null; pruned: number }>
}

/** A digest row with the signed objects of audit_digest_receipts beside it (both dialects). */
export const DIGEST_SELECT =
  'SELECT d.date, d.total_receipts_issued, d.exchanges_attested, d.merkle_root, d.previous_day_merkle_root, d.chain_length, d.computed_at, d.signed_json, r.log_receipt_json, r.resigned_json ' +
  'FROM audit_digests d LEFT JOIN audit_digest_receipts r ON r.date = d.date'
/** A digest whose receipt signed log_tree_size (sealed between the transparency log and migration 13). */
export const SIGNED_WITH_LOG_SIZE = `d.signed_json LIKE '%"log_tree_size":%'`

/** audit_state name of the day closed for sealing (SQLite; PostgreSQL keeps it in audit_sequence). */
const CLOSED_THROUGH = 'closed_through'

/** insertBatch refused the batch: a row is dated on or before `sealedThrough`, the last sealed (or closed) day. */
export class SealedDayError extends Error {
  constructor(readonly sealedThrough: string) {
    super(`audit: ${sealedThrough} is sealed; rows dated on or before it are refused`)
  }
}

export function sqliteAuditStore(db: Database): AuditStore {
  // Positional parameters: binding by name copied each row into a new object and looked its
  // twelve names up again for every insert (this runs once per live receipt).
  const insert = db.query(
    `INSERT INTO audit_log (receipt_id, day, mic, status, source, issued_at, schema_version, surface, key_hash, payment_ref, client_ref, receipt_json)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
  // The last sealed day, or the day being sealed (closeDay), whichever is later.
  const lastSealed = db.query(`SELECT max(d) AS date FROM (SELECT max(date) AS d FROM audit_digests UNION ALL SELECT value FROM audit_state WHERE name = '${CLOSED_THROUGH}')`)
  const closeDay = db.query(`INSERT INTO audit_state (name, value) VALUES ('${CLOSED_THROUGH}', ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value WHERE excluded.value > audit_state.value`)
  // Another process over the same database (REUSE_PORT) may have sealed a day this process's
  // log still takes rows for: checked inside the write transaction, so no row lands outside its root.
  const insertAll = db.transaction((rows: readonly AuditRow[]) => {
    const sealed = (lastSealed.get() as { date: string | null }).date
    if (sealed !== null && rows.some((row) => row.day <= sealed)) throw new SealedDayError(sealed)
    for (const row of rows) insert.run(row.receipt_id, row.day, row.mic, row.status, row.source, row.issued_at, row.schema_version, row.surface, row.key_hash, row.payment_ref, row.client_ref, row.receipt_json)
  })
  const dayIds = db.query('SELECT seq, receipt_id FROM audit_log WHERE day = ? AND seq > ? ORDER BY seq LIMIT ?')
  const dayCount = db.query('SELECT count(*) AS n FROM audit_log WHERE day = ?')
  const dayHasMic = db.query('SELECT 1 AS hit FROM audit_log WHERE day = ? AND mic = ? LIMIT 1')
  const firstDay = db.query('SELECT min(day) AS day FROM audit_log')
  const lastDay = db.query('SELECT max(day) AS day FROM audit_log')
  const lastSeqOfDay = db.query('SELECT max(seq) AS seq FROM audit_log WHERE day = ?')
  const entries = db.query('SELECT seq, receipt_json FROM audit_log WHERE seq >= ? ORDER BY seq LIMIT ?')
  const entryBytes = db.query('SELECT seq, CAST(receipt_json AS BLOB) FROM audit_log WHERE seq >= ? ORDER BY seq LIMIT ?')
  const archivePage = db.query('SELECT seq, receipt_json FROM audit_log WHERE day = ? AND mic = ? AND seq > ? ORDER BY seq LIMIT ?')
  const archiveCount = db.query('SELECT count(*) AS n FROM audit_log WHERE day = ? AND mic = ?')
  // For each run of each day, the one bucket row the fingerprint's top bits select, if it holds
  // the low half's bytes anywhere (returning every run's row cost more than the lookups). CROSS
  // JOIN keeps the runs as the outer loop, so each bucket row is one key lookup, never a scan.
  const leafBuckets = db.query(
    `SELECT r.date AS date, b.entries AS entries FROM audit_leaf_runs r
       CROSS JOIN audit_leaf_buckets b ON b.date = r.date AND b.run = r.run AND b.bucket = (?1 >> (32 - r.bits))
     WHERE instr(b.entries, ?2) > 0 ORDER BY r.date, r.run`,
  )
  // The id at a leaf of a sealed day (its digest is there, and with it the roots of its blocks).
  const idAtLeaf = db.query(
    `SELECT receipt_id FROM audit_log WHERE day = ?1 AND EXISTS (SELECT 1 FROM audit_digests WHERE date = ?1)
       AND seq > coalesce((SELECT last_seq FROM audit_blocks WHERE date = ?1 AND block = ?2), 0)
     ORDER BY seq LIMIT 1 OFFSET ?3`,
  )
  const legacyLeaf = db.query('SELECT date, leaf_index FROM audit_leaves WHERE receipt_id = ?')
  const insertLeafBucket = db.query('INSERT OR IGNORE INTO audit_leaf_buckets (date, run, bucket, entries) VALUES (?, ?, ?, ?)')
  const insertLeafBuckets = db.transaction((date: string, run: number, buckets: readonly LeafBucket[]) => {
    for (const bucket of buckets) insertLeafBucket.run(date, run, bucket.bucket, bucket.entries)
  })
  const insertLeafRun = db.query('INSERT OR IGNORE INTO audit_leaf_runs (date, run, bits, first_leaf, leaves) VALUES (?, ?, ?, ?, ?)')
  const unsealed = db.query('SELECT seq, day FROM audit_log WHERE day >= ? AND receipt_id = ? ORDER BY seq LIMIT 1')
  const leafIndex = db.query('SELECT count(*) AS n FROM audit_log WHERE day = ? AND seq < ?')
  const digest = db.query(`${DIGEST_SELECT} WHERE d.date = ?`)
  const lastDigest = db.query(`${DIGEST_SELECT} ORDER BY d.date DESC LIMIT 1`)
  const latest = db.query(`${DIGEST_SELECT} ORDER BY d.date DESC LIMIT ?`)
  const toSignAgain = db.query(`${DIGEST_SELECT} WHERE r.date IS NULL AND ${SIGNED_WITH_LOG_SIZE} ORDER BY d.date`)
  const insertDigestReceipts = db.query('INSERT OR IGNORE INTO audit_digest_receipts (date, log_receipt_json, resigned_json) VALUES (?, ?, ?)')
  const insertDigest = db.query(
    `INSERT INTO audit_digests (date, total_receipts_issued, exchanges_attested, merkle_root, previous_day_merkle_root, chain_length, computed_at, signed_json)
     VALUES ($date, $total_receipts_issued, $exchanges_attested, $merkle_root, $previous_day_merkle_root, $chain_length, $computed_at, $signed_json)`,
  )
  const lastSeqOfChunk = db.query('SELECT max(seq) AS seq FROM (SELECT seq FROM audit_log WHERE day = ? AND seq > ? ORDER BY seq LIMIT ?)')
  const state = db.query('SELECT value FROM audit_state WHERE name = ?')
  const setState = db.query('INSERT OR IGNORE INTO audit_state (name, value) VALUES (?, ?)')
  const putState = db.query('INSERT INTO audit_state (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value')
  const sealedDates = db.query('SELECT date FROM audit_digests WHERE date > ? AND date < ? ORDER BY date')
  const pruneRange = db.query('UPDATE audit_log SET receipt_json = NULL WHERE day = ? AND seq > ? AND seq <= ? AND receipt_json IS NOT NULL')

  const pruneChunk = db.transaction((day: string, afterSeq: number, limit: number) => {
    const last = (lastSeqOfChunk.get(day, afterSeq, limit) as { seq: number | null }).seq
    return { lastSeq: last, pruned: last === null ? 0 : pruneRange.run(day, afterSeq, last).changes }
  })
  // The digest's recount: the rows of the day's full blocks cannot change (no row is deleted and
  // positions only grow), so the day's count is its full blocks and the rows after them. Counting
  // the whole day held the event loop for 0.4 s at ten million rows.
  const rowsAfter = db.query('SELECT count(*) AS n FROM audit_log WHERE day = ? AND seq > ?')
  const insertBlock = db.query('INSERT OR IGNORE INTO audit_blocks (date, block, root, last_seq) VALUES (?, ?, ?, ?)')
  const blocks = db.query('SELECT root, last_seq FROM audit_blocks WHERE date = ? ORDER BY block')
  const sealDigest = db.transaction((date: string, size: number, blockRows: readonly BlockRow[], build: (previous: DigestRow | null) => DigestRow): DigestRow => {
    const existing = digest.get(date) as DigestRow | null
    if (existing) return existing
    const count = blockRows.length * BLOCK_SIZE + (rowsAfter.get(date, blockRows.at(-1)?.last_seq ?? 0) as { n: number }).n
    if (count !== size) throw new Error(`audit: ${date} has ${count} rows, the tree was built over ${size}; sealing again`)
    const row = build(lastDigest.get() as DigestRow | null)
    blockRows.forEach((block, index) => insertBlock.run(date, index, block.root, block.last_seq))
    const { log_receipt_json: logReceipt, resigned_json: resigned, ...columns } = row
    insertDigest.run({ ...columns })
    if (logReceipt !== null || resigned !== null) insertDigestReceipts.run(date, logReceipt, resigned)
    return row
  })

  const firstDayFrom = db.query('SELECT day FROM audit_log WHERE day >= ? ORDER BY day LIMIT 1')
  const firstSeqOfDay = db.query('SELECT seq FROM audit_log WHERE day = ? ORDER BY seq LIMIT 1')
  const keyQuery = (query: KeyReceiptQuery) => {
    const where = ['key_hash = $key']
    const params: Record<string, string | number> = { key: query.keyHash, limit: query.limit }
    if (query.mic) {
      where.push('mic = $mic')
      params.mic = query.mic
    }
    if (query.after) {
      // Start at the log position where rows of the instant's day can begin, not at the key's
      // first row (a key with millions of rows took seconds). A row of the day after can precede
      // the day's late rows in the log by a few seconds around midnight, so the lower of the two.
      const firstDay = (firstDayFrom.get(query.after.slice(0, 10)) as { day: string } | null)?.day
      if (!firstDay) return []
      const seqs = [firstDay, addDays(firstDay, 1)].map((day) => (firstSeqOfDay.get(day) as { seq: number } | null)?.seq ?? Number.POSITIVE_INFINITY)
      where.push('seq >= $first', 'issued_at > $after')
      params.first = Math.min(...seqs)
      params.after = query.after
      // The first `limit` after the instant, in log order.
      return db.query(`SELECT * FROM audit_log WHERE ${where.join(' AND ')} ORDER BY seq LIMIT $limit`).all(params) as AuditRow[]
    }
    // Without `from`: the latest `limit`, returned in log order.
    return (db.query(`SELECT * FROM audit_log WHERE ${where.join(' AND ')} ORDER BY seq DESC LIMIT $limit`).all(params) as AuditRow[]).reverse()
  }

  return {
    async insertBatch(rows) {
      insertAll.immediate(rows)
    },
    async dayIds(day, afterSeq, limit) {
      return dayIds.all(day, afterSeq, limit) as IdRow[]
    },
    async dayCount(day) {
      return (dayCount.get(day) as { n: number }).n
    },
    async dayHasMic(day, mic) {
      return dayHasMic.get(day, mic) !== null
    },
    async firstLogDay() {
      return (firstDay.get() as { day: string | null }).day
    },
    async lastLogDay() {
      return (lastDay.get() as { day: string | null }).day
    },
    async lastSeqOfDay(day) {
      return (lastSeqOfDay.get(day) as { seq: number | null }).seq
    },
    async entries(fromSeq, limit) {
      return entries.all(fromSeq, limit) as { seq: number; receipt_json: string | null }[]
    },
    async entryBytes(fromSeq, limit) {
      return entryBytes.values(fromSeq, limit) as [number, Uint8Array | null][]
    },
    async archivePage(day, mic, afterSeq, limit) {
      return archivePage.all(day, mic, afterSeq, limit) as { seq: number; receipt_json: string | null }[]
    },
    async archiveCount(day, mic) {
      return (archiveCount.get(day, mic) as { n: number }).n
    },
    async keyReceipts(query) {
      return keyQuery(query)
    },
    async sealedLeaf(receiptId) {
      const { hi, lo } = fingerprint(receiptId)
      const rows = leafBuckets.all(hi, storedLow(lo)) as { date: string; entries: Uint8Array }[]
      const idAt = async (date: string, leaf: number) => {
        const { blockBefore, offset } = leafPlace(leaf)
        return (idAtLeaf.get(date, blockBefore, offset) as { receipt_id: string } | null)?.receipt_id ?? null
      }
      return (await confirmedLeaf(receiptId, lo, rows, idAt)) ?? (legacyLeaf.get(receiptId) as { date: string; leaf_index: number } | null)
    },
    async unsealedEntry(receiptId, fromDay) {
      return unsealed.get(fromDay, receiptId) as { seq: number; day: string } | null
    },
    async leafIndex(day, seq) {
      return (leafIndex.get(day, seq) as { n: number }).n
    },
    async digest(date) {
      return digest.get(date) as DigestRow | null
    },
    async lastDigest() {
      return lastDigest.get() as DigestRow | null
    },
    async latestDigests(limit) {
      return latest.all(limit) as DigestRow[]
    },
    async digestsToSignAgain() {
      return toSignAgain.all() as DigestRow[]
    },
    async addDigestReceipts(date, logReceiptJson, resignedJson) {
      insertDigestReceipts.run(date, logReceiptJson, resignedJson)
    },
    async insertLeafBuckets(date, run, buckets) {
      insertLeafBuckets.immediate(date, run, buckets)
    },
    async insertLeafRun(date, run) {
      insertLeafRun.run(date, run.run, run.bits, run.firstLeaf, run.leaves)
    },
    async insertDigest(date, size, blockRows, build) {
      return sealDigest.immediate(date, size, blockRows, build)
    },
    async closeDay(date) {
      closeDay.run(date)
    },
    async blocks(date) {
      return blocks.all(date) as BlockRow[]
    },
    async state(name) {
      return (state.get(name) as { value: string } | null)?.value ?? null
    },
    async setStateIfMissing(name, value) {
      setState.run(name, value)
    },
    async setState(name, value) {
      putState.run(name, value)
    },
    async sealedDatesBetween(afterDate, beforeDate) {
      return (sealedDates.all(afterDate, beforeDate) as { date: string }[]).map((row) => row.date)
    },
    async pruneChunk(day, afterSeq, limit) {
      return pruneChunk.immediate(day, afterSeq, limit)
    },
  }
}
