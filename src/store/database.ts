// Opening the SQLite database with the pragmas every domain relies on.
import { Database } from 'bun:sqlite'
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs'
import { dirname } from 'node:path'

export const BUSY_TIMEOUT_MS = 5000

/** Database files hold account and payment data: owner-only, like the signing key. */
export const DATA_DIR_MODE = 0o700
export const DATA_FILE_MODE = 0o600

/**
 * DURABILITY: `process` (synchronous=NORMAL) — in WAL mode a commit is in the WAL file when it
 * returns, so it survives a crash of the process, but the WAL is fsynced only at checkpoints:
 * a power loss or kernel crash can lose the last commits. `power` (synchronous=FULL) — the WAL is
 * fsynced at every commit, so a commit also survives a power loss.
 */
export type Durability = 'process' | 'power'

export function openDatabase(path: string, durability: Durability = 'process'): Database {
  if (path !== ':memory:') ownerOnlyFile(path)
  const db = new Database(path, { create: true, strict: true })
  db.run('PRAGMA journal_mode = WAL')
  db.run(`PRAGMA synchronous = ${durability === 'power' ? 'FULL' : 'NORMAL'}`)
  db.run(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`)
  db.run('PRAGMA foreign_keys = ON')
  return db
}

/** The connection's synchronous setting by name (what DURABILITY turned into). */
export function synchronousMode(db: Database): string {
  const level = (db.query('PRAGMA synchronous').get() as { synchronous: number }).synchronous
  return ['OFF', 'NORMAL', 'FULL', 'EXTRA'][level] ?? String(level)
}

export function journalMode(db: Database): string {
  return (db.query('PRAGMA journal_mode').get() as { journal_mode: string }).journal_mode
}

/**
 * Creates the directory (0700) and the database file (0600) before SQLite opens it; SQLite
 * gives the -wal and -shm files the database file's mode. Files left 0644 by an older version
 * are tightened.
 */
function ownerOnlyFile(path: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: DATA_DIR_MODE })
  if (!existsSync(path)) closeSync(openSync(path, 'a', DATA_FILE_MODE))
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    try {
      if (statSync(file).mode & 0o077) chmodSync(file, DATA_FILE_MODE)
    } catch {
      // Absent (no WAL yet) or not ours to change: SQLite reports real problems on open.
    }
  }
}
