// One-call test harness: an app over a temp (or in-memory) database, a frozen clock and a fixed key.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildApp } from '../../src/app'
import { loadConfig, type Config } from '../../src/config'
import { Signer } from '../../src/crypto/signer'
import { hexToBytes } from '../../src/crypto/encoding'
import { memoryLogger } from '../../src/log'
import { openDatabase } from '../../src/store/database'
import { applyMigrations } from '../../src/store/migrate'
import { MIGRATIONS } from '../../src/wiring/migrations'
import { sqliteAccountStore } from '../../src/accounts/store'
import { sqliteDeps } from '../../src/wiring/sqlite'
import { CalendarRegistry } from '../../src/calendar/registry'
import { resolve } from 'node:path'
import { HaltMonitor, type HaltFeedConfig } from '../../src/market/halts/monitor'

export const TEST_SEED_HEX = '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60'
export const TEST_ADMIN_KEY = 'admin-test-key-0123456789abcdef'
export const TEST_ISSUER = 'oracle.test'

export class FakeClock {
  constructor(public ms: number) {}
  now(): number {
    return this.ms
  }
  set(iso: string): void {
    this.ms = Date.parse(iso)
  }
  advance(ms: number): void {
    this.ms += ms
  }
}

const madeDirs = new Set<string>()

/** A fresh temp directory, removed after the test file finishes (test/setup.ts calls removeTempDirs). */
export function tempDir(prefix = 'openbell-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  madeDirs.add(dir)
  return dir
}

export function removeTempDirs(): void {
  for (const dir of madeDirs) rmSync(dir, { recursive: true, force: true })
  madeDirs.clear()
}

export function testSigner(): Signer {
  return Signer.fromSeed(hexToBytes(TEST_SEED_HEX)!, 'key_2026_v1', '2026-01-01T00:00:00.000Z', null)
}

export interface TestAppOptions {
  now?: string
  signer?: Signer
  env?: Record<string, string>
  /** A file database in a temp dir (WAL) instead of :memory:. */
  fileDatabase?: boolean
  /** Calendar directory; default the repository's schedules/. */
  schedulesDir?: string
  /** Halt feed; default disabled. */
  haltFeed?: HaltFeedConfig
  /** The service's own key store with its one-second cache (default: the uncached store). */
  cachedAccounts?: boolean
}

export const REPO_SCHEDULES = resolve(import.meta.dir, '../../schedules')

/** Calendars are compiled once per directory and shared by tests (compiling every venue takes time). */
const registries = new Map<string, CalendarRegistry>()
export function sharedCalendars(dir = REPO_SCHEDULES): CalendarRegistry {
  let registry = registries.get(dir)
  if (!registry) {
    registry = new CalendarRegistry(dir, memoryLogger('error'), { now: () => Date.now() })
    registry.reload('test')
    registries.set(dir, registry)
  }
  return registry
}

export function makeTestApp(options: TestAppOptions = {}) {
  const dataDir = tempDir()
  // app.handle() has no TCP peer, so tests name clients by header as behind Cloudflare;
  // test/http/peer-address.test.ts covers the default (the peer) over a real socket. Calendar
  // tests read hundreds of answers from one address within one frozen minute: the calendar rate
  // is lifted here and tested with its own value (test/calendar/calendar-answers.test.ts).
  const config: Config = loadConfig({ DATA_DIR: dataDir, ISSUER: TEST_ISSUER, ADMIN_KEY: TEST_ADMIN_KEY, SCHEDULES_DIR: options.schedulesDir ?? REPO_SCHEDULES, CLIENT_IP_HEADER: 'cf-connecting-ip', CALENDAR_RATE_PER_MINUTE: '1000000000', ...options.env })
  const db = openDatabase(options.fileDatabase ? config.databasePath : ':memory:')
  applyMigrations(db, MIGRATIONS)
  const clock = new FakeClock(Date.parse(options.now ?? '2026-03-02T15:00:00.000Z'))
  const log = memoryLogger()
  const calendars = options.schedulesDir ? sharedCalendars(options.schedulesDir) : sharedCalendars()
  const deps = sqliteDeps(
    { config, clock, log, signer: options.signer ?? testSigner(), calendars, db },
    {
      // The uncached store: tests change key status directly and expect it at once.
      ...(options.cachedAccounts ? {} : { accounts: sqliteAccountStore(db) }),
      halts: new HaltMonitor(options.haltFeed ?? { url: null, format: 'rss', intervalMs: 30_000 }, { clock, log, calendars }),
    },
  )
  const app = buildApp(deps)
  const request = (path: string, init: RequestInit = {}) => app.handle(new Request(`http://localhost${path}`, init))
  const json = async (path: string, init: RequestInit = {}) => {
    const response = await request(path, init)
    return { status: response.status, headers: response.headers, body: (await response.json()) as any }
  }
  return { app, deps, db, clock, log, config, request, json }
}

export type TestApp = ReturnType<typeof makeTestApp>
