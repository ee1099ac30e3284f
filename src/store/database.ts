// Opening the SQLite database with the pragmas every domain relies on.
import { Database } from 'bun:sqlite'
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'

export const BUSY_TIMEOUT_MS = 5000

export function openDatabase(path: string): Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true })
  const db = new Database(path, { create: true, strict: true })
  db.run('PRAGMA journal_mode = WAL')
  db.run('PRAGMA synchronous = NORMAL')
  db.run(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`)
  db.run('PRAGMA foreign_keys = ON')
  return db
}

export function journalMode(db: Database): string {
  return (db.query('PRAGMA journal_mode').get() as { journal_mode: string }).journal_mode
}
