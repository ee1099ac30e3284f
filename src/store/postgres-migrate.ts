// The migration runner on PostgreSQL: the same numbered list as SQLite (each migration's
// `postgres` statements), applied in one transaction under an advisory lock, so that several
// nodes starting at once on an empty database migrate it once: the first takes the lock and
// migrates, the others wait for its commit and then find nothing to do.
import type { SQL } from 'bun'
import { MigrationError, pendingMigrations, type Migration } from './migrate'

/** Advisory lock keys of this service (pg_advisory_xact_lock), one per purpose. */
export const ADVISORY_LOCKS = { migrations: 230_001 } as const

// Made before any migration: the trigger function the append-only tables use (SQLite says
// RAISE(ABORT, '…') in the trigger itself).
const BOOTSTRAP = `
CREATE TABLE IF NOT EXISTS schema_migrations (id INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL);
CREATE OR REPLACE FUNCTION openbell_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '%', TG_ARGV[0] USING ERRCODE = 'restrict_violation';
END $$;
`

export async function applyPostgresMigrations(sql: SQL, migrations: readonly Migration[], now: () => string = () => new Date().toISOString()): Promise<number[]> {
  let current: Migration | undefined
  try {
    return await sql.begin(async (tx) => {
      await tx`SELECT pg_advisory_xact_lock(${ADVISORY_LOCKS.migrations})`
      await tx.unsafe(BOOTSTRAP)
      const applied = (await tx`SELECT id, name FROM schema_migrations`) as { id: number; name: string }[]
      const pending = pendingMigrations(applied, migrations)
      for (const migration of pending) {
        current = migration
        if (migration.postgres.trim()) await tx.unsafe(migration.postgres)
        await tx`INSERT INTO schema_migrations (id, name, applied_at) VALUES (${migration.id}, ${migration.name}, ${now()})`
      }
      return pending.map((migration) => migration.id)
    })
  } catch (error) {
    if (error instanceof MigrationError) throw error
    if (!current) throw error
    throw new MigrationError(`migration ${current.id} (${current.name}) failed on PostgreSQL: ${(error as Error).message}; nothing was changed`, error)
  }
}
