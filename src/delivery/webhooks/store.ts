// SQL for webhook subscriptions (synchronous bun:sqlite, so the dispatcher can join a subscription
// check, a state change and the delivery rows it creates in one transaction).
import type { Database } from 'bun:sqlite'
import { ApiError } from '../../http/errors'

export const DELIVERY_SCHEMA_V15 = `
CREATE TABLE webhooks (
  id TEXT PRIMARY KEY,
  key_hash TEXT NOT NULL CHECK (length(key_hash) = 64),
  url TEXT NOT NULL,
  mics TEXT NOT NULL,
  events TEXT NOT NULL,
  secret TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'paused')),
  paused_reason TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX webhooks_key ON webhooks (key_hash);
CREATE TABLE webhook_mics (
  mic TEXT NOT NULL,
  webhook_id TEXT NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
  PRIMARY KEY (mic, webhook_id)
) WITHOUT ROWID;
CREATE INDEX webhook_mics_webhook ON webhook_mics (webhook_id);
CREATE TABLE webhook_state (
  mic TEXT PRIMARY KEY,
  status TEXT NOT NULL,
  source TEXT NOT NULL,
  changed_at TEXT NOT NULL
);
CREATE TABLE webhook_deliveries (
  id TEXT PRIMARY KEY,
  webhook_id TEXT NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
  mic TEXT NOT NULL,
  body TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('queued', 'sending', 'delivered', 'dead')),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER NOT NULL,
  last_status INTEGER,
  last_error TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE state IN ('queued', 'sending');
CREATE INDEX webhook_deliveries_webhook ON webhook_deliveries (webhook_id, state);
CREATE TABLE webhook_dispatcher (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  status TEXT NOT NULL,
  next_alarm TEXT NOT NULL,
  checked_at TEXT NOT NULL
);
`

export const WEBHOOK_EVENTS = ['status_change'] as const
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

type StoredRow = Omit<WebhookRow, 'mics' | 'events'> & { mics: string; events: string }

const fromStored = (row: StoredRow): WebhookRow => ({ ...row, mics: JSON.parse(row.mics), events: JSON.parse(row.events) })

/** The public view (spec 2.7 Webhook entry): never the secret. */
export function webhookEntry(row: WebhookRow) {
  return { webhook_id: row.id, url: row.url, mics: row.mics, events: row.events, created_at: row.created_at, status: row.status }
}

export function sqliteWebhookStore(db: Database) {
  const insert = db.query('INSERT INTO webhooks (id, key_hash, url, mics, events, secret, status, created_at) VALUES ($id, $key_hash, $url, $mics, $events, $secret, $status, $created_at)')
  const insertMic = db.query('INSERT INTO webhook_mics (mic, webhook_id) VALUES (?, ?)')
  const countByKey = db.query('SELECT count(*) AS n FROM webhooks WHERE key_hash = ?')
  const byKey = db.query('SELECT * FROM webhooks WHERE key_hash = ? ORDER BY created_at, id')
  const byId = db.query('SELECT * FROM webhooks WHERE id = ?')
  const remove = db.query('DELETE FROM webhooks WHERE id = ?')
  const setStatus = db.query('UPDATE webhooks SET status = ?, paused_reason = ? WHERE id = ?')
  const activeForMic = db.query(`SELECT w.* FROM webhook_mics m JOIN webhooks w ON w.id = m.webhook_id WHERE m.mic = ? AND w.status = 'active' ORDER BY w.id`)
  const subscribedMics = db.query('SELECT DISTINCT mic FROM webhook_mics ORDER BY mic')
  const create = db.transaction((row: WebhookRow, limit: number) => {
    const { n } = countByKey.get(row.key_hash) as { n: number }
    if (n >= limit) throw new ApiError(403, 'WEBHOOK_LIMIT_REACHED', `this plan allows ${limit} webhook subscriptions; delete one first`, { limit })
    insert.run({ ...row, mics: JSON.stringify(row.mics), events: JSON.stringify(row.events) } as unknown as Record<string, string>)
    for (const mic of row.mics) insertMic.run(mic, row.id)
  })
  return {
    /** Inserts unless the key already has `limit` subscriptions (403), in one immediate transaction. */
    create(row: WebhookRow, limit: number): void {
      create.immediate(row, limit)
    },
    listByKey(keyHash: string): WebhookRow[] {
      return (byKey.all(keyHash) as StoredRow[]).map(fromStored)
    },
    get(id: string): WebhookRow | null {
      const row = byId.get(id) as StoredRow | null
      return row ? fromStored(row) : null
    },
    /** Removes the subscription with its MICs and undelivered deliveries (cascade). */
    delete(id: string): boolean {
      return remove.run(id).changes > 0
    },
    setStatus(id: string, status: WebhookStatus, reason: string | null): void {
      setStatus.run(status, reason, id)
    },
    activeForMic(mic: string): WebhookRow[] {
      return (activeForMic.all(mic) as StoredRow[]).map(fromStored)
    },
    /** MICs named by any subscription (active or paused): their state is tracked. */
    subscribedMics(): string[] {
      return (subscribedMics.all() as { mic: string }[]).map((row) => row.mic)
    },
  }
}

export type WebhookStore = ReturnType<typeof sqliteWebhookStore>
