// The recorded signing key on PostgreSQL (src/store/key-record.ts says why).
import type { SQL } from 'bun'
import { COLUMNS, type KeyRecordStore, type RecordedKey } from './key-record'

export function postgresKeyRecordStore(sql: SQL): KeyRecordStore {
  return {
    async recordIfMissing(key) {
      await sql`INSERT INTO signing_key (id, ${sql.unsafe(COLUMNS)}) VALUES (1, ${key.key_id}, ${key.public_key}, ${key.valid_from}, ${key.valid_until}, ${key.recorded_at}, ${key.recorded_by}) ON CONFLICT (id) DO NOTHING`
      const [row] = await sql`SELECT ${sql.unsafe(COLUMNS)} FROM signing_key WHERE id = 1`
      return row as RecordedKey
    },
    async replace(key) {
      await sql`INSERT INTO signing_key (id, ${sql.unsafe(COLUMNS)}) VALUES (1, ${key.key_id}, ${key.public_key}, ${key.valid_from}, ${key.valid_until}, ${key.recorded_at}, ${key.recorded_by})
        ON CONFLICT (id) DO UPDATE SET key_id = excluded.key_id, public_key = excluded.public_key, valid_from = excluded.valid_from, valid_until = excluded.valid_until,
          recorded_at = excluded.recorded_at, recorded_by = excluded.recorded_by`
    },
  }
}
