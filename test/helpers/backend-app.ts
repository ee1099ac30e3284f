// The test app of test/helpers/app.ts on either backend, for HTTP tests whose rules must hold
// on SQLite and on PostgreSQL alike (the witness rules): `forEachBackendApp` runs a suite once
// per backend, and `make()` builds an app (frozen clock, fixed key, app.handle) over SQLite in
// memory or over a PostgreSQL database of the run's cluster. On PostgreSQL the apps of a suite
// share one database (creating one per test costs seconds on a busy machine) unless a test asks
// for a fresh one; counts a test makes are therefore taken relative to when its app was made.
import { SQL } from 'bun'
import { afterAll, beforeAll, describe } from 'bun:test'
import { loadConfig, type Config } from '../../src/config'
import { memoryLogger } from '../../src/log'
import { buildApp } from '../../src/app'
import { postgresDeps } from '../../src/wiring/postgres'
import { postgresAccountStore } from '../../src/accounts/store-postgres'
import { HaltMonitor } from '../../src/market/halts/monitor'
import { positional } from '../../src/store/sql-text'
import { BACKENDS, type BackendName } from './backends'
import { migratedDatabase, startClusterFirst, type TestDatabase } from './postgres'
import { FakeClock, makeTestApp, REPO_SCHEDULES, sharedCalendars, tempDir, testSigner, TEST_ADMIN_KEY, TEST_ISSUER, type TestAppOptions } from './app'

export interface BackendAppOptions extends Pick<TestAppOptions, 'now' | 'signer' | 'env'> {
  /** PostgreSQL: a database of its own instead of the suite's shared one. */
  freshDatabase?: boolean
  /** PostgreSQL: the pool the app's stores use (for example one on a server that is gone). */
  pool?: SQL
}

export interface BackendApp {
  backend: BackendName
  app: ReturnType<typeof buildApp>
  deps: ReturnType<typeof makeTestApp>['deps']
  clock: FakeClock
  config: Config
  log: ReturnType<typeof memoryLogger>
  request(path: string, init?: RequestInit): Promise<Response>
  json(path: string, init?: RequestInit): Promise<{ status: number; headers: Headers; body: any }>
  /** One statement with numbered parameters ($1, $2…) on the app's database; its rows. */
  query<T = Record<string, unknown>>(text: string, ...params: unknown[]): Promise<T[]>
  /** Witness rows stored since this app was made. */
  witnessRows(): Promise<number>
}

type Make = (options?: BackendAppOptions) => Promise<BackendApp>

const WITNESS_ROWS = 'SELECT count(*) AS n FROM witness_checkpoints'

function handles(app: ReturnType<typeof buildApp>) {
  const request = (path: string, init: RequestInit = {}) => app.handle(new Request(`http://localhost${path}`, init))
  const json = async (path: string, init: RequestInit = {}) => {
    const response = await request(path, init)
    return { status: response.status, headers: response.headers, body: (await response.json()) as any }
  }
  return { request, json }
}

async function withBaseline(harness: Omit<BackendApp, 'witnessRows'>): Promise<BackendApp> {
  const count = async () => Number((await harness.query<{ n: number | string }>(WITNESS_ROWS))[0]!.n)
  const baseline = await count()
  return { ...harness, witnessRows: async () => (await count()) - baseline }
}

async function sqliteApp(options: BackendAppOptions): Promise<BackendApp> {
  const harness = makeTestApp(options)
  return withBaseline({
    ...harness,
    backend: 'sqlite',
    query: async <T>(text: string, ...params: unknown[]) => harness.db.query(positional(text)).all(...(params as never[])) as T[],
  })
}

function postgresApp(database: TestDatabase, options: BackendAppOptions): Promise<BackendApp> {
  // As makeTestApp: clients named by header (app.handle has no TCP peer), the uncached key store.
  const config = loadConfig({ DATA_DIR: tempDir(), ISSUER: TEST_ISSUER, ADMIN_KEY: TEST_ADMIN_KEY, SCHEDULES_DIR: REPO_SCHEDULES, CLIENT_IP_HEADER: 'cf-connecting-ip', ...options.env })
  const clock = new FakeClock(Date.parse(options.now ?? '2026-03-02T15:00:00.000Z'))
  const log = memoryLogger()
  const calendars = sharedCalendars()
  const sql = options.pool ?? database.sql
  const deps = postgresDeps(
    { config, clock, log, signer: options.signer ?? testSigner(), calendars, sql },
    { accounts: postgresAccountStore(sql), halts: new HaltMonitor({ url: null, format: 'rss', intervalMs: 30_000 }, { clock, log, calendars }) },
  )
  const app = buildApp(deps)
  return withBaseline({
    ...handles(app),
    backend: 'postgres',
    app,
    deps,
    clock,
    config,
    log,
    // Counts and reads through the database's own pool, so they work when the app's pool does not.
    query: async <T>(text: string, ...params: unknown[]) => (await database.sql.unsafe(text, params)) as T[],
  })
}

/** Runs `suite` once per backend, as `<title> [sqlite]` and `<title> [postgres]`. */
export function forEachBackendApp(title: string, suite: (make: Make, backend: BackendName) => void): void {
  for (const backend of BACKENDS) {
    describe(`${title} [${backend}]`, () => {
      const made: TestDatabase[] = []
      let shared: Promise<TestDatabase> | null = null
      const database = async () => {
        const created = await migratedDatabase(title, 8)
        made.push(created)
        return created
      }
      if (backend === 'postgres') startClusterFirst()
      // Compiling every venue's calendar takes seconds on a busy machine: not in the first test.
      beforeAll(() => void sharedCalendars(), 60_000)
      afterAll(async () => {
        await Promise.all(made.map((created) => created.drop()))
      }, 60_000)
      suite(async (options = {}) => {
        if (backend === 'sqlite') return sqliteApp(options)
        return postgresApp(options.freshDatabase ? await database() : await (shared ??= database()), options)
      }, backend)
    })
  }
}
