// The delivery queue on PostgreSQL (queue.ts says what it holds). Several nodes may claim at once:
// the claim locks the rows it picks with FOR UPDATE SKIP LOCKED, so a due row goes to one claimer
// (another claimer skips it, or re-reads it as `sending` once the first committed); each attempt's
// outcome is written only while the row is still its claimer's.
import type { SQL } from 'bun'
import { postgresStep } from '../../store/postgres-transaction'
import { CLAIM_MS, deadClaimers, deadLetterReason, pruneBefore, QUEUE_SQL, type DeliveryQueue, type DeliveryRow, type NewDelivery, type StateRow } from './queue'

/** Epoch-ms columns are BIGINT (strings from the client): cast for numbers. */
const COLUMNS = 'id, webhook_id, mic, body, state, attempts, next_attempt_at::float8 AS next_attempt_at, last_status, last_error, created_at, updated_at, claimed_by'
const text = (sql: string) => sql.replace('{lock}', ' FOR UPDATE OF d SKIP LOCKED').replaceAll('{columns}', COLUMNS)

export function postgresDeliveryQueue(sql: SQL): DeliveryQueue {
  const insertDeliveries = async (tx: SQL, mic: string, deliveries: readonly NewDelivery[], nowMs: number) => {
    if (!deliveries.length) return
    const at = new Date(nowMs).toISOString()
    await tx`INSERT INTO webhook_deliveries (id, webhook_id, mic, body, state, attempts, next_attempt_at, created_at, updated_at)
      SELECT id, webhook_id, ${mic}, body, 'queued', 0, ${nowMs}, ${at}, ${at}
      FROM unnest(${sql.array(deliveries.map((delivery) => delivery.id), 'text')}::text[], ${sql.array(deliveries.map((delivery) => delivery.webhook.id), 'text')}::text[], ${sql.array(deliveries.map((delivery) => delivery.body), 'text')}::text[]) AS queued (id, webhook_id, body)`
  }
  return {
    state: (mic) => postgresStep(async (tx) => ((await tx.unsafe(QUEUE_SQL.state, [mic])) as StateRow[])[0] ?? null),
    baseline: (row) => postgresStep(async (tx) => (await tx.unsafe(QUEUE_SQL.baseline, [row.mic, row.status, row.source, row.changed_at])).length > 0),
    record: (next, deliveries, nowMs) =>
      postgresStep(async (tx) => {
        await tx.unsafe(QUEUE_SQL.putState, [next.mic, next.status, next.source, next.changed_at])
        await insertDeliveries(tx, next.mic, deliveries, nowMs)
      }),
    enqueue: (mic, deliveries, nowMs) => postgresStep((tx) => insertDeliveries(tx, mic, deliveries, nowMs)),
    async forgetUnsubscribed() {
      await sql.unsafe(QUEUE_SQL.forget)
    },
    async claim(nowMs, limit, claimer) {
      const rows = (await sql.unsafe(text(QUEUE_SQL.claim), [nowMs, limit, claimer, nowMs + CLAIM_MS, new Date(nowMs).toISOString()])) as DeliveryRow[]
      // RETURNING comes in no particular order: the oldest due first, as on SQLite.
      return [...rows].sort((a, b) => a.created_at.localeCompare(b.created_at) || (a.id < b.id ? -1 : 1))
    },
    async delivered(id, status, nowMs, claimer) {
      await sql.unsafe(QUEUE_SQL.delivered, [id, status, new Date(nowMs).toISOString(), claimer])
    },
    async retry(id, nextAttemptAt, status, error, nowMs, claimer) {
      await sql.unsafe(QUEUE_SQL.retry, [id, nextAttemptAt, status, error, new Date(nowMs).toISOString(), claimer])
    },
    async deadLetter(id, webhookId, status, error, nowMs, claimer) {
      const at = new Date(nowMs).toISOString()
      await sql.begin(async (tx) => {
        if (!(await tx.unsafe(QUEUE_SQL.dead, [id, status, error, at, claimer])).length) return
        await tx.unsafe(QUEUE_SQL.pause, [webhookId, deadLetterReason(id, error)])
        await tx.unsafe(QUEUE_SQL.deadForWebhook, [webhookId, at])
      })
    },
    async requeueInterrupted(nowMs, isDead) {
      const claimers = deadClaimers(((await sql.unsafe(QUEUE_SQL.claimers)) as { claimed_by: string | null }[]).map((row) => row.claimed_by), isDead)
      let count = 0
      for (const claimer of claimers) count += (await sql.unsafe(QUEUE_SQL.requeue, [nowMs, new Date(nowMs).toISOString(), claimer])).count
      return count
    },
    async prune(nowMs) {
      return (await sql.unsafe(QUEUE_SQL.prune, pruneBefore(nowMs))).count
    },
    async nextDueAt() {
      const [row] = (await sql.unsafe(QUEUE_SQL.nextDue.replace('min(d.next_attempt_at)', 'min(d.next_attempt_at)::float8'))) as { at: number | null }[]
      return row?.at ?? null
    },
    async get(id) {
      return ((await sql.unsafe(text(QUEUE_SQL.byId), [id])) as DeliveryRow[])[0] ?? null
    },
    async forWebhook(webhookId) {
      return (await sql.unsafe(text(QUEUE_SQL.forWebhook), [webhookId])) as DeliveryRow[]
    },
  }
}
