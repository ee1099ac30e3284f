// Webhook subscriptions, the delivery queue and the dispatcher's record on PostgreSQL
// (migration 15; the SQLite statements are in store.ts).

export const DELIVERY_SCHEMA_V15_POSTGRES = `
CREATE TABLE webhooks (
  id TEXT COLLATE "C" PRIMARY KEY,
  key_hash TEXT COLLATE "C" NOT NULL CHECK (length(key_hash) = 64),
  url TEXT NOT NULL,
  mics TEXT NOT NULL,
  events TEXT NOT NULL,
  secret TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'paused')),
  paused_reason TEXT,
  created_at TEXT COLLATE "C" NOT NULL
);
CREATE INDEX webhooks_key ON webhooks (key_hash);
CREATE TABLE webhook_mics (
  mic TEXT COLLATE "C" NOT NULL,
  webhook_id TEXT COLLATE "C" NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
  PRIMARY KEY (mic, webhook_id)
);
CREATE INDEX webhook_mics_webhook ON webhook_mics (webhook_id);
CREATE TABLE webhook_state (
  mic TEXT COLLATE "C" PRIMARY KEY,
  status TEXT NOT NULL,
  source TEXT NOT NULL,
  changed_at TEXT COLLATE "C" NOT NULL
);
CREATE TABLE webhook_deliveries (
  id TEXT COLLATE "C" PRIMARY KEY,
  webhook_id TEXT COLLATE "C" NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
  mic TEXT COLLATE "C" NOT NULL,
  body TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('queued', 'sending', 'delivered', 'dead')),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at BIGINT NOT NULL,
  last_status INTEGER,
  last_error TEXT,
  created_at TEXT COLLATE "C" NOT NULL,
  updated_at TEXT COLLATE "C" NOT NULL
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
