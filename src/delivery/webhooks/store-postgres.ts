// Webhook subscriptions on PostgreSQL (store.ts says what the store does). `create` counts and
// inserts inside the caller's SERIALIZABLE unit of work: two subscriptions of one key created at
// once on two nodes cannot both pass the count (one runs again and sees the other).
import type { SQL } from 'bun'
import { postgresStep } from '../../store/postgres-transaction'
import { fromStored, limitReached, WEBHOOK_SQL, webhookValues, type StoredWebhook, type WebhookStore } from './store'

export function postgresWebhookStore(sql: SQL): WebhookStore {
  return {
    *create(row, limit) {
      const count = yield* postgresStep(async (tx) => ((await tx`SELECT count(*)::int AS n FROM webhooks WHERE key_hash = ${row.key_hash}`) as { n: number }[])[0]!.n)
      if (count >= limit) throw limitReached(limit)
      yield* postgresStep(async (tx) => {
        await tx.unsafe(WEBHOOK_SQL.insert, webhookValues(row))
        await tx`INSERT INTO webhook_mics (mic, webhook_id) SELECT unnest(${sql.array(row.mics, 'text')}::text[]), ${row.id}`
      })
    },
    async listByKey(keyHash) {
      return ((await sql.unsafe(WEBHOOK_SQL.byKey, [keyHash])) as StoredWebhook[]).map(fromStored)
    },
    async get(id) {
      const [row] = (await sql.unsafe(WEBHOOK_SQL.byId, [id])) as StoredWebhook[]
      return row ? fromStored(row) : null
    },
    async delete(id) {
      return (await sql`DELETE FROM webhooks WHERE id = ${id} RETURNING id`).length > 0
    },
    async setStatus(id, status, reason) {
      await sql.unsafe(WEBHOOK_SQL.setStatus, [id, status, reason])
    },
    activeForMic: (mic) => postgresStep(async (tx) => ((await tx.unsafe(WEBHOOK_SQL.activeForMic, [mic])) as StoredWebhook[]).map(fromStored)),
    async subscribedMics() {
      return ((await sql.unsafe(WEBHOOK_SQL.subscribedMics)) as { mic: string }[]).map((row) => row.mic)
    },
  }
}
