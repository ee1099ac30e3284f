// The discovery domain's table, this installation's first start, both dialects of its migration
// (wiring/migrations.ts orders them).
import type { MigrationSql } from '../store/migrate'

/** Migration 20: installation (first start). */
export const INSTALLATION_V20: MigrationSql = {
  sqlite: `
CREATE TABLE installation (name TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
INSERT INTO installation (name, value)
  SELECT 'first_started_at', coalesce(min(applied_at), strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) FROM schema_migrations;
CREATE TRIGGER installation_no_update BEFORE UPDATE ON installation BEGIN SELECT RAISE(ABORT, 'installation facts never change'); END;
`,
  postgres: `
CREATE TABLE installation (name TEXT COLLATE "C" PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO installation (name, value)
  SELECT 'first_started_at', coalesce(min(applied_at), to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) FROM schema_migrations;
CREATE TRIGGER installation_no_update BEFORE UPDATE ON installation FOR EACH ROW EXECUTE FUNCTION openbell_refuse('installation facts never change');
`,
}
