// The tool endpoint's tables, both dialects of its migration (wiring/migrations.ts orders them).
import type { MigrationSql } from '../store/migrate'

/** Migration 30: usage and anonymous allowance. */
export const MCP_V30: MigrationSql = {
  sqlite: `
CREATE TABLE mcp_settings (name TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE mcp_daily_requests (day TEXT PRIMARY KEY, requests INTEGER NOT NULL CHECK (requests >= 0)) WITHOUT ROWID;
CREATE TABLE mcp_daily_clients (
  day TEXT NOT NULL,
  client_hash TEXT NOT NULL,
  anonymous_status_calls INTEGER NOT NULL DEFAULT 0 CHECK (anonymous_status_calls >= 0),
  PRIMARY KEY (day, client_hash)
) WITHOUT ROWID;
`,
  postgres: `
CREATE TABLE mcp_settings (name TEXT COLLATE "C" PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE mcp_daily_requests (day TEXT COLLATE "C" PRIMARY KEY, requests INTEGER NOT NULL CHECK (requests >= 0));
CREATE TABLE mcp_daily_clients (
  day TEXT COLLATE "C" NOT NULL,
  client_hash TEXT COLLATE "C" NOT NULL,
  anonymous_status_calls INTEGER NOT NULL DEFAULT 0 CHECK (anonymous_status_calls >= 0),
  PRIMARY KEY (day, client_hash)
);
`,
}
