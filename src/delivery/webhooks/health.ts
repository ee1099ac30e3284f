// The dispatcher's record for GET /v5/webhooks/health: written at every cycle, read without
// waking the dispatcher (any node answers from the record of the node that ran the cycle).
import type { Database } from 'bun:sqlite'
import { positional } from '../../store/sql-text'

export interface DispatcherRecord {
  status: 'ok' | 'unknown'
  next_alarm: string
  checked_at: string
}

export interface DispatcherRecords {
  write(record: DispatcherRecord): Promise<void>
  read(): Promise<DispatcherRecord | null>
}

export const WRITE_RECORD_SQL = `INSERT INTO webhook_dispatcher (id, status, next_alarm, checked_at) VALUES (1, $1, $2, $3)
ON CONFLICT (id) DO UPDATE SET status = excluded.status, next_alarm = excluded.next_alarm, checked_at = excluded.checked_at`
export const READ_RECORD_SQL = 'SELECT status, next_alarm, checked_at FROM webhook_dispatcher WHERE id = 1'

export function sqliteDispatcherRecords(db: Database): DispatcherRecords {
  const write = db.query(positional(WRITE_RECORD_SQL))
  const read = db.query(READ_RECORD_SQL)
  return {
    async write(record) {
      write.run(record.status, record.next_alarm, record.checked_at)
    },
    async read() {
      return (read.get() as DispatcherRecord | null) ?? null
    },
  }
}
