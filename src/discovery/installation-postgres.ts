// This installation's first start on PostgreSQL (migration 20): the time the first migration ran.
import type { SQL } from 'bun'
import type { InstallationStore } from './installation'

export const INSTALLATION_SCHEMA_V20_POSTGRES = `
CREATE TABLE installation (name TEXT COLLATE "C" PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO installation (name, value)
  SELECT 'first_started_at', coalesce(min(applied_at), to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) FROM schema_migrations;
CREATE TRIGGER installation_no_update BEFORE UPDATE ON installation FOR EACH ROW EXECUTE FUNCTION openbell_refuse('installation facts never change');
`

export function postgresInstallationStore(sql: SQL): InstallationStore {
  return {
    async firstStartedAt() {
      const [row] = await sql`SELECT value FROM installation WHERE name = 'first_started_at'`
      return (row as { value: string } | undefined)?.value ?? null
    },
  }
}
