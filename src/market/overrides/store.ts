// SQL for operator overrides: the override in force per MIC and an append-only log of changes.
import type { Database } from 'bun:sqlite'
import type { Step } from '../../store/transaction'
import { sqliteStep } from '../../store/sqlite-transaction'

export type OverrideStatus = 'OPEN' | 'CLOSED' | 'HALTED' | 'UNKNOWN'

export interface OverrideRow {
  mic: string
  status: OverrideStatus
  reason: string
  expires_at: string
  created_at: string
  created_by: string
}

export interface OverrideStore {
  put(row: OverrideRow): Promise<void>
  remove(mic: string, at: string, actor: string): Promise<boolean>
  all(): Promise<OverrideRow[]>
  /** The stored overrides, read inside a unit of work (a detector comparing against them in the transaction that records a change). */
  current(): Step<OverrideRow[]>
  /**
   * Calls `changed(mic)` when any node sets or clears an override (PostgreSQL: LISTEN/NOTIFY,
   * within milliseconds); resolves to the unsubscribe. Absent where changes cannot be pushed
   * (SQLite: other processes' changes are seen by the one-second cache).
   */
  watch?(changed: (mic: string) => void): Promise<() => Promise<void>>
}

/** The notification channel of override changes (payload: the MIC). */
export const OVERRIDES_CHANNEL = 'openbell_overrides'

export function sqliteOverrideStore(db: Database): OverrideStore {
  const upsert = db.query(
    `INSERT INTO overrides (mic, status, reason, expires_at, created_at, created_by) VALUES ($mic, $status, $reason, $expires_at, $created_at, $created_by)
     ON CONFLICT (mic) DO UPDATE SET status = excluded.status, reason = excluded.reason, expires_at = excluded.expires_at, created_at = excluded.created_at, created_by = excluded.created_by`,
  )
  const event = db.query('INSERT INTO override_events (at, action, mic, status, reason, expires_at, actor) VALUES (?, ?, ?, ?, ?, ?, ?)')
  const remove = db.query('DELETE FROM overrides WHERE mic = ?')
  const all = db.query('SELECT * FROM overrides ORDER BY mic')
  const put = db.transaction((row: OverrideRow) => {
    upsert.run({ ...row })
    event.run(row.created_at, 'set', row.mic, row.status, row.reason, row.expires_at, row.created_by)
  })
  const clear = db.transaction((mic: string, at: string, actor: string) => {
    const changed = remove.run(mic).changes > 0
    if (changed) event.run(at, 'clear', mic, null, null, null, actor)
    return changed
  })
  return {
    async put(row) {
      put.immediate(row)
    },
    async remove(mic, at, actor) {
      return clear.immediate(mic, at, actor) as boolean
    },
    async all() {
      return all.all() as OverrideRow[]
    },
    current: () => sqliteStep(() => all.all() as OverrideRow[]),
  }
}
