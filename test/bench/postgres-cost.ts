// Where a GET /v5/status on PostgreSQL spends its CPU, against the same on SQLite in alternated
// rounds (`bun test/bench/postgres-cost.ts`; not part of `bun run bench`, it writes no figures):
// the CPU of every thread of each node (/proc/<pid>/task/*/stat: the event loop is the main
// thread), of every PostgreSQL server process by kind, the statements that cost the server most
// (pg_stat_statements), and commits and WAL flushes per request. The breakdown quoted under
// "Scale-out (issue 23)" in docs/performance.md comes from it.
import { SQL } from 'bun'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import { startCluster } from '../helpers/postgres-cluster'
import { startService, type RunningService } from '../helpers/process'
import { load } from './measure'
import { SERVER_SETTINGS } from './scale-out'
import { issueKey } from '../../src/accounts/keys'
import { postgresAccountStore } from '../../src/accounts/store-postgres'
import { sqliteAccountStore } from '../../src/accounts/store'
import { openDatabase } from '../../src/store/database'

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const clockTicks = Number(Bun.spawnSync(['getconf', 'CLK_TCK']).stdout.toString().trim()) || 100

function stat(path: string): { name: string; parent: number; cpuUs: number } | null {
  try {
    const text = readFileSync(path, 'utf8')
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ')
    return { name: text.slice(text.indexOf('(') + 1, text.lastIndexOf(')')), parent: Number(fields[1]), cpuUs: ((Number(fields[11]) + Number(fields[12])) * 1e6) / clockTicks }
  } catch {
    return null // gone meanwhile
  }
}

const add = (sums: Map<string, number>, name: string, us: number) => sums.set(name, (sums.get(name) ?? 0) + us)

/** CPU time (µs) of each thread of a process, by thread name ('event loop' for the main thread). */
function threadCpu(pid: number): Map<string, number> {
  const sums = new Map<string, number>()
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    const thread = stat(`/proc/${pid}/task/${task}/stat`)
    if (thread) add(sums, task === String(pid) ? 'event loop' : thread.name, thread.cpuUs)
  }
  return sums
}

/** CPU time (µs) of a PostgreSQL server's processes by kind (backend, walwriter, checkpointer…). */
function serverCpu(postmaster: number): Map<string, number> {
  const sums = new Map<string, number>()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    const process = stat(`/proc/${entry}/stat`)
    if (!process || (Number(entry) !== postmaster && process.parent !== postmaster)) continue
    let command = ''
    try {
      command = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ')
    } catch {
      continue
    }
    add(sums, Number(entry) === postmaster ? 'postmaster' : command.includes('postgres: postgres ') ? 'backend' : command.replace(/^postgres: /, '').trim(), process.cpuUs)
  }
  return sums
}

/** µs per request of each entry that grew, largest first. */
const perRequest = (before: Map<string, number>, after: Map<string, number>, requests: number) =>
  [...after].map(([name, us]) => [name, (us - (before.get(name) ?? 0)) / requests] as const).filter(([, us]) => us >= 0.5).sort((a, b) => b[1] - a[1]).map(([name, us]) => `${name} ${us.toFixed(1)}`).join(', ')

const dir = mkdtempSync(join(tmpdir(), 'openbell-bench-postgres-cost-'))
const cluster = startCluster({ serverDefaults: true, settings: { ...SERVER_SETTINGS, shared_preload_libraries: 'pg_stat_statements' } })
const services: RunningService[] = []
try {
  const admin = new SQL({ url: cluster.url('postgres'), max: 1 })
  await admin.unsafe('CREATE DATABASE openbell')
  await admin.close()
  const url = cluster.url('openbell')
  const keyFile = join(dir, 'signing-key.hex')
  writeFileSync(keyFile, randomBytes(32).toString('hex'), { mode: 0o600 })
  const common = { SIGNING_KEY_FILE: keyFile, PUBLIC_KEY_ID: 'key_bench_v1', ISSUER: 'bench.local', LOG_LEVEL: 'warn' }
  const sqliteNode = await startService({ ...common, DATA_DIR: join(dir, 'sqlite') }, { startMs: 120_000 })
  services.push(sqliteNode)
  const postgresNode = await startService({ ...common, DATA_DIR: join(dir, 'postgres'), DATABASE_URL: url, NODE_ID: 'cost' }, { startMs: 120_000 })
  services.push(postgresNode)
  const sql = new SQL({ url, max: 1 })
  await sql`CREATE EXTENSION pg_stat_statements`
  const postmaster = Number(readFileSync(join(cluster.dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0])
  // A pro key per run: a key's day (200,000 requests) is a few runs.
  const sqliteKey = async () => {
    const db = openDatabase(join(dir, 'sqlite', 'openbell.sqlite'))
    try {
      return (await issueKey(sqliteAccountStore(db), { plan: 'pro', now: new Date() })).key
    } finally {
      db.close()
    }
  }
  const postgresKey = async () => (await issueKey(postgresAccountStore(sql), { plan: 'pro', now: new Date() })).key
  /** A warm-up second, `afterWarmUp`, then the measured run. */
  const run = async (node: RunningService, key: string, afterWarmUp = async () => {}) => {
    const url = `${node.base}/v5/status?mic=XNYS`
    await load(url, { headers: { 'X-Oracle-Key': key }, seconds: 1 })
    await afterWarmUp()
    const threads = threadCpu(node.process.pid!)
    const result = await load(url, { headers: { 'X-Oracle-Key': key } })
    return { result, threads: perRequest(threads, threadCpu(node.process.pid!), result.requests) }
  }
  console.log(`load average ${loadavg().map((n) => n.toFixed(2)).join(', ')}`)
  for (let round = 0; round < ROUNDS; round++) {
    const sqlite = await run(sqliteNode, await sqliteKey())
    console.log(`round ${round + 1}\n  SQLite: ${sqlite.result.rps.toFixed(0)} req/s (${sqlite.result.non2xx} non-2xx); node µs per request: ${sqlite.threads}`)
    const commits = async () => Number((await sql`SELECT xact_commit::float8 AS n FROM pg_stat_database WHERE datname = 'openbell'`)[0].n)
    let [commitsBefore, serverBefore] = [0, new Map<string, number>()]
    const postgres = await run(postgresNode, await postgresKey(), async () => {
      await sql`SELECT pg_stat_statements_reset()`
      await sql`SELECT pg_stat_reset_shared('wal')`
      ;[commitsBefore, serverBefore] = [await commits(), serverCpu(postmaster)]
    })
    const n = postgres.result.requests
    const [commitsAfter, serverAfter] = [await commits(), serverCpu(postmaster)]
    const [wal] = await sql`SELECT wal_sync::float8 AS syncs, wal_bytes::float8 AS bytes FROM pg_stat_wal`
    console.log(`  PostgreSQL: ${postgres.result.rps.toFixed(0)} req/s (${postgres.result.non2xx} non-2xx), ÷ SQLite ${(postgres.result.rps / sqlite.result.rps).toFixed(3)}; node µs per request: ${postgres.threads}; server µs per request: ${perRequest(serverBefore, serverAfter, n)}`)
    console.log(`  per request: ${((commitsAfter - commitsBefore) / n).toFixed(3)} commits, ${(wal.syncs / n).toFixed(3)} WAL flushes, ${(wal.bytes / n).toFixed(0)} WAL bytes`)
    const statements = await sql`SELECT calls::float8 AS calls, total_exec_time::float8 AS ms, rows::float8 AS rows, left(regexp_replace(query, '\s+', ' ', 'g'), 80) AS query
      FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = 'openbell') ORDER BY total_exec_time DESC LIMIT 6`
    for (const row of statements) console.log(`    ${((row.ms * 1000) / n).toFixed(1)} µs, ${(row.calls / n).toFixed(4)} calls, ${(row.rows / row.calls).toFixed(0)} rows a call: ${row.query}`)
  }
  console.log(`load average ${loadavg().map((n) => n.toFixed(2)).join(', ')}`)
  await sql.close()
} finally {
  for (const service of services) service.process.kill('SIGKILL')
  cluster.destroy()
  rmSync(dir, { recursive: true, force: true })
}
process.exit(0)
