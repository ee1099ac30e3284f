// The delivery domain's tables, both dialects of each migration (wiring/migrations.ts orders them):
// webhook subscriptions, the delivery queue, the dispatcher's record and the open streams.
import type { MigrationSql } from '../store/migrate'

/** Migration 15: webhooks, webhook_mics, webhook_state, webhook_deliveries (durable queue), webhook_dispatcher. */
export const DELIVERY_V15: MigrationSql = {
  sqlite: `
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
`,
  postgres: `
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
`,
}

/** Migration 41: who claimed a row being sent (its claim ends at next_attempt_at). */
export const DELIVERY_V41: MigrationSql = {
  sqlite: `ALTER TABLE webhook_deliveries ADD COLUMN claimed_by TEXT;`,
  postgres: `ALTER TABLE webhook_deliveries ADD COLUMN claimed_by TEXT COLLATE "C";`,
}

/** Migration 42: every open /v5/stream of every node (delivery/stream/registry.ts). */
export const STREAMS_V42: MigrationSql = {
  sqlite: `
CREATE TABLE open_streams (
  id TEXT PRIMARY KEY,
  key_hash TEXT NOT NULL,
  mic TEXT NOT NULL,
  node TEXT NOT NULL,
  opened_at INTEGER NOT NULL,
  seen_at INTEGER NOT NULL
);
CREATE INDEX open_streams_key ON open_streams (key_hash, opened_at, id);
CREATE INDEX open_streams_node ON open_streams (node);
`,
  postgres: `
CREATE TABLE open_streams (
  id TEXT COLLATE "C" PRIMARY KEY,
  key_hash TEXT COLLATE "C" NOT NULL,
  mic TEXT COLLATE "C" NOT NULL,
  node TEXT COLLATE "C" NOT NULL,
  opened_at BIGINT NOT NULL,
  seen_at BIGINT NOT NULL
);
CREATE INDEX open_streams_key ON open_streams (key_hash, opened_at, id);
CREATE INDEX open_streams_node ON open_streams (node);
`,
}
