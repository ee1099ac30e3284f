// The kernel's own tables (migration 40), in both dialects: job leases, and the public key every
// node of one database signs with. Epoch milliseconds need BIGINT on PostgreSQL (INTEGER is
// 64-bit on SQLite); text sorted or compared is COLLATE "C" there.
import type { MigrationSql } from './migrate'

const tables = (epoch: string, key: string, withoutRowid: string) => `
CREATE TABLE job_leases (
  name ${key} PRIMARY KEY,
  holder TEXT NOT NULL,
  acquired_at ${epoch} NOT NULL,
  expires_at ${epoch} NOT NULL
)${withoutRowid};
CREATE TABLE signing_key (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  key_id TEXT NOT NULL,
  public_key TEXT NOT NULL CHECK (length(public_key) = 64),
  valid_from TEXT NOT NULL,
  valid_until TEXT,
  recorded_at TEXT NOT NULL,
  recorded_by TEXT NOT NULL
);
`

/** Migration 40: job leases, the signing key every node uses. */
export const STORE_V40: MigrationSql = { sqlite: tables('INTEGER', 'TEXT', ' WITHOUT ROWID'), postgres: tables('BIGINT', 'TEXT COLLATE "C"', '') }
