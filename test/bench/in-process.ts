// CPU per request of GET /v5/status (paid key) inside one process, without sockets: 64 concurrent
// `app.handle` calls over the real app (real stores on a WAL file, the transparency integrator
// running as main.ts runs it) against a bare Elysia route that signs a fixed receipt, in
// alternated rounds. Process CPU time (user + system, every thread) divided by requests: time the
// process spends descheduled does not count, so the figure holds on a loaded machine far better
// than requests per second. `bun test/bench/in-process.ts [rounds] [requests per round]`;
// BENCH_PROFILE=1 prints nothing but runs /v5/status only (for `bun --cpu-prof`).
import { Elysia } from 'elysia'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import { buildApp } from '../../src/app'
import { loadConfig } from '../../src/config'
import { createLogger } from '../../src/log'
import { systemClock } from '../../src/clock'
import { openDatabase } from '../../src/store/database'
import { startCheckpoints } from '../../src/store/checkpoints'
import { applyMigrations } from '../../src/store/migrate'
import { MIGRATIONS } from '../../src/wiring/migrations'
import { loadSigner } from '../../src/crypto/key-file'
import { Signer } from '../../src/crypto/signer'
import { issueKey } from '../../src/accounts/keys'
import { CalendarRegistry } from '../../src/calendar/registry'
import { sqliteDeps } from '../../src/wiring/sqlite'

const ROUNDS = Number(process.argv[2] ?? 6)
const PER_ROUND = Number(process.argv[3] ?? 20_000)
const CONCURRENCY = 64

const dataDir = mkdtempSync(join(tmpdir(), 'openbell-bench-in-process-'))
const config = loadConfig({ DATA_DIR: dataDir, ISSUER: 'bench.local', HALT_FEED_URL: 'off', LOG_LEVEL: 'info' })
// Request log lines go to a sink, as they would to a log file or journald.
const log = createLogger(config.logLevel, () => {})
const db = openDatabase(config.databasePath)
applyMigrations(db, MIGRATIONS)
const stopCheckpoints = startCheckpoints(db, config.databasePath, log)
const calendars = new CalendarRegistry(config.schedulesDir, log, systemClock)
calendars.reload('boot')
const deps = sqliteDeps({ config, clock: systemClock, log, signer: loadSigner(config, new Date(), log), calendars, db })
const stopAudit = deps.audit.start()
const stopIntegrator = deps.transparency.integrator.start()
deps.meter.start()
const app = buildApp(deps)
const keys = await Promise.all(Array.from({ length: ROUNDS }, async () => (await issueKey(deps.accounts, { plan: 'pro', now: new Date() })).key))

const signer = Signer.fromSeed(new Uint8Array(randomBytes(32)), 'key_bench_v1', '2026-01-01T00:00:00.000Z', null)
const fields = { expires_at: '2026-03-10T15:01:00.000Z', halt_detection: 'active', issued_at: '2026-03-10T15:00:00.000Z', issuer: 'bench.local', mic: 'XNYS', public_key_id: 'key_bench_v1', receipt_id: '00000000-0000-4000-8000-000000000000', receipt_mode: 'live', schema_version: 'v5.0', source: 'SCHEDULE', status: 'OPEN' }
const bare = new Elysia().get('/sign', () => signer.signFields(fields))

async function round(handle: (request: Request) => Response | Promise<Response>, url: string, headers: Record<string, string>): Promise<number> {
  let left = PER_ROUND
  const before = process.cpuUsage()
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (left-- > 0) {
      const response = await handle(new Request(url, { headers }))
      if (response.status !== 200) throw new Error(`${url}: ${response.status} ${await response.text()}`)
      await response.text()
    }
  }))
  const used = process.cpuUsage(before)
  return (used.user + used.system) / PER_ROUND
}

const statusRound = (i: number) => round((request) => app.handle(request), 'http://localhost/v5/status?mic=XNYS', { 'x-oracle-key': keys[i]! })
const bareRound = () => round((request) => bare.handle(request), 'http://localhost/sign', {})

if (process.env.BENCH_PROFILE) {
  for (let i = 0; i < ROUNDS; i++) await statusRound(i)
} else {
  // A warm-up round of each, then alternated rounds.
  await bareRound()
  await statusRound(0)
  const status: number[] = []
  const plain: number[] = []
  for (let i = 1; i < ROUNDS; i++) {
    plain.push(await bareRound())
    status.push(await statusRound(i))
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
  console.log(`CPU per request (median of ${ROUNDS - 1} alternated rounds of ${PER_ROUND}, ${CONCURRENCY} at once): bare signing route ${median(plain).toFixed(1)} µs, GET /v5/status ${median(status).toFixed(1)} µs = ${(median(status) / median(plain)).toFixed(3)} × bare; rounds: bare ${plain.map((v) => v.toFixed(1)).join(' ')} / status ${status.map((v) => v.toFixed(1)).join(' ')}`)
}
await stopIntegrator()
await stopAudit()
await stopCheckpoints()
db.close()
rmSync(dataDir, { recursive: true, force: true })
process.exit(0)
