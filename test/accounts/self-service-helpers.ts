// Helpers for the self-service key tests: JSON posts from a named client address, and reopening a
// file database as a restarted service would.
import { buildApp } from '../../src/app'
import { sqliteDeps } from '../../src/wiring/sqlite'
import { sqliteAccountStore } from '../../src/accounts/store'
import { HaltMonitor } from '../../src/market/halts/monitor'
import { openDatabase } from '../../src/store/database'
import { applyMigrations } from '../../src/store/migrate'
import { MIGRATIONS } from '../../src/wiring/migrations'
import { memoryLogger } from '../../src/log'
import { FakeClock, sharedCalendars, testSigner, type TestApp } from '../helpers/app'

export const KEY_PATTERN = (prefix: string) => new RegExp(`^${prefix}[0-9a-f]{64}$`)

export function post(harness: Pick<TestApp, 'json'>, path: string, body: unknown, address = '198.51.100.7', headers: Record<string, string> = {}) {
  return harness.json(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'cf-connecting-ip': address, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
}

/** The same database file opened again by a fresh app (as after a restart), with its own clock and log. */
export function restarted(harness: TestApp, nowMs: number) {
  harness.db.close()
  const db = openDatabase(harness.config.databasePath)
  applyMigrations(db, MIGRATIONS)
  const clock = new FakeClock(nowMs)
  const log = memoryLogger()
  const calendars = sharedCalendars()
  const deps = sqliteDeps(
    { config: harness.config, clock, log, signer: testSigner(), calendars, db },
    { accounts: sqliteAccountStore(db), halts: new HaltMonitor({ url: null, format: 'rss', intervalMs: 30_000 }, { clock, log, calendars }) },
  )
  const app = buildApp(deps)
  const request = (path: string, init: RequestInit = {}) => app.handle(new Request(`http://localhost${path}`, init))
  const json = async (path: string, init: RequestInit = {}) => {
    const response = await request(path, init)
    return { status: response.status, headers: response.headers, body: (await response.json()) as any }
  }
  return { ...harness, app, deps, db, clock, log, request, json } as TestApp
}

/** Every raw API key (any class) or OAuth access token that appears in the captured log lines. */
export function keysInLog(lines: readonly unknown[]): string[] {
  return JSON.stringify(lines).match(/(svc_free_|sb_|svc_crd_|svc_live_)[0-9a-f]{64}|obt_[A-Za-z0-9_-]{43}/g) ?? []
}
