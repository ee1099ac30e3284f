// Tables of the self-service key surfaces (migration 5): one key per agent_id, per-address and
// per-recipient allowances that survive a restart, and the key-issued events of the funnel.

export const SELF_SERVICE_SCHEMA_V5 = `
DROP INDEX api_keys_agent;
CREATE UNIQUE INDEX api_keys_agent_once ON api_keys (agent_id) WHERE agent_id IS NOT NULL;
CREATE TABLE address_limits (
  scope TEXT NOT NULL,
  subject TEXT NOT NULL,
  window_start INTEGER NOT NULL,
  count INTEGER NOT NULL CHECK (count >= 0),
  PRIMARY KEY (scope, subject)
) WITHOUT ROWID;
CREATE TABLE key_events (
  id INTEGER PRIMARY KEY,
  account_id INTEGER NOT NULL REFERENCES api_keys (id),
  channel TEXT NOT NULL CHECK (channel IN ('instant', 'email', 'sandbox')),
  day TEXT NOT NULL,
  created_at TEXT NOT NULL,
  use_case TEXT CHECK (use_case IS NULL OR length(use_case) <= 500)
);
CREATE INDEX key_events_day ON key_events (day, channel);
`
