// The kernel's own tables (migration 40), in both dialects: job leases, and the public key every
// node of one database signs with.

export const STORE_SCHEMA_V40 = `
CREATE TABLE job_leases (
  name TEXT PRIMARY KEY,
  holder TEXT NOT NULL,
  acquired_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE signing_key (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  key_id TEXT NOT NULL,
  public_key TEXT NOT NULL CHECK (length(public_key) = 64),
  recorded_at TEXT NOT NULL,
  recorded_by TEXT NOT NULL
);
`

export const STORE_SCHEMA_V40_POSTGRES = `
CREATE TABLE job_leases (
  name TEXT COLLATE "C" PRIMARY KEY,
  holder TEXT NOT NULL,
  acquired_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL
);
CREATE TABLE signing_key (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  key_id TEXT NOT NULL,
  public_key TEXT NOT NULL CHECK (length(public_key) = 64),
  recorded_at TEXT NOT NULL,
  recorded_by TEXT NOT NULL
);
`
