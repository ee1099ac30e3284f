// The durable delivery queue and the last announced state per MIC: the interface and its SQLite
// implementation (PostgreSQL: queue-postgres.ts). A transition stores the new state and one queued
// row per active subscription in ONE transaction (steps of the dispatcher's unit of work), so a
// restart either sees both or neither. A row being sent is `sending`, claimed by one node until
// its claim ends (CLAIM_MS, kept in next_attempt_at): a claimer that dies mid-attempt leaves the
// row to be claimed again when the claim ends, or at once by a restart on the same machine
// (SQLite), and that attempt may then reach the receiver twice (at-least-once, same webhook-id).
// While the claimer is up, nobody else takes the row.
import type { Database } from 'bun:sqlite'
import type { WebhookRow } from './store'
import type { Step } from '../../store/transaction'
import { sqliteStep } from '../../store/sqlite-transaction'
import { positional } from '../../store/sql-text'

export const DELIVERED_KEEP_MS = 7 * 86_400_000
export const DEAD_KEEP_MS = 30 * 86_400_000

export interface StateRow {
  mic: string
  status: string
  source: string
  changed_at: string
}

export interface DeliveryRow {
  id: string
  webhook_id: string
  mic: string
  body: string
  state: 'queued' | 'sending' | 'delivered' | 'dead'
  attempts: number
  next_attempt_at: number
  last_status: number | null
  last_error: string | null
  created_at: string
  updated_at: string
  /** The lease holder of the node that claimed it last (null before its first claim). */
  claimed_by: string | null
}

export interface NewDelivery {
  id: string
  webhook: WebhookRow
  body: string
}

/**
 * How long a claim lasts: twice the longest attempt (a 5 s name look-up and the 10 s request),
 * so a live claimer always finishes first; a dead one's rows are claimed again after it.
 */
export const CLAIM_MS = 30_000

export interface DeliveryQueue {
  /** The state last announced for a MIC, read in the unit of work that records the next one. */
  state(mic: string): Step<StateRow | null>
  /** Stores a first state unless one is stored (nothing is delivered); true when it did. */
  baseline(row: StateRow): Step<boolean>
  /** Stores `next` as the MIC's state and queues the deliveries (a step of the dispatcher's transition). */
  record(next: StateRow, deliveries: readonly NewDelivery[], nowMs: number): Step<void>
  /** Queues deliveries that change no state (a calendar change; a step of the unit of work that records it). */
  enqueue(mic: string, deliveries: readonly NewDelivery[], nowMs: number): Step<void>
  /** A MIC nobody subscribes to any more forgets its state. */
  forgetUnsubscribed(): Promise<void>
  /** Claims up to `limit` due rows for `claimer` until nowMs + CLAIM_MS, counting the attempt; a row goes to one claimer only. */
  claim(nowMs: number, limit: number, claimer: string): Promise<DeliveryRow[]>
  /** The attempt succeeded (only while the row is still this claimer's). */
  delivered(id: string, status: number, nowMs: number, claimer: string): Promise<void>
  retry(id: string, nextAttemptAt: number, status: number, error: string, nowMs: number, claimer: string): Promise<void>
  /** The last attempt failed: dead-letter it, pause the subscription and dead-letter its queue. */
  deadLetter(id: string, webhookId: string, status: number, error: string, nowMs: number, claimer: string): Promise<void>
  /** At start: rows claimed by a claimer known dead (or by nobody) go back in the queue, due at once. */
  requeueInterrupted(nowMs: number, isDead: (claimer: string) => boolean): Promise<number>
  /** Removes delivered rows older than 7 days and dead letters older than 30 days. */
  prune(nowMs: number): Promise<number>
  /** When the next row is due (a claim's end counts: its row may be claimed again then). */
  nextDueAt(): Promise<number | null>
  get(id: string): Promise<DeliveryRow | null>
  forWebhook(webhookId: string): Promise<DeliveryRow[]>
}

// The statements both backends run ($n parameters; SQLite binds them as ?n).
export const QUEUE_SQL = {
  state: 'SELECT mic, status, source, changed_at FROM webhook_state WHERE mic = $1',
  baseline: 'INSERT INTO webhook_state (mic, status, source, changed_at) VALUES ($1, $2, $3, $4) ON CONFLICT (mic) DO NOTHING RETURNING mic',
  putState: `INSERT INTO webhook_state (mic, status, source, changed_at) VALUES ($1, $2, $3, $4)
ON CONFLICT (mic) DO UPDATE SET status = excluded.status, source = excluded.source, changed_at = excluded.changed_at`,
  forget: 'DELETE FROM webhook_state WHERE mic NOT IN (SELECT mic FROM webhook_mics)',
  insert: `INSERT INTO webhook_deliveries (id, webhook_id, mic, body, state, attempts, next_attempt_at, created_at, updated_at) VALUES ($1, $2, $3, $4, 'queued', 0, $5, $6, $6)`,
  // $1 now, $2 limit, $3 claimer, $4 claim end, $5 updated_at; {lock} is PostgreSQL's row lock.
  claim: `UPDATE webhook_deliveries SET state = 'sending', attempts = attempts + 1, claimed_by = $3, next_attempt_at = $4, updated_at = $5
WHERE id IN (SELECT d.id FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
  WHERE d.state IN ('queued', 'sending') AND d.next_attempt_at <= $1 AND w.status = 'active' ORDER BY d.next_attempt_at, d.id LIMIT $2{lock})
RETURNING {columns}`,
  delivered: `UPDATE webhook_deliveries SET state = 'delivered', last_status = $2, last_error = NULL, updated_at = $3 WHERE id = $1 AND state = 'sending' AND claimed_by = $4`,
  retry: `UPDATE webhook_deliveries SET state = 'queued', next_attempt_at = $2, last_status = $3, last_error = $4, updated_at = $5 WHERE id = $1 AND state = 'sending' AND claimed_by = $6`,
  dead: `UPDATE webhook_deliveries SET state = 'dead', last_status = $2, last_error = $3, updated_at = $4 WHERE id = $1 AND state = 'sending' AND claimed_by = $5 RETURNING id`,
  pause: `UPDATE webhooks SET status = 'paused', paused_reason = $2 WHERE id = $1`,
  deadForWebhook: `UPDATE webhook_deliveries SET state = 'dead', last_error = 'subscription paused', updated_at = $2 WHERE webhook_id = $1 AND state = 'queued'`,
  claimers: `SELECT DISTINCT claimed_by FROM webhook_deliveries WHERE state = 'sending'`,
  requeue: `UPDATE webhook_deliveries SET state = 'queued', next_attempt_at = $1, updated_at = $2 WHERE state = 'sending' AND coalesce(claimed_by, '') = $3`,
  nextDue: `SELECT min(d.next_attempt_at) AS at FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id WHERE d.state IN ('queued', 'sending') AND w.status = 'active'`,
  prune: `DELETE FROM webhook_deliveries WHERE (state = 'delivered' AND updated_at < $1) OR (state = 'dead' AND updated_at < $2)`,
  byId: 'SELECT {columns} FROM webhook_deliveries WHERE id = $1',
  forWebhook: 'SELECT {columns} FROM webhook_deliveries WHERE webhook_id = $1 ORDER BY created_at, id',
} as const

export const deadLetterReason = (id: string, error: string) => `delivery ${id} failed ${error}; dead-lettered after the last attempt`
export const pruneBefore = (nowMs: number) => [new Date(nowMs - DELIVERED_KEEP_MS).toISOString(), new Date(nowMs - DEAD_KEEP_MS).toISOString()]

/** Claimers of rows being sent that `isDead` names dead ('' stands for rows claimed by nobody). */
export const deadClaimers = (claimers: readonly (string | null)[], isDead: (claimer: string) => boolean) => claimers.map((claimer) => claimer ?? '').filter((claimer) => claimer === '' || isDead(claimer))

export function sqliteDeliveryQueue(db: Database): DeliveryQueue {
  const text = (sql: string) => positional(sql.replace('{lock}', '').replaceAll('{columns}', '*'))
  const q = Object.fromEntries(Object.entries(QUEUE_SQL).map(([name, sql]) => [name, db.query(text(sql))])) as Record<keyof typeof QUEUE_SQL, ReturnType<Database['query']>>
  const deadLetter = db.transaction((id: string, webhookId: string, status: number, error: string, at: string, claimer: string) => {
    if (q.dead.get(id, status, error, at, claimer) === null) return
    q.pause.run(webhookId, deadLetterReason(id, error))
    q.deadForWebhook.run(webhookId, at)
  })
  return {
    state: (mic) => sqliteStep(() => (q.state.get(mic) as StateRow | null) ?? null),
    baseline: (row) => sqliteStep(() => q.baseline.get(row.mic, row.status, row.source, row.changed_at) !== null),
    record: (next, deliveries, nowMs) =>
      sqliteStep(() => {
        q.putState.run(next.mic, next.status, next.source, next.changed_at)
        const at = new Date(nowMs).toISOString()
        for (const delivery of deliveries) q.insert.run(delivery.id, delivery.webhook.id, next.mic, delivery.body, nowMs, at)
      }),
    enqueue: (mic, deliveries, nowMs) =>
      sqliteStep(() => {
        const at = new Date(nowMs).toISOString()
        for (const delivery of deliveries) q.insert.run(delivery.id, delivery.webhook.id, mic, delivery.body, nowMs, at)
      }),
    async forgetUnsubscribed() {
      q.forget.run()
    },
    async claim(nowMs, limit, claimer) {
      return q.claim.all(nowMs, limit, claimer, nowMs + CLAIM_MS, new Date(nowMs).toISOString()) as DeliveryRow[]
    },
    async delivered(id, status, nowMs, claimer) {
      q.delivered.run(id, status, new Date(nowMs).toISOString(), claimer)
    },
    async retry(id, nextAttemptAt, status, error, nowMs, claimer) {
      q.retry.run(id, nextAttemptAt, status, error, new Date(nowMs).toISOString(), claimer)
    },
    async deadLetter(id, webhookId, status, error, nowMs, claimer) {
      deadLetter.immediate(id, webhookId, status, error, new Date(nowMs).toISOString(), claimer)
    },
    async requeueInterrupted(nowMs, isDead) {
      const claimers = deadClaimers((q.claimers.all() as { claimed_by: string | null }[]).map((row) => row.claimed_by), isDead)
      return claimers.reduce((count, claimer) => count + q.requeue.run(nowMs, new Date(nowMs).toISOString(), claimer).changes, 0)
    },
    async prune(nowMs) {
      return q.prune.run(...pruneBefore(nowMs)).changes
    },
    async nextDueAt() {
      return (q.nextDue.get() as { at: number | null }).at
    },
    async get(id) {
      return (q.byId.get(id) as DeliveryRow | null) ?? null
    },
    async forWebhook(webhookId) {
      return q.forWebhook.all(webhookId) as DeliveryRow[]
    },
  }
}
