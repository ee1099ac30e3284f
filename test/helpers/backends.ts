// Contract tests: one suite per store interface, run against both backends. A suite is written
// once against the interface; `forEachBackend` runs it in a describe block per backend, and
// `fresh()` gives a new migrated database (SQLite in memory, or a PostgreSQL database copied from
// the migrated template) with `pick` to build the backend's implementation over it:
//
//   forEachBackend('lease store', (fresh) => {
//     test('one holder at a time', async () => {
//       const store = (await fresh()).pick({ sqlite: sqliteLeaseStore, postgres: postgresLeaseStore })
//       …
//     })
//   })
import type { Database } from 'bun:sqlite'
import type { SQL } from 'bun'
import { afterAll, describe } from 'bun:test'
import { join } from 'node:path'
import { openDatabase } from '../../src/store/database'
import { tempDir } from './app'
import { applyMigrations } from '../../src/store/migrate'
import { MIGRATIONS } from '../../src/wiring/migrations'
import { migratedDatabase, startClusterFirst, type TestDatabase } from './postgres'

export type BackendName = 'sqlite' | 'postgres'

export interface TestBackend {
  name: BackendName
  /** The SQLite file (the `2 workers` variant), whose further nodes open connections of their own; null in memory or on PostgreSQL. */
  path: string | null
  /** The SQLite database (sqlite only). */
  db: Database | null
  /** The PostgreSQL pool (postgres only). */
  sql: SQL | null
  /** The PostgreSQL database's URL (postgres only), for a second pool or a second process. */
  url: string | null
  /** The backend's implementation of a store, built over this database. */
  pick<T>(implementations: { sqlite: (db: Database) => T; postgres: (sql: SQL) => T }): T
}

export const BACKENDS: readonly BackendName[] = ['sqlite', 'postgres']

/**
 * The runs of a suite: SQLite in memory, SQLite on a file with a connection per node (as the
 * worker processes of WORKERS=2 have: test/helpers/nodes.ts), PostgreSQL.
 */
const VARIANTS: readonly { backend: BackendName; label: string; file: boolean }[] = [
  { backend: 'sqlite', label: 'sqlite', file: false },
  { backend: 'sqlite', label: 'sqlite, 2 workers', file: true },
  { backend: 'postgres', label: 'postgres', file: false },
]

/** A fresh migrated database of one backend; closed (dropped) by `cleanup`. */
export async function openTestBackend(name: BackendName, label: string, cleanup: (close: () => Promise<void>) => void, onFile = false): Promise<TestBackend> {
  if (name === 'sqlite') {
    const path = onFile ? join(tempDir('openbell-test-contract-'), 'openbell.sqlite') : null
    const db = openDatabase(path ?? ':memory:')
    applyMigrations(db, MIGRATIONS)
    cleanup(async () => db.close())
    return { name, path, db, sql: null, url: null, pick: (implementations) => implementations.sqlite(db) }
  }
  const database: TestDatabase = await migratedDatabase(label)
  cleanup(() => database.drop())
  return { name, path: null, db: null, sql: database.sql, url: database.url, pick: (implementations) => implementations.postgres(database.sql) }
}

/** Runs `suite` once per variant, as `<title> [sqlite]`, `<title> [sqlite, 2 workers]` and `<title> [postgres]`. */
export function forEachBackend(title: string, suite: (fresh: () => Promise<TestBackend>, backend: BackendName) => void): void {
  for (const { backend, label, file } of VARIANTS) {
    describe(`${title} [${label}]`, () => {
      const closers: (() => Promise<void>)[] = []
      if (backend === 'postgres') startClusterFirst()
      afterAll(async () => {
        await Promise.all(closers.map((close) => close()))
      })
      suite(() => openTestBackend(backend, title, (close) => closers.push(close), file), backend)
    })
  }
}
