// The shared halt view on PostgreSQL (src/market/halts/store.ts): published with a notification
// in the same transaction, so the other nodes adopt it within milliseconds.
import type { SQL } from 'bun'
import { postgresStep } from '../../store/postgres-transaction'
import { HALTS_CHANNEL, PUBLISH_SQL, type HaltStore, type PublishedHalts } from './store'

const readRow = async (handle: SQL) => {
  const [row] = await handle`SELECT snapshot, published_at::float8 AS published_at, publisher FROM halt_state WHERE id = 1`
  return (row as PublishedHalts | undefined) ?? null
}

export function postgresHaltStore(sql: SQL): HaltStore {
  return {
    async publish(row) {
      await sql.begin(async (tx) => {
        await tx.unsafe(PUBLISH_SQL, [row.snapshot, row.published_at, row.publisher])
        await tx`SELECT pg_notify(${HALTS_CHANNEL}, '')`
      })
    },
    read: () => readRow(sql),
    current: () => postgresStep(readRow),
    async watch(changed) {
      const listening = await sql.listen(HALTS_CHANNEL, () => changed())
      return async () => {
        await listening.unlisten()
      }
    },
  }
}
