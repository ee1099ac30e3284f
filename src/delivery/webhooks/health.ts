// The dispatcher's record for GET /v5/webhooks/health: written at every cycle, read without
// waking the dispatcher.
import type { Database } from 'bun:sqlite'

export interface DispatcherRecord {
  status: 'ok' | 'unknown'
  next_alarm: string
  checked_at: string
}

export function dispatcherRecords(db: Database) {
  const write = db.query(`INSERT INTO webhook_dispatcher (id, status, next_alarm, checked_at) VALUES (1, ?, ?, ?)
    ON CONFLICT (id) DO UPDATE SET status = excluded.status, next_alarm = excluded.next_alarm, checked_at = excluded.checked_at`)
  const read = db.query('SELECT status, next_alarm, checked_at FROM webhook_dispatcher WHERE id = 1')
  return {
    write(record: DispatcherRecord): void {
      write.run(record.status, record.next_alarm, record.checked_at)
    },
    read(): DispatcherRecord | null {
      return (read.get() as DispatcherRecord | null) ?? null
    },
  }
}

export type DispatcherRecords = ReturnType<typeof dispatcherRecords>
