// The durable delivery queue and the last delivered state per MIC, in SQLite. A transition stores
// the new state and one queued row per active subscription in ONE transaction, so a restart
// either sees both or neither. A row being sent is `sending`; a restart puts those back in the
// queue (the attempt may have reached the receiver: at-least-once, same webhook-id).
import type { Database } from 'bun:sqlite'
import type { WebhookRow } from './store'

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
}

export interface NewDelivery {
  id: string
  webhook: WebhookRow
  body: string
}

export function deliveryQueue(db: Database) {
  const stateOf = db.query('SELECT * FROM webhook_state WHERE mic = ?')
  const putState = db.query(`INSERT INTO webhook_state (mic, status, source, changed_at) VALUES (?, ?, ?, ?)
    ON CONFLICT (mic) DO UPDATE SET status = excluded.status, source = excluded.source, changed_at = excluded.changed_at`)
  const dropUnsubscribed = db.query('DELETE FROM webhook_state WHERE mic NOT IN (SELECT mic FROM webhook_mics)')
  const insert = db.query(`INSERT INTO webhook_deliveries (id, webhook_id, mic, body, state, attempts, next_attempt_at, created_at, updated_at)
    VALUES (?, ?, ?, ?, 'queued', 0, ?, ?, ?)`)
  const claim = db.query(`UPDATE webhook_deliveries SET state = 'sending', attempts = attempts + 1, updated_at = $at
    WHERE id IN (SELECT d.id FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
      WHERE d.state = 'queued' AND d.next_attempt_at <= $now AND w.status = 'active' ORDER BY d.next_attempt_at, d.id LIMIT $limit)
    RETURNING *`)
  const delivered = db.query(`UPDATE webhook_deliveries SET state = 'delivered', last_status = ?, last_error = NULL, updated_at = ? WHERE id = ? AND state = 'sending'`)
  const retry = db.query(`UPDATE webhook_deliveries SET state = 'queued', next_attempt_at = ?, last_status = ?, last_error = ?, updated_at = ? WHERE id = ? AND state = 'sending'`)
  const dead = db.query(`UPDATE webhook_deliveries SET state = 'dead', last_status = ?, last_error = ?, updated_at = ? WHERE id = ? AND state = 'sending'`)
  const deadForWebhook = db.query(`UPDATE webhook_deliveries SET state = 'dead', last_error = 'subscription paused', updated_at = ? WHERE webhook_id = ? AND state = 'queued'`)
  const pause = db.query(`UPDATE webhooks SET status = 'paused', paused_reason = ? WHERE id = ?`)
  const requeueSending = db.query(`UPDATE webhook_deliveries SET state = 'queued', updated_at = ? WHERE state = 'sending'`)
  const nextDue = db.query(`SELECT min(d.next_attempt_at) AS at FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id WHERE d.state = 'queued' AND w.status = 'active'`)
  const prune = db.query(`DELETE FROM webhook_deliveries WHERE (state = 'delivered' AND updated_at < ?) OR (state = 'dead' AND updated_at < ?)`)
  const byId = db.query('SELECT * FROM webhook_deliveries WHERE id = ?')
  const forWebhook = db.query('SELECT * FROM webhook_deliveries WHERE webhook_id = ? ORDER BY created_at, id')

  const transition = db.transaction((mic: string, expected: string | null, next: StateRow, deliveries: NewDelivery[], nowMs: number): boolean => {
    const current = stateOf.get(mic) as StateRow | null
    if ((current?.status ?? null) !== expected) return false
    putState.run(next.mic, next.status, next.source, next.changed_at)
    const at = new Date(nowMs).toISOString()
    for (const delivery of deliveries) insert.run(delivery.id, delivery.webhook.id, mic, delivery.body, nowMs, at, at)
    return true
  })
  const deadLetter = db.transaction((id: string, webhookId: string, status: number, error: string, nowMs: number) => {
    const at = new Date(nowMs).toISOString()
    dead.run(status, error, at, id)
    pause.run(`delivery ${id} failed ${error}; dead-lettered after the last attempt`, webhookId)
    deadForWebhook.run(at, webhookId)
  })

  return {
    state(mic: string): StateRow | null {
      return (stateOf.get(mic) as StateRow | null) ?? null
    },
    /** Stores a first state without delivering anything. */
    baseline(row: StateRow): void {
      putState.run(row.mic, row.status, row.source, row.changed_at)
    },
    /**
     * Stores `next` and queues the deliveries in one transaction, only if the stored status is
     * still `expected` (null: none stored). Returns whether it did.
     */
    transition(mic: string, expected: string | null, next: StateRow, deliveries: NewDelivery[], nowMs: number): boolean {
      return transition.immediate(mic, expected, next, deliveries, nowMs)
    },
    forgetUnsubscribed(): void {
      dropUnsubscribed.run()
    },
    claim(nowMs: number, limit: number): DeliveryRow[] {
      return claim.all({ now: nowMs, limit, at: new Date(nowMs).toISOString() } as never) as DeliveryRow[]
    },
    delivered(id: string, status: number, nowMs: number): void {
      delivered.run(status, new Date(nowMs).toISOString(), id)
    },
    retry(id: string, nextAttemptAt: number, status: number, error: string, nowMs: number): void {
      retry.run(nextAttemptAt, status, error, new Date(nowMs).toISOString(), id)
    },
    /** The last attempt failed: dead-letter it, pause the subscription and dead-letter its queue. */
    deadLetter(id: string, webhookId: string, status: number, error: string, nowMs: number): void {
      deadLetter.immediate(id, webhookId, status, error, nowMs)
    },
    /** At start: rows a previous process was sending go back in the queue, due at once. */
    requeueInterrupted(nowMs: number): number {
      return requeueSending.run(new Date(nowMs).toISOString()).changes
    },
    /** Removes delivered rows older than 7 days and dead letters older than 30 days. */
    prune(nowMs: number): number {
      return prune.run(new Date(nowMs - DELIVERED_KEEP_MS).toISOString(), new Date(nowMs - DEAD_KEEP_MS).toISOString()).changes
    },
    nextDueAt(): number | null {
      return (nextDue.get() as { at: number | null }).at
    },
    get(id: string): DeliveryRow | null {
      return (byId.get(id) as DeliveryRow | null) ?? null
    },
    forWebhook(webhookId: string): DeliveryRow[] {
      return forWebhook.all(webhookId) as DeliveryRow[]
    },
  }
}

export type DeliveryQueue = ReturnType<typeof deliveryQueue>
