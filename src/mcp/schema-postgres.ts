// The tool endpoint's tables on PostgreSQL (migration 30; the SQLite statements are in store.ts).

export const MCP_SCHEMA_V30_POSTGRES = `
CREATE TABLE mcp_settings (name TEXT COLLATE "C" PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE mcp_daily_requests (day TEXT COLLATE "C" PRIMARY KEY, requests INTEGER NOT NULL CHECK (requests >= 0));
CREATE TABLE mcp_daily_clients (
  day TEXT COLLATE "C" NOT NULL,
  client_hash TEXT COLLATE "C" NOT NULL,
  anonymous_status_calls INTEGER NOT NULL DEFAULT 0 CHECK (anonymous_status_calls >= 0),
  PRIMARY KEY (day, client_hash)
);
`
