// Metering micro-benchmarks for `bun run bench` (one core, this process): the in-memory
// check-and-count that /v5/status uses, against the alternative of one atomic SQL statement per
// request (an upsert that counts only below the limit) on a WAL file database. Why the first was
// chosen is in docs/accounts.md.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase } from '../../src/store/database'
import { applyMigrations } from '../../src/store/migrate'
import { MIGRATIONS } from '../../src/wiring/migrations'
import { sqliteAccountStore } from '../../src/accounts/store'
import { issueKey } from '../../src/accounts/keys'
import { Meter } from '../../src/accounts/metering'
import { sqliteMeterWrites, sqliteUsageStore } from '../../src/accounts/usage-store'
import { memoryLogger } from '../../src/log'
import { systemClock } from '../../src/clock'

export async function meteringBench(): Promise<{ memoryPerSecond: number; sqlPerSecond: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'openbell-bench-meter-'))
  try {
    const db = openDatabase(join(dir, 'meter.sqlite'))
    applyMigrations(db, MIGRATIONS)
    const { account } = await issueKey(sqliteAccountStore(db), { plan: 'free', now: new Date() })
    const meter = new Meter(sqliteUsageStore(db), sqliteMeterWrites(db), systemClock, memoryLogger('error'), { daily: 1e12, monthly: 1e12 })
    await meter.meter(account, '/v5/status')
    const calls = 200_000
    let start = performance.now()
    for (let i = 0; i < calls; i++) await meter.meter(account, '/v5/status')
    const memoryPerSecond = calls / ((performance.now() - start) / 1000)
    await meter.flush()

    const day = new Date().toISOString().slice(0, 10)
    const count = db.query(
      `INSERT INTO key_usage (account_id, day, requests) VALUES (?1, ?2, 1)
       ON CONFLICT (account_id, day) DO UPDATE SET requests = requests + 1 WHERE requests < ?3 RETURNING requests`,
    )
    const sqlCalls = 20_000
    start = performance.now()
    for (let i = 0; i < sqlCalls; i++) count.get(account.id, day, 1e12)
    const sqlPerSecond = sqlCalls / ((performance.now() - start) / 1000)
    db.close()
    return { memoryPerSecond, sqlPerSecond }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
