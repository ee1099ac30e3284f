// The shared halt view on PostgreSQL (src/market/halts/store.ts): published with a notification
// in the same transaction, so the other nodes adopt it within milliseconds.
import type { SQL } from 'bun'
import { HALTS_CHANNEL, PUBLISH_SQL, type HaltStore, type PublishedHalts } from './store'

export function postgresHaltStore(sql: SQL): HaltStore {
  return {
    async publish(row) {
      await sql.begin(async (tx) => {
        await tx.unsafe(PUBLISH_SQL, [row.snapshot, row.published_at, row.publisher])
        await tx`SELECT pg_notify(${HALTS_CHANNEL}, '')`
      })
    },
    async read() {
      const [row] = await sql`SELECT snapshot, published_at::float8 AS published_at, publisher FROM halt_state WHERE id = 1`
      return (row as PublishedHalts | undefined) ?? null
    },
    async watch(changed) {
      const listening = await sql.listen(HALTS_CHANNEL, () => changed())
      return async () => {
        await listening.unlisten()
      }
    },
  }
}
