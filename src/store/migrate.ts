// Numbered migrations, applied at boot in one transaction: all pending ones land, or none do
// and the start stops.
import type { Database } from 'bun:sqlite'

export interface Migration {
  id: number
  name: string
  /** SQLite statements. */
  sql: string
  /** PostgreSQL statements ('' when the migration has nothing to do there). */
  postgres: string
}

/** One migration's statements in both dialects, as each domain's schema.ts exports them. */
export interface MigrationSql {
  sqlite: string
  /** '' when the migration has nothing to do on PostgreSQL. */
  postgres: string
}

export class MigrationError extends Error {
  constructor(message: string, override readonly cause?: unknown) {
    super(message)
    this.name = 'MigrationError'
  }
}

/**
 * The migrations still to apply, in order; refuses a database that has migrations this build does
 * not know (a newer build wrote it: this one would misread its tables).
 */
export function pendingMigrations(applied: readonly { id: number; name: string }[], migrations: readonly Migration[]): Migration[] {
  const known = new Set(migrations.map((migration) => migration.id))
  const unknown = applied.filter((row) => !known.has(row.id))
  if (unknown.length) {
    const newest = Math.max(...migrations.map((migration) => migration.id))
    throw new MigrationError(`database has migrations this build does not know (${unknown.map((row) => `${row.id} ${row.name}`).join('; ')}); it was written by a newer version (this build knows up to ${newest}): run the newer version here, or upgrade this node`)
  }
  const done = new Set(applied.map((row) => row.id))
  return [...migrations].sort((a, b) => a.id - b.id).filter((migration) => !done.has(migration.id))
}

export function applyMigrations(db: Database, migrations: readonly Migration[], now: () => string = () => new Date().toISOString()): number[] {
  db.run('CREATE TABLE IF NOT EXISTS schema_migrations (id INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)')
  const pending = pendingMigrations(db.query('SELECT id, name FROM schema_migrations').all() as { id: number; name: string }[], migrations)
  if (!pending.length) return []
  const record = db.query('INSERT INTO schema_migrations (id, name, applied_at) VALUES (?, ?, ?)')
  let current: Migration | undefined
  try {
    db.transaction(() => {
      for (const migration of pending) {
        current = migration
        db.run(migration.sql)
        record.run(migration.id, migration.name, now())
      }
    }).immediate()
  } catch (error) {
    throw new MigrationError(`migration ${current?.id} (${current?.name}) failed: ${(error as Error).message}; nothing was changed`, error)
  }
  return pending.map((migration) => migration.id)
}
