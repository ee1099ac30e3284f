// The real app (buildApp with real stores on a temp WAL database), with rate limits lifted so
// that the load generator measures the work, not the limiter. Prints a key and the witness
// fixture locations for the load scripts.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildApp } from '../../../src/app'
import { loadConfig } from '../../../src/config'
import { createLogger } from '../../../src/log'
import { systemClock } from '../../../src/clock'
import { openDatabase } from '../../../src/store/database'
import { startCheckpoints } from '../../../src/store/checkpoints'
import { applyMigrations } from '../../../src/store/migrate'
import { MIGRATIONS } from '../../../src/wiring/migrations'
import { loadSigner } from '../../../src/crypto/key-file'
import { issueKey } from '../../../src/accounts/keys'
import { CalendarRegistry } from '../../../src/calendar/registry'
import { RateLimiter } from '../../../src/http/rate-limit'
import { sqliteWitnessStore } from '../../../src/witness/store'
import { checkSubmission } from '../../../src/witness/checks'
import { submitCheckpoint } from '../../../src/witness/service'
import { privateKeyFromSeed, rawPublicKey, signBytes } from '../../../src/crypto/ed25519'
import { jcsFlat } from '../../../src/crypto/canonical'
import { ed25519Jwk, jwkThumbprint } from '../../../src/crypto/jwk'
import { randomBytes } from 'node:crypto'
import { sqliteDeps } from '../../../src/wiring/sqlite'
import { AuditLog } from '../../../src/audit/log'
import { sqliteAuditStore } from '../../../src/audit/store'
import { AnswerCache } from '../../../src/calendar/answer-cache'

/** BENCH_AUDIT=write-behind: the behaviour before the durable log (answer at once, commit later), for the ratio. */
class WriteBehindLog extends AuditLog {
  override append(rows: Parameters<AuditLog['append']>[0]): Promise<void> {
    void super.append(rows).catch(() => {})
    return Promise.resolve()
  }
}

// BENCH_DATA_DIR: a directory prepared by the caller (growth.ts: a log of millions of rows), left in place.
const ownsDataDir = !process.env.BENCH_DATA_DIR
const dataDir = process.env.BENCH_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'openbell-bench-'))
// FREE_DAILY_LIMIT is lifted so that the free key stays within its quota for the whole run (metered, never refused).
// CALENDAR_RATE_PER_MINUTE stays the service's default unless the bench sets it, and so does CLIENT_IP_HEADER (calendar-flood.ts).
const config = loadConfig({ DATA_DIR: dataDir, ISSUER: 'bench.local', HALT_FEED_URL: 'off', WITNESS_ANON_DAILY_CAP: '100000000', MCP_ANON_DAILY_LIMIT: '1000000000', FREE_DAILY_LIMIT: '1000000000', LOG_LEVEL: process.env.LOG_LEVEL ?? 'info', DURABILITY: process.env.DURABILITY ?? 'process', MCP_ANON_RATE_PER_MINUTE: process.env.MCP_ANON_RATE_PER_MINUTE ?? '1000000000', ...(process.env.CALENDAR_RATE_PER_MINUTE ? { CALENDAR_RATE_PER_MINUTE: process.env.CALENDAR_RATE_PER_MINUTE } : {}), ...(process.env.CLIENT_IP_HEADER ? { CLIENT_IP_HEADER: process.env.CLIENT_IP_HEADER } : {}) })
// Request log lines go to a sink, as they would to a log file or journald.
const log = createLogger(config.logLevel, () => {})
const db = openDatabase(config.databasePath, config.durability)
applyMigrations(db, MIGRATIONS)
// As main.ts: WAL checkpoints on a worker thread (BENCH_CHECKPOINTS=loop: on the event loop, for the ratio).
const stopCheckpoints = process.env.BENCH_CHECKPOINTS === 'loop' ? async () => {} : startCheckpoints(db, config.databasePath, log)
const calendars = new CalendarRegistry(config.schedulesDir, log, systemClock)
calendars.reload('boot')
const unlimited = () => new RateLimiter(1_000_000_000)
const deps = sqliteDeps(
  { config, clock: systemClock, log, signer: loadSigner(config, new Date(), log), calendars, db },
  {
    ...(process.env.BENCH_AUDIT === 'write-behind' ? { audit: new WriteBehindLog(sqliteAuditStore(db), log, { flushMs: 250, batchSize: 500 }) } : {}),
    // BENCH_CALENDAR_CACHE=off: every calendar answer built for its request, as before issue 30.
    ...(process.env.BENCH_CALENDAR_CACHE === 'off' ? { calendarAnswers: new AnswerCache({ maxEntries: 0, maxBytes: 0 }) } : {}),
    sampleDoorLimiter: unlimited(), witness: { store: sqliteWitnessStore(db), limiters: { anonymousPost: unlimited(), anonymousGet: unlimited(), authorizedAddress: unlimited(), authorizedAccount: unlimited() } } },
)
const stopAudit = deps.audit.start()
// As main.ts: the transparency log integrates committed receipts in the background every second
// (BENCH_LOG=off: without it, for the ratio).
if (process.env.BENCH_LOG !== 'off') deps.transparency.integrator.start()
const { key } = await issueKey(deps.accounts, { plan: 'pro', now: new Date() })
const { key: freeKey } = await issueKey(deps.accounts, { plan: 'free', now: new Date() })
// More pro keys (BENCH_PAID_KEYS): each has the plan's daily limit, so a long paid-key run takes turns.
const paidKeys = [key]
for (let i = 1; i < Number(process.env.BENCH_PAID_KEYS ?? 1); i++) paidKeys.push((await issueKey(deps.accounts, { plan: 'pro', now: new Date() })).key)
// BENCH_METER=off: every keyed request admitted without counting (the path before metering), for the ratio.
if (process.env.BENCH_METER === 'off') deps.meter.meter = async () => ({ admitted: true, via: 'quota', rate: { limit: 0, remaining: 0, resetAt: 0 }, creditBalance: null, day: '' })
deps.meter.start()

// Witness fixtures, signed with the native implementation (fast enough for tens of thousands).
function checkpointSigner() {
  const privateKey = privateKeyFromSeed(new Uint8Array(randomBytes(32)))
  const jwk = ed25519Jwk(rawPublicKey(privateKey))
  const kid = jwkThumbprint(jwk)
  const body = (count: number, sessionId: string) => {
    const unsigned = { v: 'evidence.action/1', type: 'checkpoint', session_id: sessionId, count, last_entry_hash: `sha256:${count.toString(16).padStart(64, '0')}`, ts: new Date().toISOString(), kid }
    const sig = Buffer.from(signBytes(privateKey, new TextEncoder().encode(jcsFlat(unsigned)))).toString('base64url')
    return { checkpoint: { ...unsigned, sig }, public_key_jwk: jwk }
  }
  return { kid, body }
}

// A session with 500 stored receipts to page, and fresh bodies to POST.
const page = checkpointSigner()
for (let count = 1; count <= 500; count++) {
  const verified = checkSubmission(page.body(count, 'bench-page'))
  if (verified.ok) await submitCheckpoint({ store: deps.witness.store, transactor: deps.transactor, signer: deps.signer, witness: 'bench.local', limits: config.witness }, verified.value, { pool: 'anonymous' }, Date.now())
}
const poster = checkpointSigner()
const bodies = Array.from({ length: Number(process.env.WITNESS_BODIES ?? 60000) }, (_, i) => JSON.stringify(poster.body(i + 1, 'bench-post')))
const bodiesFile = join(dataDir, 'witness-bodies.txt')
writeFileSync(bodiesFile, bodies.join('\n') + '\n')

// One tools/call body, posted over and over (the anonymous allowance is lifted above).
const mcpBodyFile = join(dataDir, 'mcp-status-body.txt')
writeFileSync(mcpBodyFile, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_market_status', arguments: { mic: 'XNYS' } } }) + '\n')
deps.mcpUsage.start()
deps.mcpAllowance.start()

const app = buildApp(deps).listen({ port: Number(process.argv[2] ?? 0), hostname: '127.0.0.1' })
console.log(`READY ${app.server!.port} ${key} ${page.kid} ${bodiesFile} ${mcpBodyFile} ${freeKey} ${paidKeys.join(',')}`)
// The bench owns this temp directory (unless given one): remove it (database, WAL, fixtures) when the run stops it.
process.on('SIGTERM', async () => {
  await stopAudit()
  await stopCheckpoints()
  db.close()
  if (ownsDataDir) rmSync(dataDir, { recursive: true, force: true })
  process.exit(0)
})
