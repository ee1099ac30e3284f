// Witnessed checkpoints on PostgreSQL (src/witness/store.ts says what the store does).
import type { SQL } from 'bun'
import { postgresStep } from '../store/postgres-transaction'
import { COUNT_NEW_ROW_SQL, PAGE_AFTER_SQL, PAGE_FROM_SQL, sameAndFork, type HashRow, type PageRow, type WitnessStore } from './store'

/** The SQLite page queries with numbered parameters; count is BIGINT (a string from the client). */
const numbered = (text: string) => {
  let n = 0
  return text.replace(/\?/g, () => `$${++n}`).replace('SELECT count,', 'SELECT count::float8 AS count,')
}
const PAGE_FROM = numbered(PAGE_FROM_SQL)
const PAGE_AFTER = numbered(PAGE_AFTER_SQL)

export function postgresWitnessStore(sql: SQL): WitnessStore {
  return {
    atCount: (identity) =>
      postgresStep(async (tx) => sameAndFork((await tx`SELECT last_entry_hash, receipt_json FROM witness_checkpoints WHERE kid = ${identity.kid} AND session_id = ${identity.session_id} AND count = ${identity.count}`) as HashRow[], identity)),
    rowsOn: (day, poolKey) =>
      postgresStep(async (tx) => {
        const [row] = await tx`SELECT rows FROM witness_daily_usage WHERE utc_day = ${day} AND pool_key = ${poolKey}`
        return (row as { rows: number } | undefined)?.rows ?? 0
      }),
    // Identities are never reused after a rollback, so max(id) may exceed the row count: the
    // ceiling (WITNESS_MAX_ROWS) then refuses a little early, never late.
    totalRows: () => postgresStep(async (tx) => Number(((await tx`SELECT coalesce(max(id), 0) AS n FROM witness_checkpoints`) as { n: number }[])[0]!.n)),
    databaseBytes: () => postgresStep(async (tx) => Number(((await tx`SELECT pg_database_size(current_database()) AS n`) as { n: string }[])[0]!.n)),
    insert: (row) =>
      postgresStep(async (tx) => {
        const inserted = await tx`INSERT INTO witness_checkpoints (kid, session_id, count, last_entry_hash, received_at, utc_day, pool, account_id, fork, receipt_json)
          VALUES (${row.kid}, ${row.session_id}, ${row.count}, ${row.last_entry_hash}, ${row.received_at}, ${row.utc_day}, ${row.pool}, ${row.account_id}, ${row.fork}, ${row.receipt_json})
          ON CONFLICT (kid, session_id, count, last_entry_hash) DO NOTHING RETURNING id`
        return inserted.length > 0
      }),
    countNewRow: (day, poolKey, limit) => postgresStep(async (tx) => ((await tx.unsafe(COUNT_NEW_ROW_SQL.postgres, [day, poolKey, limit])) as unknown[]).length > 0),
    async page(kid, sessionId, after, limit) {
      const rows = (after ? await sql.unsafe(PAGE_AFTER, [kid, sessionId, after.count, after.hash, limit]) : await sql.unsafe(PAGE_FROM, [kid, sessionId, limit])) as PageRow[]
      return rows.map((row) => ({ count: row.count, last_entry_hash: row.last_entry_hash, receipt_json: row.receipt_json }))
    },
  }
}
