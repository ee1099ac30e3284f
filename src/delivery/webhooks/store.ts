// Webhook subscriptions: the store interface and its SQLite implementation (PostgreSQL:
// store-postgres.ts). Creating one (counted against the key's limit) and reading a MIC's active
// subscriptions are steps, so that they join a unit of work: the limit holds across nodes, and the
// dispatcher queues deliveries for exactly the subscriptions its transaction sees.
import type { Database } from 'bun:sqlite'
import { ApiError } from '../../http/errors'
import type { Step } from '../../store/transaction'
import { sqliteStep } from '../../store/sqlite-transaction'
import { positional } from '../../store/sql-text'

export const WEBHOOK_EVENTS = ['status_change', 'calendar_change'] as const
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number]
export type WebhookStatus = 'active' | 'paused'

export interface WebhookRow {
  id: string
  key_hash: string
  url: string
  mics: string[]
  events: WebhookEvent[]
  secret: string
  status: WebhookStatus
  paused_reason: string | null
  created_at: string
}

export type StoredWebhook = Omit<WebhookRow, 'mics' | 'events'> & { mics: string; events: string }

export const fromStored = (row: StoredWebhook): WebhookRow => ({ ...row, mics: JSON.parse(row.mics), events: JSON.parse(row.events) })

/** The public view (spec 2.7 Webhook entry): never the secret. */
export function webhookEntry(row: WebhookRow) {
  return { webhook_id: row.id, url: row.url, mics: row.mics, events: row.events, created_at: row.created_at, status: row.status }
}

export interface WebhookStore {
  /** Inserts unless the key already has `limit` subscriptions (throws 403 WEBHOOK_LIMIT_REACHED); run it in a unit of work. */
  create(row: WebhookRow, limit: number): Step<void>
  listByKey(keyHash: string): Promise<WebhookRow[]>
  get(id: string): Promise<WebhookRow | null>
  /** Removes the subscription with its MICs and undelivered deliveries (cascade). */
  delete(id: string): Promise<boolean>
  setStatus(id: string, status: WebhookStatus, reason: string | null): Promise<void>
  /** The active subscriptions of a MIC, read in the unit of work that queues their deliveries. */
  activeForMic(mic: string): Step<WebhookRow[]>
  /** MICs named by any subscription (active or paused): their state is tracked. */
  subscribedMics(): Promise<string[]>
}

export function limitReached(limit: number): ApiError {
  return new ApiError(403, 'WEBHOOK_LIMIT_REACHED', `this plan allows ${limit} webhook subscriptions; delete one first`, { limit })
}

// The statements both backends run ($n parameters; SQLite binds them as ?n).
export const WEBHOOK_SQL = {
  insert: 'INSERT INTO webhooks (id, key_hash, url, mics, events, secret, status, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
  insertMic: 'INSERT INTO webhook_mics (mic, webhook_id) VALUES ($1, $2)',
  countByKey: 'SELECT count(*) AS n FROM webhooks WHERE key_hash = $1',
  byKey: 'SELECT * FROM webhooks WHERE key_hash = $1 ORDER BY created_at, id',
  byId: 'SELECT * FROM webhooks WHERE id = $1',
  remove: 'DELETE FROM webhooks WHERE id = $1',
  setStatus: 'UPDATE webhooks SET status = $2, paused_reason = $3 WHERE id = $1',
  activeForMic: `SELECT w.* FROM webhook_mics m JOIN webhooks w ON w.id = m.webhook_id WHERE m.mic = $1 AND w.status = 'active' ORDER BY w.id`,
  subscribedMics: 'SELECT DISTINCT mic FROM webhook_mics ORDER BY mic',
} as const

export const webhookValues = (row: WebhookRow) => [row.id, row.key_hash, row.url, JSON.stringify(row.mics), JSON.stringify(row.events), row.secret, row.status, row.created_at]

export function sqliteWebhookStore(db: Database): WebhookStore {
  const q = Object.fromEntries(Object.entries(WEBHOOK_SQL).map(([name, text]) => [name, db.query(positional(text))])) as Record<keyof typeof WEBHOOK_SQL, ReturnType<Database['query']>>
  return {
    create: (row, limit) =>
      sqliteStep(() => {
        if ((q.countByKey.get(row.key_hash) as { n: number }).n >= limit) throw limitReached(limit)
        q.insert.run(...webhookValues(row))
        for (const mic of row.mics) q.insertMic.run(mic, row.id)
      }),
    async listByKey(keyHash) {
      return (q.byKey.all(keyHash) as StoredWebhook[]).map(fromStored)
    },
    async get(id) {
      const row = q.byId.get(id) as StoredWebhook | null
      return row ? fromStored(row) : null
    },
    async delete(id) {
      return q.remove.run(id).changes > 0
    },
    async setStatus(id, status, reason) {
      q.setStatus.run(id, status, reason)
    },
    activeForMic: (mic) => sqliteStep(() => (q.activeForMic.all(mic) as StoredWebhook[]).map(fromStored)),
    async subscribedMics() {
      return (q.subscribedMics.all() as { mic: string }[]).map((row) => row.mic)
    },
  }
}
