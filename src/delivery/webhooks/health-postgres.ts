// The dispatcher's record on PostgreSQL (health.ts says what it is).
import type { SQL } from 'bun'
import { READ_RECORD_SQL, WRITE_RECORD_SQL, type DispatcherRecord, type DispatcherRecords } from './health'

export function postgresDispatcherRecords(sql: SQL): DispatcherRecords {
  return {
    async write(record) {
      await sql.unsafe(WRITE_RECORD_SQL, [record.status, record.next_alarm, record.checked_at])
    },
    async read() {
      return ((await sql.unsafe(READ_RECORD_SQL)) as DispatcherRecord[])[0] ?? null
    },
  }
}
