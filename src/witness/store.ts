// SQL for witnessed checkpoints: append-only rows, one per identity (kid, session_id, count,
// last_entry_hash), each holding the exact signed receipt JSON that was answered.
import type { Database } from 'bun:sqlite'

export const WITNESS_SCHEMA_V1 = `
CREATE TABLE witness_checkpoints (
  id INTEGER PRIMARY KEY,
  kid TEXT NOT NULL,
  session_id TEXT NOT NULL,
  count INTEGER NOT NULL CHECK (count >= 1),
  last_entry_hash TEXT NOT NULL,
  received_at TEXT NOT NULL,
  utc_day TEXT NOT NULL,
  pool TEXT NOT NULL CHECK (pool IN ('anonymous', 'account')),
  account_id INTEGER,
  fork INTEGER NOT NULL CHECK (fork IN (0, 1)),
  receipt_json TEXT NOT NULL
);
CREATE UNIQUE INDEX witness_identity ON witness_checkpoints (kid, session_id, count, last_entry_hash);
-- New rows per pool per UTC day, kept in the same transaction as each insert, so that the cap and
-- quota checks are one lookup instead of a count over the day's rows.
CREATE TABLE witness_daily_usage (
  utc_day TEXT NOT NULL,
  pool_key TEXT NOT NULL,
  rows INTEGER NOT NULL,
  PRIMARY KEY (utc_day, pool_key)
) WITHOUT ROWID;
CREATE TRIGGER witness_checkpoints_no_update BEFORE UPDATE ON witness_checkpoints BEGIN SELECT RAISE(ABORT, 'witness_checkpoints is append-only'); END;
CREATE TRIGGER witness_checkpoints_no_delete BEFORE DELETE ON witness_checkpoints BEGIN SELECT RAISE(ABORT, 'witness_checkpoints is append-only'); END;
`

export const PAGE_FROM_SQL = 'SELECT count, last_entry_hash, receipt_json FROM witness_checkpoints WHERE kid = ? AND session_id = ? ORDER BY count, last_entry_hash LIMIT ?'
export const PAGE_AFTER_SQL =
  'SELECT count, last_entry_hash, receipt_json FROM witness_checkpoints WHERE kid = ? AND session_id = ? AND (count, last_entry_hash) > (?, ?) ORDER BY count, last_entry_hash LIMIT ?'

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

/** What one submission transaction may do, run atomically (BEGIN IMMEDIATE … COMMIT). */
export interface WitnessTransaction {
  /** Rows stored at (kid, session_id, count): the stored receipt of this identity, and whether another hash is there (a fork). */
  atCount(identity: Identity): { receiptJson: string | null; fork: boolean }
  anonymousRowsOn(day: string): number
  accountRowsOn(accountId: number, day: string): number
  totalRows(): number
  databaseBytes(): number
  insert(row: NewWitnessRow): void
}

export interface WitnessStore {
  /** Runs `work` in one IMMEDIATE transaction; throws the store's error when it cannot. */
  submit<T>(work: (tx: WitnessTransaction) => T): Promise<T>
  page(kid: string, sessionId: string, after: { count: number; hash: string } | null, limit: number): Promise<PageRow[]>
}

export function sqliteWitnessStore(db: Database): WitnessStore {
  // One index range: every hash stored at this count (normally none or one).
  const atCount = db.query('SELECT last_entry_hash, receipt_json FROM witness_checkpoints WHERE kid = ? AND session_id = ? AND count = ?')
  const usage = db.query('SELECT rows AS n FROM witness_daily_usage WHERE utc_day = ? AND pool_key = ?')
  const countUsage = db.query('INSERT INTO witness_daily_usage (utc_day, pool_key, rows) VALUES (?, ?, 1) ON CONFLICT (utc_day, pool_key) DO UPDATE SET rows = rows + 1')
  // Rows are never deleted, so the largest id is the row count (no table scan).
  const total = db.query('SELECT coalesce(max(id), 0) AS n FROM witness_checkpoints')
  const bytes = db.query('SELECT page_count * page_size AS n FROM pragma_page_count(), pragma_page_size()')
  const insert = db.query(
    `INSERT INTO witness_checkpoints (kid, session_id, count, last_entry_hash, received_at, utc_day, pool, account_id, fork, receipt_json)
     VALUES ($kid, $session_id, $count, $last_entry_hash, $received_at, $utc_day, $pool, $account_id, $fork, $receipt_json)`,
  )
  const pageFrom = db.query(PAGE_FROM_SQL)
  const pageAfter = db.query(PAGE_AFTER_SQL)
  const n = (row: unknown) => (row as { n: number }).n
  const tx: WitnessTransaction = {
    atCount: (i) => {
      const rows = atCount.all(i.kid, i.session_id, i.count) as { last_entry_hash: string; receipt_json: string }[]
      const same = rows.find((row) => row.last_entry_hash === i.last_entry_hash)
      return { receiptJson: same?.receipt_json ?? null, fork: rows.some((row) => row.last_entry_hash !== i.last_entry_hash) }
    },
    anonymousRowsOn: (day) => (usage.get(day, 'anonymous') as { n: number } | null)?.n ?? 0,
    accountRowsOn: (id, day) => (usage.get(day, `account:${id}`) as { n: number } | null)?.n ?? 0,
    totalRows: () => n(total.get()),
    databaseBytes: () => n(bytes.get()),
    insert: (row) => {
      insert.run({ ...row })
      countUsage.run(row.utc_day, row.pool === 'anonymous' ? 'anonymous' : `account:${row.account_id}`)
    },
  }
  const transaction = db.transaction((work: (tx: WitnessTransaction) => unknown) => work(tx))
  return {
    async submit(work) {
      return transaction.immediate(work) as ReturnType<typeof work>
    },
    async page(kid, sessionId, after, limit) {
      return (after ? pageAfter.all(kid, sessionId, after.count, after.hash, limit) : pageFrom.all(kid, sessionId, limit)) as PageRow[]
    },
  }
}
