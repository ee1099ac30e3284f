// The audit trail on PostgreSQL (src/audit/store.ts says what each method does).
//
// One log order across nodes: a batch is one call of openbell_audit_append (schema.ts),
// one statement and one round trip: it takes the one row of audit_sequence FOR UPDATE, reads the
// next log position and the last sealed day from it, inserts its rows at consecutive positions
// with one multi-row INSERT (from one JSON array of the rows) and moves the position on; the
// statement commits, and the row lock is held until then. So
// positions are gapless and a batch committed later has higher positions, on any node: every
// node sees a prefix of the log, the day trees it caches never change under it, and the digest
// and proofs are the same whichever node answers. The sealer takes the same row lock to count
// the day, store its digest and move `sealed_through` on, so no batch can commit a row into a
// day sealed meanwhile: the batch finds the day sealed under the lock and is refused. Before it
// counts, the sealer closes the day (`closeDay` moves `sealed_through` on under the same lock), so
// a node still writing the day cannot keep changing the count under it.
import type { SQL } from 'bun'
import { addDays } from './dates'
import { sqlState } from '../store/postgres'
import { DIGEST_SELECT, SealedDayError, SIGNED_WITH_LOG_SIZE, type AuditRow, type AuditStore, type BlockRow, type DigestRow, type IdRow, type KeyReceiptQuery } from './store'
import { confirmedLeaf, fingerprint, leafPlace, storedLow } from './leaf-buckets'
import { BLOCK_SIZE } from './merkle'

const COLUMNS = ['receipt_id', 'day', 'mic', 'status', 'source', 'issued_at', 'schema_version', 'surface', 'key_hash', 'payment_ref', 'client_ref', 'receipt_json'] as const
const ROW_COLUMNS = COLUMNS.join(', ')
/** openbell_audit_append's refusal of a batch with a row on a sealed day (its message: that day). */
const SEALED_DAY = 'OB001'
const DIGEST_COLUMNS = 'date, total_receipts_issued, exchanges_attested, merkle_root, previous_day_merkle_root, chain_length, computed_at, signed_json'

// ORDER BY audit_log.seq, not seq: where `seq::float8 AS seq` is selected, a bare `seq` in ORDER BY
// names that float8 output column, which no index has, so every page of a day read and sorted all
// the rest of the day (sealing a day of 100,000 rows took seconds, a million would take minutes).
export function postgresAuditStore(sql: SQL): AuditStore {
  const one = async <T>(rows: Promise<unknown>) => ((await rows) as T[])[0]
  const count = async (rows: Promise<unknown>) => Number((await one<{ n: number | string }>(rows))!.n)
  const lastSeqOfChunk = async (handle: SQL, day: string, afterSeq: number, limit: number) =>
    (await one<{ seq: number | null }>(handle`SELECT max(seq)::float8 AS seq FROM (SELECT seq FROM audit_log WHERE day = ${day} AND seq > ${afterSeq} ORDER BY seq LIMIT ${limit}) AS chunk`))!.seq

  const keyReceipts = async (query: KeyReceiptQuery): Promise<AuditRow[]> => {
    const where = ['key_hash = $1']
    const params: (string | number)[] = [query.keyHash]
    if (query.mic) {
      params.push(query.mic)
      where.push(`mic = $${params.length}`)
    }
    params.push(query.limit)
    const limit = `$${params.length}`
    if (query.after) {
      // As on SQLite: start where rows of the instant's day (or the day after, around midnight) begin.
      const first = await one<{ day: string }>(sql`SELECT day FROM audit_log WHERE day >= ${query.after.slice(0, 10)} ORDER BY day LIMIT 1`)
      if (!first) return []
      const seqs = await Promise.all([first.day, addDays(first.day, 1)].map(async (day) => (await one<{ seq: number }>(sql`SELECT seq::float8 AS seq FROM audit_log WHERE day = ${day} ORDER BY audit_log.seq LIMIT 1`))?.seq ?? Number.POSITIVE_INFINITY))
      params.push(Math.min(...seqs), query.after)
      where.push(`seq >= $${params.length - 1}`, `issued_at > $${params.length}`)
      return (await sql.unsafe(`SELECT ${ROW_COLUMNS} FROM audit_log WHERE ${where.join(' AND ')} ORDER BY seq LIMIT ${limit}`, params)) as AuditRow[]
    }
    return ((await sql.unsafe(`SELECT ${ROW_COLUMNS} FROM audit_log WHERE ${where.join(' AND ')} ORDER BY seq DESC LIMIT ${limit}`, params)) as AuditRow[]).reverse()
  }

  return {
    async insertBatch(rows) {
      try {
        await sql`SELECT openbell_audit_append(${JSON.stringify(rows)})`
      } catch (error) {
        if (sqlState(error) === SEALED_DAY) throw new SealedDayError((error as Error).message)
        throw error
      }
    },
    async dayIds(day, afterSeq, limit) {
      return (await sql`SELECT seq::float8 AS seq, receipt_id FROM audit_log WHERE day = ${day} AND seq > ${afterSeq} ORDER BY audit_log.seq LIMIT ${limit}`) as IdRow[]
    },
    dayCount: (day) => count(sql`SELECT count(*)::int AS n FROM audit_log WHERE day = ${day}`),
    async dayHasMic(day, mic) {
      return (await sql`SELECT 1 FROM audit_log WHERE day = ${day} AND mic = ${mic} LIMIT 1`).length > 0
    },
    async firstLogDay() {
      return (await one<{ day: string | null }>(sql`SELECT min(day) AS day FROM audit_log`))!.day
    },
    async lastLogDay() {
      return (await one<{ day: string | null }>(sql`SELECT max(day) AS day FROM audit_log`))!.day
    },
    async lastSeqOfDay(day) {
      return (await one<{ seq: number | null }>(sql`SELECT max(seq)::float8 AS seq FROM audit_log WHERE day = ${day}`))!.seq
    },
    async entries(fromSeq, limit) {
      return (await sql`SELECT seq::float8 AS seq, receipt_json FROM audit_log WHERE seq >= ${fromSeq} ORDER BY audit_log.seq LIMIT ${limit}`) as { seq: number; receipt_json: string | null }[]
    },
    async archivePage(day, mic, afterSeq, limit) {
      return (await sql`SELECT seq::float8 AS seq, receipt_json FROM audit_log WHERE day = ${day} AND mic = ${mic} AND seq > ${afterSeq} ORDER BY audit_log.seq LIMIT ${limit}`) as { seq: number; receipt_json: string | null }[]
    },
    archiveCount: (day, mic) => count(sql`SELECT count(*)::int AS n FROM audit_log WHERE day = ${day} AND mic = ${mic}`),
    keyReceipts,
    async sealedLeaf(receiptId) {
      const { hi, lo } = fingerprint(receiptId)
      // For each run of each day, the one bucket row the fingerprint's top bits select, if it
      // holds the low half's bytes anywhere (sending every run's row cost more than the lookups).
      // A LATERAL subquery with LIMIT is not flattened into a join: each bucket row is one key
      // lookup. As a join, the planner scanned every bucket row of every day (8 ms at one day of a million).
      const rows = (await sql`SELECT r.date, b.entries FROM audit_leaf_runs r
        CROSS JOIN LATERAL (SELECT entries FROM audit_leaf_buckets WHERE date = r.date AND run = r.run AND bucket = (${hi}::bigint >> (32 - r.bits))::int LIMIT 1) AS b
        WHERE position(${Buffer.from(storedLow(lo))}::bytea IN b.entries) > 0 ORDER BY r.date, r.run`) as { date: string; entries: Uint8Array }[]
      const idAt = async (date: string, leaf: number) => {
        const { blockBefore, offset } = leafPlace(leaf)
        // The id at a leaf of a sealed day (its digest is there, and with it the roots of its blocks).
        const row = await one<{ receipt_id: string }>(sql`SELECT receipt_id FROM audit_log WHERE day = ${date} AND EXISTS (SELECT 1 FROM audit_digests WHERE date = ${date})
          AND seq > coalesce((SELECT last_seq FROM audit_blocks WHERE date = ${date} AND block = ${blockBefore}), 0) ORDER BY audit_log.seq OFFSET ${offset} LIMIT 1`)
        return row?.receipt_id ?? null
      }
      const found = await confirmedLeaf(receiptId, lo, rows, idAt)
      return found ?? (await one<{ date: string; leaf_index: number }>(sql`SELECT date, leaf_index FROM audit_leaves WHERE receipt_id = ${receiptId}`)) ?? null
    },
    async unsealedEntry(receiptId, fromDay) {
      return (await one<{ seq: number; day: string }>(sql`SELECT seq::float8 AS seq, day FROM audit_log WHERE day >= ${fromDay} AND receipt_id = ${receiptId} ORDER BY audit_log.seq LIMIT 1`)) ?? null
    },
    leafIndex: (day, seq) => count(sql`SELECT count(*)::int AS n FROM audit_log WHERE day = ${day} AND seq < ${seq}`),
    async digest(date) {
      return (await one<DigestRow>(sql`${sql.unsafe(DIGEST_SELECT)} WHERE d.date = ${date}`)) ?? null
    },
    async lastDigest() {
      return (await one<DigestRow>(sql`${sql.unsafe(DIGEST_SELECT)} ORDER BY d.date DESC LIMIT 1`)) ?? null
    },
    async latestDigests(limit) {
      return (await sql`${sql.unsafe(DIGEST_SELECT)} ORDER BY d.date DESC LIMIT ${limit}`) as DigestRow[]
    },
    async digestsToSignAgain() {
      return (await sql`${sql.unsafe(DIGEST_SELECT)} WHERE r.date IS NULL AND ${sql.unsafe(SIGNED_WITH_LOG_SIZE)} ORDER BY d.date`) as DigestRow[]
    },
    async addDigestReceipts(date, logReceiptJson, resignedJson) {
      await sql`INSERT INTO audit_digest_receipts (date, log_receipt_json, resigned_json) VALUES (${date}, ${logReceiptJson}, ${resignedJson}) ON CONFLICT (date) DO NOTHING`
    },
    async insertLeafBuckets(date, run, buckets) {
      if (!buckets.length) return
      // One statement: the rows' bytes as one value, cut into rows by the server.
      const starts: number[] = []
      let at = 0
      for (const bucket of buckets) {
        starts.push(at)
        at += bucket.entries.byteLength
      }
      const bytes = Buffer.concat(buckets.map((bucket) => bucket.entries))
      await sql`INSERT INTO audit_leaf_buckets (date, run, bucket, entries)
        SELECT ${date}, ${run}, r.bucket, substring(${bytes}::bytea FROM r.start + 1 FOR r.length)
        FROM unnest(${buckets.map((bucket) => bucket.bucket)}::int[], ${starts}::int[], ${buckets.map((bucket) => bucket.entries.byteLength)}::int[]) AS r(bucket, start, length)
        ON CONFLICT (date, run, bucket) DO NOTHING`
    },
    async insertLeafRun(date, run) {
      await sql`INSERT INTO audit_leaf_runs (date, run, bits, first_leaf, leaves) VALUES (${date}, ${run.run}, ${run.bits}, ${run.firstLeaf}, ${run.leaves}) ON CONFLICT (date, run) DO NOTHING`
    },
    async insertDigest(date, size, blockRows, build) {
      return sql.begin(async (tx) => {
        // The batches' lock: no row of the day can be committed while this transaction runs.
        await tx`SELECT 1 FROM audit_sequence WHERE id = 1 FOR UPDATE`
        const existing = await one<DigestRow>(tx`${sql.unsafe(DIGEST_SELECT)} WHERE d.date = ${date}`)
        if (existing) return existing
        // As on SQLite: the full blocks' rows cannot change, so the rows after them are counted
        // (the whole day took about a second at ten million, with every batch waiting on the lock).
        const rows = blockRows.length * BLOCK_SIZE + (await count(tx`SELECT count(*)::int AS n FROM audit_log WHERE day = ${date} AND seq > ${blockRows.at(-1)?.last_seq ?? 0}`))
        if (rows !== size) throw new Error(`audit: ${date} has ${rows} rows, the tree was built over ${size}; sealing again`)
        const row = build((await one<DigestRow>(tx`${sql.unsafe(DIGEST_SELECT)} ORDER BY d.date DESC LIMIT 1`)) ?? null)
        if (blockRows.length)
          await tx`INSERT INTO audit_blocks (date, block, root, last_seq)
            SELECT ${date}, r.ord - 1, r.root, r.last_seq FROM unnest(${blockRows.map((block) => block.root)}::text[], ${blockRows.map((block) => block.last_seq)}::bigint[]) WITH ORDINALITY AS r(root, last_seq, ord)
            ON CONFLICT (date, block) DO NOTHING`
        await tx`INSERT INTO audit_digests (${sql.unsafe(DIGEST_COLUMNS)}) VALUES (${row.date}, ${row.total_receipts_issued}, ${row.exchanges_attested}, ${row.merkle_root}, ${row.previous_day_merkle_root}, ${row.chain_length}, ${row.computed_at}, ${row.signed_json})`
        if (row.log_receipt_json !== null || row.resigned_json !== null) await tx`INSERT INTO audit_digest_receipts (date, log_receipt_json, resigned_json) VALUES (${date}, ${row.log_receipt_json}, ${row.resigned_json})`
        await tx`UPDATE audit_sequence SET sealed_through = ${date} WHERE id = 1 AND (sealed_through IS NULL OR sealed_through < ${date})`
        return row
      })
    },
    async closeDay(date) {
      // The batches' lock, taken by the update: a batch in flight commits first, every later one reads the day closed.
      await sql`UPDATE audit_sequence SET sealed_through = ${date} WHERE id = 1 AND (sealed_through IS NULL OR sealed_through < ${date})`
      // Fresh statistics before the day's rows are read page by page: a day the planner has none
      // for (a new database, a day just copied in) looks like a few rows, and each page was then
      // read as a bitmap scan of the whole rest of the day and a sort (sealing a day of 100,000
      // took seconds; one of a million, minutes). ANALYZE samples 30,000 rows: well under a second.
      await sql`ANALYZE audit_log`
    },
    async blocks(date) {
      return (await sql`SELECT root, last_seq::float8 AS last_seq FROM audit_blocks WHERE date = ${date} ORDER BY block`) as BlockRow[]
    },
    async state(name) {
      return (await one<{ value: string }>(sql`SELECT value FROM audit_state WHERE name = ${name}`))?.value ?? null
    },
    async setStateIfMissing(name, value) {
      await sql`INSERT INTO audit_state (name, value) VALUES (${name}, ${value}) ON CONFLICT (name) DO NOTHING`
    },
    async setState(name, value) {
      await sql`INSERT INTO audit_state (name, value) VALUES (${name}, ${value}) ON CONFLICT (name) DO UPDATE SET value = excluded.value`
    },
    async sealedDatesBetween(afterDate, beforeDate) {
      return ((await sql`SELECT date FROM audit_digests WHERE date > ${afterDate} AND date < ${beforeDate} ORDER BY date`) as { date: string }[]).map((row) => row.date)
    },
    async pruneChunk(day, afterSeq, limit) {
      return sql.begin(async (tx) => {
        const last = await lastSeqOfChunk(tx, day, afterSeq, limit)
        if (last === null) return { lastSeq: null, pruned: 0 }
        const pruned = await tx`UPDATE audit_log SET receipt_json = NULL WHERE day = ${day} AND seq > ${afterSeq} AND seq <= ${last} AND receipt_json IS NOT NULL`
        return { lastSeq: last, pruned: pruned.count }
      })
    },
  }
}
