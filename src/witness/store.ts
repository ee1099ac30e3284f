// SQL for witnessed checkpoints: append-only rows, one per identity (kid, session_id, count,
// last_entry_hash), each holding the exact signed receipt JSON that was answered.
import type { Database } from 'bun:sqlite'
import type { Step } from '../store/transaction'
import { sqliteStep } from '../store/sqlite-transaction'

export const PAGE_FROM_SQL = 'SELECT count, last_entry_hash, receipt_json FROM witness_checkpoints WHERE kid = ? AND session_id = ? ORDER BY count, last_entry_hash LIMIT ?'
export const PAGE_AFTER_SQL =
  'SELECT count, last_entry_hash, receipt_json FROM witness_checkpoints WHERE kid = ? AND session_id = ? AND (count, last_entry_hash) > (?, ?) ORDER BY count, last_entry_hash LIMIT ?'

/**
 * One new row counted in a pool's day, only below the limit (`$3`): the first row of a day is
 * inserted only when the limit is above 0, a later one only while `rows < limit`. RETURNING
 * gives a row exactly when it counted.
 */
export const COUNT_NEW_ROW_SQL = {
  sqlite: `INSERT INTO witness_daily_usage (utc_day, pool_key, rows) SELECT ?1, ?2, 1 WHERE ?3 > 0
     ON CONFLICT (utc_day, pool_key) DO UPDATE SET rows = rows + 1 WHERE witness_daily_usage.rows < ?3 RETURNING rows`,
  postgres: `INSERT INTO witness_daily_usage (utc_day, pool_key, rows) SELECT $1, $2, 1 WHERE $3::int > 0
     ON CONFLICT (utc_day, pool_key) DO UPDATE SET rows = witness_daily_usage.rows + 1 WHERE witness_daily_usage.rows < $3::int RETURNING rows`,
}

export interface Identity {
  kid: string
  session_id: string
  count: number
  last_entry_hash: string
}

export interface NewWitnessRow extends Identity {
  received_at: string
  utc_day: string
  pool: 'anonymous' | 'account'
  account_id: number | null
  fork: 0 | 1
  receipt_json: string
}

export interface PageRow {
  count: number
  last_entry_hash: string
  receipt_json: string
}

/** Which usage counter a row counts in: the anonymous pool, or one account's. */
export const poolKeyOf = (row: { pool: 'anonymous' | 'account'; account_id: number | null }) => (row.pool === 'anonymous' ? 'anonymous' : `account:${row.account_id}`)

/**
 * Witnessed checkpoints. The steps join one unit of work (deps.transactor.run): the submission
 * reads what is stored, applies the limits and inserts, all in one transaction (service.ts).
 */
export interface WitnessStore {
  /** Rows stored at (kid, session_id, count): the stored receipt of this identity, and whether another hash is there (a fork). */
  atCount(identity: Identity): Step<{ receiptJson: string | null; fork: boolean }>
  /** New rows of a pool ('anonymous' or 'account:<id>') on a UTC day. */
  rowsOn(day: string, poolKey: string): Step<number>
  totalRows(): Step<number>
  databaseBytes(): Step<number>
  /** Inserts the row; false (nothing written) when its identity is stored already. Counts nothing. */
  insert(row: NewWitnessRow): Step<boolean>
  /**
   * Counts one new row in its pool's day when fewer than `limit` are counted: one conditional
   * statement (the decision is made under the counter row's lock, so it is exact across nodes
   * at READ COMMITTED); false, and nothing changed, at the limit.
   */
  countNewRow(day: string, poolKey: string, limit: number): Step<boolean>
  page(kid: string, sessionId: string, after: { count: number; hash: string } | null, limit: number): Promise<PageRow[]>
}

export function sqliteWitnessStore(db: Database): WitnessStore {
  // One index range: every hash stored at this count (normally none or one).
  const atCount = db.query('SELECT last_entry_hash, receipt_json FROM witness_checkpoints WHERE kid = ? AND session_id = ? AND count = ?')
  const usage = db.query('SELECT rows AS n FROM witness_daily_usage WHERE utc_day = ? AND pool_key = ?')
  const countUsage = db.query(COUNT_NEW_ROW_SQL.sqlite)
  // Rows are never deleted, so the largest id is the row count (no table scan).
  const total = db.query('SELECT coalesce(max(id), 0) AS n FROM witness_checkpoints')
  const bytes = db.query('SELECT page_count * page_size AS n FROM pragma_page_count(), pragma_page_size()')
  const insert = db.query(
    `INSERT INTO witness_checkpoints (kid, session_id, count, last_entry_hash, received_at, utc_day, pool, account_id, fork, receipt_json)
     VALUES ($kid, $session_id, $count, $last_entry_hash, $received_at, $utc_day, $pool, $account_id, $fork, $receipt_json)
     ON CONFLICT (kid, session_id, count, last_entry_hash) DO NOTHING RETURNING id`,
  )
  const pageFrom = db.query(PAGE_FROM_SQL)
  const pageAfter = db.query(PAGE_AFTER_SQL)
  const n = (row: unknown) => (row as { n: number } | null)?.n ?? 0
  return {
    atCount: (identity) => sqliteStep(() => sameAndFork(atCount.all(identity.kid, identity.session_id, identity.count) as HashRow[], identity)),
    rowsOn: (day, poolKey) => sqliteStep(() => n(usage.get(day, poolKey))),
    totalRows: () => sqliteStep(() => n(total.get())),
    databaseBytes: () => sqliteStep(() => n(bytes.get())),
    insert: (row) => sqliteStep(() => insert.get({ ...row }) !== null),
    countNewRow: (day, poolKey, limit) => sqliteStep(() => countUsage.get(day, poolKey, limit) !== null),
    async page(kid, sessionId, after, limit) {
      return (after ? pageAfter.all(kid, sessionId, after.count, after.hash, limit) : pageFrom.all(kid, sessionId, limit)) as PageRow[]
    },
  }
}

export interface HashRow {
  last_entry_hash: string
  receipt_json: string
}

/** The stored receipt of exactly this identity, and whether another hash is stored at its count. */
export function sameAndFork(rows: readonly HashRow[], identity: Identity) {
  const same = rows.find((row) => row.last_entry_hash === identity.last_entry_hash)
  return { receiptJson: same?.receipt_json ?? null, fork: rows.some((row) => row.last_entry_hash !== identity.last_entry_hash) }
}
