// SQL for the C2SP witness (migration 61): the logs an operator added with the admin API, and
// per log origin the latest checkpoint this witness cosigned. Advancing it is a compare-and-swap
// on the old size inside the caller's transaction, so two racing requests cannot both advance.
import type { Database } from 'bun:sqlite'
import type { Step } from '../../store/transaction'
import { sqliteStep } from '../../store/sqlite-transaction'

export interface AddedLog {
  origin: string
  vkey: string
  added_at: string
}

export interface LogHead {
  size: number
  /** Root hash, lowercase hex. */
  root: string
  /** The checkpoint as cosigned: its text, the log's verified signature lines and this witness's cosignature. */
  checkpoint: string
  cosigned_at: number
}

export interface TlogWitnessStore {
  /** Adds a log (origin and vkey); false when that pair is there already. */
  addLog(log: AddedLog): Promise<boolean>
  addedLogs(): Promise<AddedLog[]>
  head(origin: string): Step<LogHead | null>
  /**
   * Moves the origin's head from `oldSize` (0: no head yet) to `next`; false (nothing written)
   * when the stored size is no longer `oldSize`.
   */
  advance(origin: string, oldSize: number, next: LogHead): Step<boolean>
  latest(origin: string): Promise<LogHead | null>
}

export function sqliteTlogWitnessStore(db: Database): TlogWitnessStore {
  const add = db.query('INSERT INTO witness_logs (origin, vkey, added_at) VALUES (?, ?, ?) ON CONFLICT (origin, vkey) DO NOTHING')
  const list = db.query('SELECT origin, vkey, added_at FROM witness_logs ORDER BY origin, added_at')
  const head = db.query('SELECT size, root, checkpoint, cosigned_at FROM witness_log_heads WHERE origin = ?')
  const first = db.query('INSERT INTO witness_log_heads (origin, size, root, checkpoint, cosigned_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (origin) DO NOTHING')
  const move = db.query('UPDATE witness_log_heads SET size = ?, root = ?, checkpoint = ?, cosigned_at = ? WHERE origin = ? AND size = ?')
  return {
    async addLog(log) {
      return add.run(log.origin, log.vkey, log.added_at).changes === 1
    },
    async addedLogs() {
      return list.all() as AddedLog[]
    },
    head: (origin) => sqliteStep(() => head.get(origin) as LogHead | null),
    advance: (origin, oldSize, next) =>
      sqliteStep(() =>
        oldSize === 0
          ? first.run(origin, next.size, next.root, next.checkpoint, next.cosigned_at).changes === 1 || move.run(next.size, next.root, next.checkpoint, next.cosigned_at, origin, 0).changes === 1
          : move.run(next.size, next.root, next.checkpoint, next.cosigned_at, origin, oldSize).changes === 1,
      ),
    async latest(origin) {
      return head.get(origin) as LogHead | null
    },
  }
}
