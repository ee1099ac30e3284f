// The C2SP witness's store on PostgreSQL (src/witness/tlog/store.ts says what each method does;
// the DDL is in src/witness/schema.ts).
import type { SQL } from 'bun'
import { postgresStep } from '../../store/postgres-transaction'
import type { AddedLog, LogHead, TlogWitnessStore } from './store'

const HEAD = 'SELECT size::float8 AS size, root, checkpoint, cosigned_at::float8 AS cosigned_at FROM witness_log_heads WHERE origin = $1'

export function postgresTlogWitnessStore(sql: SQL): TlogWitnessStore {
  return {
    async addLog(log) {
      return (await sql`INSERT INTO witness_logs (origin, vkey, added_at) VALUES (${log.origin}, ${log.vkey}, ${log.added_at}) ON CONFLICT (origin, vkey) DO NOTHING`).count === 1
    },
    async addedLogs() {
      return (await sql`SELECT origin, vkey, added_at FROM witness_logs ORDER BY origin, added_at`) as AddedLog[]
    },
    head: (origin) => postgresStep(async (tx) => ((await tx.unsafe(HEAD, [origin])) as LogHead[])[0] ?? null),
    advance: (origin, oldSize, next) =>
      postgresStep(async (tx) => {
        if (oldSize === 0) {
          const inserted = await tx`INSERT INTO witness_log_heads (origin, size, root, checkpoint, cosigned_at) VALUES (${origin}, ${next.size}, ${next.root}, ${next.checkpoint}, ${next.cosigned_at}) ON CONFLICT (origin) DO NOTHING`
          if (inserted.count === 1) return true
        }
        const moved = await tx`UPDATE witness_log_heads SET size = ${next.size}, root = ${next.root}, checkpoint = ${next.checkpoint}, cosigned_at = ${next.cosigned_at} WHERE origin = ${origin} AND size = ${oldSize}`
        return moved.count === 1
      }),
    async latest(origin) {
      return ((await sql.unsafe(HEAD, [origin])) as LogHead[])[0] ?? null
    },
  }
}
