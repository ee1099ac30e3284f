// Overrides on PostgreSQL (src/market/overrides/store.ts says what they are). Every set or clear
// notifies OVERRIDES_CHANNEL in its transaction (delivered at commit), so every node drops its
// cached overrides and wakes its listeners within milliseconds instead of the cache's second.
import type { SQL } from 'bun'
import { postgresStep } from '../../store/postgres-transaction'
import { OVERRIDES_CHANNEL, type OverrideRow, type OverrideStore } from './store'

export function postgresOverrideStore(sql: SQL): OverrideStore {
  const all = async (handle: SQL) => (await handle`SELECT mic, status, reason, expires_at, created_at, created_by FROM overrides ORDER BY mic`) as OverrideRow[]
  return {
    async put(row) {
      await sql.begin(async (tx) => {
        await tx`INSERT INTO overrides (mic, status, reason, expires_at, created_at, created_by) VALUES (${row.mic}, ${row.status}, ${row.reason}, ${row.expires_at}, ${row.created_at}, ${row.created_by})
          ON CONFLICT (mic) DO UPDATE SET status = excluded.status, reason = excluded.reason, expires_at = excluded.expires_at, created_at = excluded.created_at, created_by = excluded.created_by`
        await tx`INSERT INTO override_events (at, action, mic, status, reason, expires_at, actor) VALUES (${row.created_at}, 'set', ${row.mic}, ${row.status}, ${row.reason}, ${row.expires_at}, ${row.created_by})`
        await tx`SELECT pg_notify(${OVERRIDES_CHANNEL}, ${row.mic})`
      })
    },
    async remove(mic, at, actor) {
      return sql.begin(async (tx) => {
        const removed = await tx`DELETE FROM overrides WHERE mic = ${mic} RETURNING mic`
        if (!removed.length) return false
        await tx`INSERT INTO override_events (at, action, mic, status, reason, expires_at, actor) VALUES (${at}, 'clear', ${mic}, NULL, NULL, NULL, ${actor})`
        await tx`SELECT pg_notify(${OVERRIDES_CHANNEL}, ${mic})`
        return true
      })
    },
    all: () => all(sql),
    current: () => postgresStep((tx) => all(tx)),
    async watch(changed) {
      const listening = await sql.listen(OVERRIDES_CHANNEL, (mic: string) => changed(mic))
      return async () => {
        await listening.unlisten()
      }
    },
  }
}
