// Numbered migrations, applied at boot in one transaction: all pending ones land, or none do
// and the start stops.
import type { Database } from 'bun:sqlite'

export interface Migration {
  id: number
  name: string
  sql: string
}

export class MigrationError extends Error {
  constructor(message: string, override readonly cause?: unknown) {
    super(message)
    this.name = 'MigrationError'
  }
}

export function applyMigrations(db: Database, migrations: readonly Migration[], now: () => string = () => new Date().toISOString()): number[] {
  db.run('CREATE TABLE IF NOT EXISTS schema_migrations (id INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)')
  const applied = new Set((db.query('SELECT id FROM schema_migrations').all() as { id: number }[]).map((row) => row.id))
  const known = new Set(migrations.map((migration) => migration.id))
  const unknown = [...applied].filter((id) => !known.has(id))
  if (unknown.length) throw new MigrationError(`database has migrations this build does not know (${unknown.join(', ')}); it was written by a newer version`)
  const pending = [...migrations].sort((a, b) => a.id - b.id).filter((migration) => !applied.has(migration.id))
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
