// Fresh PostgreSQL databases on the run's throw-away cluster (postgres-cluster.ts). Each is made
// with an ICU en-US collation, as managed PostgreSQL services default to, so that a text column
// compared or sorted without COLLATE "C" shows up as a failing order in tests (the C locale
// would hide it). `migratedDatabase()` copies a template migrated once per run.
import { SQL } from 'bun'
import { afterAll, beforeAll } from 'bun:test'
import { postgresCluster } from './postgres-cluster'
import { applyPostgresMigrations } from '../../src/store/postgres-migrate'
import { MIGRATIONS } from '../../src/wiring/migrations'

export interface TestDatabase {
  name: string
  url: string
  /** A pool on the database (small: many test files share the cluster's connections). */
  sql: SQL
  /** Closes the pool and drops the database. */
  drop(): Promise<void>
}

let admin: SQL | null = null
let template: Promise<string> | null = null
let counter = 0

function adminSql(): SQL {
  admin ??= new SQL({ url: postgresCluster().url('postgres'), max: 2 })
  return admin
}

const uniqueName = (label: string) => `t_${label.replace(/[^a-z0-9]/gi, '_').toLowerCase().slice(0, 30)}_${process.pid}_${++counter}`

async function create(name: string, from: string): Promise<void> {
  const base = from === 'template0' ? ` LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C.UTF-8'` : ''
  await adminSql().unsafe(`CREATE DATABASE ${name}${base} TEMPLATE ${from}`)
}

function open(name: string, max: number): TestDatabase {
  const url = postgresCluster().url(name)
  const sql = new SQL({ url, max })
  return {
    name,
    url,
    sql,
    async drop() {
      await sql.close().catch(() => {})
      await adminSql().unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    },
  }
}

/** An empty database (no tables): for migration tests. */
export async function emptyDatabase(label = 'empty', max = 4): Promise<TestDatabase> {
  const name = uniqueName(label)
  await create(name, 'template0')
  return open(name, max)
}

/** A database with every migration applied, copied from a template migrated once per run. */
export async function migratedDatabase(label = 'db', max = 4): Promise<TestDatabase> {
  template ??= (async () => {
    const name = `t_template_${process.pid}`
    await create(name, 'template0')
    const sql = new SQL({ url: postgresCluster().url(name), max: 1 })
    await applyPostgresMigrations(sql, MIGRATIONS)
    await sql.close()
    return name
  })()
  const name = uniqueName(label)
  await create(name, await template)
  return open(name, max)
}

/** Starting the cluster can take tens of seconds on a busy machine: done in a hook, not a test. */
export const CLUSTER_START_MS = 180_000

/** Starts the run's cluster before the tests of this scope (once per run; later calls return at once). */
export function startClusterFirst(): void {
  beforeAll(() => void postgresCluster(), CLUSTER_START_MS)
}

/** Databases made through `track` are dropped when the test file ends. */
export function dropAfterAll(): (database: TestDatabase) => TestDatabase {
  startClusterFirst()
  const made: TestDatabase[] = []
  // Dropping a dozen databases takes longer than the default 5 s hook timeout on a loaded machine.
  afterAll(async () => {
    await Promise.all(made.map((database) => database.drop()))
  }, 60_000)
  return (database) => {
    made.push(database)
    return database
  }
}
