// Tables of the self-service key surfaces (migration 5): one key per agent_id, per-address and
// per-recipient allowances that survive a restart, and the key-issued events of the funnel.
// Keys made earlier by `keys create --agent-id` may share an agent_id; the oldest keeps it and the
// others get ` (duplicate <id>)` appended, so that the unique index can be built (no key stops working).

export const SELF_SERVICE_SCHEMA_V5 = `
UPDATE api_keys SET agent_id = agent_id || ' (duplicate ' || id || ')'
  WHERE agent_id IS NOT NULL AND id > (SELECT min(other.id) FROM api_keys other WHERE other.agent_id = api_keys.agent_id);
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
