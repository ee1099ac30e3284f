// Job leases on PostgreSQL (src/store/lease-store.ts says what they are): the same statement.
import type { SQL } from 'bun'
import { ACQUIRE_SQL, TAKE_OVER_SQL, type LeaseRow, type LeaseStore } from './lease-store'

export function postgresLeaseStore(sql: SQL): LeaseStore {
  return {
    async acquire(name, holder, now, until) {
      return (await sql.unsafe(ACQUIRE_SQL, [name, holder, now, until])).length > 0
    },
    async release(name, holder) {
      await sql`DELETE FROM job_leases WHERE name = ${name} AND holder = ${holder}`
    },
    async takeOver(name, from, holder, now, until) {
      return (await sql.unsafe(TAKE_OVER_SQL, [name, from, holder, now, until])).length > 0
    },
    async all() {
      const rows = (await sql`SELECT name, holder, acquired_at::float8 AS acquired_at, expires_at::float8 AS expires_at FROM job_leases ORDER BY name`) as LeaseRow[]
      return rows.map((row) => ({ ...row }))
    },
  }
}
