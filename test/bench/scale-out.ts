// `bun run bench`, scale-out part (issue 23; alone: `bun test/bench/scale-out.ts`): the real
// service (`bun src/main.ts`) on a local PostgreSQL against the same on SQLite, measured
// alternately in one run; two nodes on one PostgreSQL against one node; and sealing a day of
// 1,000,000 receipts on PostgreSQL. The cluster runs with PostgreSQL's own durability settings
// (fsync and synchronous commit on), as a server would. Figures go to docs/performance.md
// between the scale-out markers.
import { SQL } from 'bun'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir, totalmem } from 'node:os'
import { join, resolve } from 'node:path'
import { randomBytes } from 'node:crypto'
import { startCluster, type Cluster } from '../helpers/postgres-cluster'
import { startService, type RunningService } from '../helpers/process'
import { CONNECTIONS, generatorName, load, loopCpuUs, meanLoad, type Load } from './measure'
import { appendDay } from './audit'
import { timedSeal } from './timed-seal'
import { openDatabase } from '../../src/store/database'
import { applyPostgresMigrations } from '../../src/store/postgres-migrate'
import { MIGRATIONS } from '../../src/wiring/migrations'
import { issueKey } from '../../src/accounts/keys'
import { sqliteAccountStore } from '../../src/accounts/store'
import { postgresAccountStore } from '../../src/accounts/store-postgres'
import { postgresAuditStore } from '../../src/audit/store-postgres'
import { AuditLog } from '../../src/audit/log'
import { auditTrail } from '../../src/audit/trail'
import { DayTrees } from '../../src/audit/day-tree'
import { verifyInclusion } from '../../src/audit/merkle'
import { Signer } from '../../src/crypto/signer'
import { memoryLogger } from '../../src/log'

export const SERVER_SETTINGS = { shared_buffers: '1GB', max_wal_size: '4GB' }

/** One alternated measure: requests per second, and CPU per request of the node's event loop, the node's whole process and the database server. */
export interface CostedLoad extends Load {
  processCpuUs: number | null
  databaseCpuUs: number | null
}

export interface ScaleOutFigures {
  rounds: number
  sqlite: CostedLoad
  postgres: CostedLoad
  oneNode: CostedLoad
  twoNodes: CostedLoad
  seal: { receipts: number; insertPerSecond: number; seconds: number; longestPauseMs: number; proofMs: number }
  /** The machine's load averages (1, 5, 15 min, as `uptime` shows them) when the part started and ended. */
  load: { before: number[]; after: number[] }
}

const clockTicks = Number(Bun.spawnSync(['getconf', 'CLK_TCK']).stdout.toString().trim()) || 100
/** CPU time (µs) of a whole process (every thread), from /proc. */
function processCpuUs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / clockTicks
  } catch {
    return 0
  }
}

/** CPU time (µs) of a PostgreSQL server: the postmaster and every process it started. */
function clusterCpuUs(cluster: Cluster): number {
  const postmaster = Number(readFileSync(join(cluster.dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0])
  let total = processCpuUs(postmaster)
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]!.split(' ')
      if (Number(stat[1]) === postmaster) total += processCpuUs(Number(entry))
    } catch {
      // gone meanwhile
    }
  }
  return total
}

/**
 * Loads every target at once (each with its share of the connections) after a warm-up second;
 * requests per second summed, CPU per request of the nodes (summed over nodes) and the database.
 */
async function measureNodes(targets: { url: string; pid: number }[], headers: Record<string, string>, cluster: Cluster | null): Promise<CostedLoad> {
  const connections = Math.floor(CONNECTIONS / targets.length)
  await Promise.all(targets.map((target) => load(target.url, { headers, seconds: 1, connections })))
  const loopBefore = targets.map((target) => loopCpuUs(target.pid) ?? 0)
  const processBefore = targets.map((target) => processCpuUs(target.pid))
  const databaseBefore = cluster ? clusterCpuUs(cluster) : 0
  const results = await Promise.all(targets.map((target) => load(target.url, { headers, connections })))
  const loopAfter = targets.map((target) => loopCpuUs(target.pid) ?? 0)
  const processAfter = targets.map((target) => processCpuUs(target.pid))
  const databaseAfter = cluster ? clusterCpuUs(cluster) : 0
  const requests = results.reduce((sum, result) => sum + result.requests, 0)
  const sum = (after: number[], before: number[]) => after.reduce((total, value, i) => total + value - before[i]!, 0)
  return {
    rps: results.reduce((total, result) => total + result.rps, 0),
    p99Ms: Math.max(...results.map((result) => result.p99Ms ?? 0)),
    non2xx: results.reduce((total, result) => total + result.non2xx, 0),
    requests,
    loopCpuUs: requests ? sum(loopAfter, loopBefore) / requests : null,
    processCpuUs: requests ? sum(processAfter, processBefore) / requests : null,
    databaseCpuUs: cluster && requests ? (databaseAfter - databaseBefore) / requests : null,
  }
}

function meanCosted(runs: CostedLoad[]): CostedLoad {
  const mean = (values: (number | null)[]) => (values.every((value) => value !== null) ? (values as number[]).reduce((a, b) => a + b, 0) / values.length : null)
  return { ...meanLoad(runs), processCpuUs: mean(runs.map((run) => run.processCpuUs)), databaseCpuUs: mean(runs.map((run) => run.databaseCpuUs)) }
}

/** Seals a day of `receipts` receipts on the PostgreSQL database at `url` (appended through the log first); a cold proof in it, checked. */
export async function postgresSealBench(url: string, receipts: number): Promise<ScaleOutFigures['seal']> {
  const sql = new SQL({ url, max: 10 })
  try {
    await applyPostgresMigrations(sql, MIGRATIONS)
    const clock = { ms: Date.parse('2026-03-09T00:00:00.000Z'), now() { return this.ms } }
    const log = memoryLogger('error')
    const signer = Signer.fromSeed(new Uint8Array(32).fill(7), 'key_bench_v1', '2026-01-01T00:00:00.000Z', null)
    const audit = new AuditLog(postgresAuditStore(sql), log, { batchSize: 1000 })
    const trail = auditTrail({ audit, signer, issuer: 'bench.local', clock, log, retentionDays: 35 })
    await trail.sealer.startedOn()
    const insertStart = performance.now()
    const ids = await appendDay(audit, receipts, clock.ms)
    const insertPerSecond = receipts / ((performance.now() - insertStart) / 1000)
    clock.ms = Date.parse('2026-03-10T00:01:00.000Z')
    const seal = await timedSeal(trail)
    if (seal.sealed.length !== 1) throw new Error(`expected one sealed day, got ${seal.sealed.join(',')}`)
    const target = ids[Math.floor(receipts * 0.77)]!
    const proofStart = performance.now()
    const leaf = (await audit.store.sealedLeaf(target))!
    const trees = new DayTrees(audit.store)
    const tree = await trees.tree(leaf.date)
    const path = await trees.path(leaf.date, tree, leaf.leaf_index)
    const proofMs = performance.now() - proofStart
    if (!verifyInclusion(target, leaf.leaf_index, receipts, path, (await audit.store.digest(leaf.date))!.merkle_root)) throw new Error('bench proof does not verify')
    return { receipts, insertPerSecond, seconds: seal.sealSeconds, longestPauseMs: seal.longestPauseMs, proofMs }
  } finally {
    await sql.close()
  }
}

export async function scaleOutBench(options: { rounds?: number; sealReceipts?: number } = {}): Promise<ScaleOutFigures> {
  const rounds = options.rounds ?? Number(process.env.BENCH_SCALE_OUT_ROUNDS ?? 2)
  const sealReceipts = options.sealReceipts ?? Number(process.env.BENCH_AUDIT_RECEIPTS ?? 1_000_000)
  const loadBefore = loadavg()
  const dir = mkdtempSync(join(tmpdir(), 'openbell-bench-scale-out-'))
  // PostgreSQL's durability settings as shipped; memory sized for a server of this machine's RAM
  // (the shipped 128 MB of shared buffers and 1 GB of WAL between checkpoints are for small machines).
  const cluster = startCluster({ serverDefaults: true, settings: SERVER_SETTINGS })
  const services: RunningService[] = []
  try {
    const admin = new SQL({ url: cluster.url('postgres'), max: 1 })
    await admin.unsafe('CREATE DATABASE openbell')
    await admin.unsafe('CREATE DATABASE sealing')
    await admin.close()
    const url = cluster.url('openbell')
    const keyFile = join(dir, 'signing-key.hex')
    writeFileSync(keyFile, randomBytes(32).toString('hex'), { mode: 0o600 })
    // As main.ts runs them; request logs off (warn), as the other HTTP figures send them to a sink.
    const common = { SIGNING_KEY_FILE: keyFile, PUBLIC_KEY_ID: 'key_bench_v1', ISSUER: 'bench.local', LOG_LEVEL: 'warn' }
    const start = async (env: Record<string, string>) => {
      const service = await startService({ ...common, ...env }, { startMs: 120_000 })
      services.push(service)
      return service
    }
    const sqliteNode = await start({ DATA_DIR: join(dir, 'sqlite') })
    const nodeA = await start({ DATA_DIR: join(dir, 'a'), DATABASE_URL: url, NODE_ID: 'bench-a' })
    // A pro key per measured run (its warm-up second and its run): a key's day allows 200,000
    // requests, fewer than three runs at 14,000 req/s, and refused requests would be measured.
    const sqliteKey = async () => {
      const db = openDatabase(join(dir, 'sqlite', 'openbell.sqlite'))
      try {
        return (await issueKey(sqliteAccountStore(db), { plan: 'pro', now: new Date() })).key
      } finally {
        db.close()
      }
    }
    const sql = new SQL({ url, max: 2 })
    const postgresKey = async () => (await issueKey(postgresAccountStore(sql), { plan: 'pro', now: new Date() })).key
    const target = (service: RunningService) => ({ url: `${service.base}/v5/status?mic=XNYS`, pid: service.process.pid })

    // PostgreSQL ÷ SQLite: one node each, alternated so that the machine's noise falls on both alike.
    const sqliteRuns: CostedLoad[] = []
    const postgresRuns: CostedLoad[] = []
    for (let round = 0; round < rounds; round++) {
      sqliteRuns.push(await measureNodes([target(sqliteNode)], { 'X-Oracle-Key': await sqliteKey() }, null))
      postgresRuns.push(await measureNodes([target(nodeA)], { 'X-Oracle-Key': await postgresKey() }, cluster))
    }
    const sqliteStopped = services.shift()!
    sqliteStopped.process.kill('SIGTERM')
    await sqliteStopped.process.exited

    // Two nodes on one database (the connections split between them) ÷ one node.
    const nodeB = await start({ DATA_DIR: join(dir, 'b'), DATABASE_URL: url, NODE_ID: 'bench-b' })
    const oneRuns: CostedLoad[] = []
    const twoRuns: CostedLoad[] = []
    for (let round = 0; round < rounds; round++) {
      oneRuns.push(await measureNodes([target(nodeA)], { 'X-Oracle-Key': await postgresKey() }, cluster))
      twoRuns.push(await measureNodes([target(nodeA), target(nodeB)], { 'X-Oracle-Key': await postgresKey() }, cluster))
    }
    await sql.close()
    for (const service of services.splice(0)) {
      service.process.kill('SIGTERM')
      await service.process.exited
    }
    // After the HTTP runs: a million rows would disturb them.
    const seal = await postgresSealBench(cluster.url('sealing'), sealReceipts)
    return { rounds, sqlite: meanCosted(sqliteRuns), postgres: meanCosted(postgresRuns), oneNode: meanCosted(oneRuns), twoNodes: meanCosted(twoRuns), seal, load: { before: loadBefore, after: loadavg() } }
  } finally {
    for (const service of services) service.process.kill('SIGKILL')
    cluster.destroy()
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The table rows of the scale-out figures. */
export function scaleOutRows(f: ScaleOutFigures): string[] {
  const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })
  const us = (n: number | null | undefined) => (n === null || n === undefined ? 'n/a' : `${fmt(n, 1)} µs`)
  const cost = (l: CostedLoad) => `event loop ${us(l.loopCpuUs)}, process ${us(l.processCpuUs)}${l.databaseCpuUs === null ? '' : `, PostgreSQL ${us(l.databaseCpuUs)}`}`
  const errors = (l: CostedLoad) => (l.non2xx ? `, ${fmt(l.non2xx)} non-2xx` : '')
  const ratio = f.postgres.rps / f.sqlite.rps
  return [
    '| measure | figure | target | met |',
    '|---|---|---|---|',
    `| GET /v5/status (pro key), one node on SQLite (mean of ${f.rounds} runs, alternated with the next row) | ${fmt(f.sqlite.rps)} req/s, p99 ${fmt(f.sqlite.p99Ms ?? 0, 2)} ms${errors(f.sqlite)} | | |`,
    `| GET /v5/status (pro key), one node on PostgreSQL (same run) | ${fmt(f.postgres.rps)} req/s, p99 ${fmt(f.postgres.p99Ms ?? 0, 2)} ms${errors(f.postgres)} | | |`,
    `| GET /v5/status PostgreSQL ÷ SQLite | ${ratio.toFixed(3)} | >= 0.7 | ${ratio >= 0.7 ? 'yes' : 'NO'} |`,
    `| CPU per request, SQLite node | ${cost(f.sqlite)} | | |`,
    `| CPU per request, PostgreSQL node | ${cost(f.postgres)} | | |`,
    `| GET /v5/status, one node on PostgreSQL (${CONNECTIONS} connections; mean of ${f.rounds} runs, alternated with the next row) | ${fmt(f.oneNode.rps)} req/s, p99 ${fmt(f.oneNode.p99Ms ?? 0, 2)} ms${errors(f.oneNode)} | | |`,
    `| GET /v5/status, two nodes on one PostgreSQL (${CONNECTIONS / 2} connections each, at once) | ${fmt(f.twoNodes.rps)} req/s, p99 ${fmt(f.twoNodes.p99Ms ?? 0, 2)} ms${errors(f.twoNodes)} | | |`,
    `| two nodes ÷ one node | ${(f.twoNodes.rps / f.oneNode.rps).toFixed(3)} | | |`,
    `| CPU per request, one node / two nodes (both nodes summed) | ${cost(f.oneNode)} / ${cost(f.twoNodes)} | | |`,
    `| audit on PostgreSQL: append ${fmt(f.seal.receipts)} receipts through the log (batches of 1,000) | ${fmt(f.seal.insertPerSecond)} rows/s | | |`,
    `| audit on PostgreSQL: seal a day of ${fmt(f.seal.receipts)} receipts (close the day, root, signature, leaf index) | ${fmt(f.seal.seconds, 2)} s | < 20 s | ${f.seal.seconds < 20 ? 'yes' : 'NO'} |`,
    `| audit on PostgreSQL: longest pause of the event loop while sealing that day / first proof in it after a restart | ${fmt(f.seal.longestPauseMs, 1)} ms / ${fmt(f.seal.proofMs)} ms | | |`,
    `| machine load average (1, 5, 15 min) when this part started / ended (2 cores; other sessions share the machine) | ${f.load.before.map((n) => n.toFixed(2)).join(', ')} / ${f.load.after.map((n) => n.toFixed(2)).join(', ')} | | |`,
  ]
}

/** Writes the rows between the scale-out markers of docs/performance.md. */
export function writeScaleOutFigures(rows: string[], header: string): void {
  const path = resolve(import.meta.dir, '../../docs/performance.md')
  const doc = readFileSync(path, 'utf8')
  const start = '<!-- bench-scale-out:start -->'
  const end = '<!-- bench-scale-out:end -->'
  if (!doc.includes(start) || !doc.includes(end)) return
  writeFileSync(path, `${doc.slice(0, doc.indexOf(start) + start.length)}\n${header}\n\n${rows.join('\n')}\n${doc.slice(doc.indexOf(end))}`)
}

export const scaleOutHeader = (note: string) => `Machine: ${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM; Bun ${Bun.version}; PostgreSQL ${postgresVersion()} (local; fsync, full-page writes and synchronous commit on; ${Object.entries(SERVER_SETTINGS).map(([name, value]) => `${name}=${value}`).join(', ')}); load generator: ${generatorName()}; run ${new Date().toISOString()} ${note}`

function postgresVersion(): string {
  for (const version of ['17', '16', '15', '14']) {
    const binary = `/usr/lib/postgresql/${version}/bin/postgres`
    // "postgres (PostgreSQL) 15.18 (Debian 15.18-0+deb12u1)"
    if (existsSync(binary)) return /\(PostgreSQL\) (\S+)/.exec(Bun.spawnSync([binary, '--version']).stdout.toString())?.[1] ?? version
  }
  return 'unknown'
}

if (import.meta.main) {
  const rows = scaleOutRows(await scaleOutBench())
  for (const row of rows) console.log(row)
  writeScaleOutFigures(rows, scaleOutHeader('(`bun test/bench/scale-out.ts`, also part of `bun run bench`)'))
  process.exit(0)
}
