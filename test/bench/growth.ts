// Issue 21, target 2 (`bun test/bench/growth.ts`; BENCH_GROWTH_ROWS, default 10,000,000): how a
// receipt, a proof, a page and a seal cost as the log grows. In this process, on one core: a
// log pre-filled with N live receipts of yesterday (UTC) through the store, then that day sealed
// (tree, signature, leaf index) with a 1 ms probe timer for the longest event-loop pause. Then
// the bench app twice, on that log and on an empty one, measured in alternated rounds next to the
// bare signing route (GET /v5/status with a paid key), and single requests timed on the full one:
// the first and the median of 20 proofs of receipts of the sealed day, and the first page of
// /v5/receipts (the pre-filled rows are the key's own) and of /v5/archive (that day, XNYS).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase } from '../../src/store/database'
import { applyMigrations } from '../../src/store/migrate'
import { MIGRATIONS } from '../../src/wiring/migrations'
import { sqliteAuditStore } from '../../src/audit/store'
import { AuditLog } from '../../src/audit/log'
import { auditTrail } from '../../src/audit/trail'
import { sqliteAccountStore } from '../../src/accounts/store'
import { issueKey } from '../../src/accounts/keys'
import { Signer } from '../../src/crypto/signer'
import { memoryLogger } from '../../src/log'
import { startServer } from './start-server'
import { timedSeal } from './timed-seal'
import { fillDay } from './fill-day'
import { measure, type Load } from './measure'
import { machineLine, writeDocFigures } from './doc-figures'

const ROWS = Number(process.env.BENCH_GROWTH_ROWS ?? 10_000_000)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)

export interface GrowthFigures {
  rows: number
  fillSeconds: number
  sealSeconds: number
  sealLongestPauseMs: number
  bare: Load
  statusEmpty: Load
  statusFull: Load
  proofFirstMs: number
  proofMedianMs: number
  receiptsFirstMs: number
  receiptsMedianMs: number
  archiveFirstMs: number
  archiveMedianMs: number
  /** Seconds the big-log server's transparency integrator took to take in the pre-filled rows (null: BENCH_LOG=off). */
  catchUpSeconds: number | null
  /** Load average (1 min) when each phase ended. */
  load: { fill: number; seal: number; http: number }
}

const loadAverage = async () => Number((await Bun.file('/proc/loadavg').text()).split(' ')[0])

async function timed(url: string, headers: Record<string, string> = {}): Promise<number> {
  const start = performance.now()
  const response = await fetch(url, { headers })
  await response.arrayBuffer()
  if (response.status !== 200) throw new Error(`growth bench: ${url} answered ${response.status}`)
  return performance.now() - start
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

/** First request, then the median of `count` more (each its own URL when `urls` gives several). */
async function firstAndMedian(urls: string[], headers: Record<string, string>, count = 20): Promise<[number, number]> {
  const first = await timed(urls[0]!, headers)
  const rest: number[] = []
  for (let i = 1; i <= count; i++) rest.push(await timed(urls[i % urls.length]!, headers))
  return [first, median(rest)]
}

/** Waits until the server's published checkpoint covers `rows` entries; the seconds it took. */
async function integratorCaughtUp(base: string, rows: number, limitMs = 60 * 60_000): Promise<number> {
  const started = performance.now()
  for (;;) {
    const response = await fetch(`${base}/log/checkpoint`)
    // A C2SP checkpoint: origin, tree size, root hash, then the signatures.
    const size = response.ok ? Number((await response.text()).split('\n')[1]) : 0
    if (size >= rows) return (performance.now() - started) / 1000
    if (performance.now() - started > limitMs) throw new Error(`growth bench: the transparency log reached ${size} of ${rows} entries in ${limitMs / 60_000} minutes`)
    await Bun.sleep(1_000)
  }
}

export async function growthBench(rows = ROWS): Promise<GrowthFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'openbell-bench-growth-'))
  try {
    const db = openDatabase(join(dir, 'openbell.sqlite'))
    applyMigrations(db, MIGRATIONS)
    const { key, account } = await issueKey(sqliteAccountStore(db), { plan: 'pro', now: new Date() })
    const keyHash = account.key_hash
    // Yesterday's receipts, as live ones are logged: ~420-byte bodies, 28 venues in turn.
    const now = Date.now()
    const dayStart = Math.floor(now / 86_400_000) * 86_400_000 - 86_400_000
    const day = new Date(dayStart).toISOString().slice(0, 10)
    const store = sqliteAuditStore(db)
    const fillStart = performance.now()
    const sample = await fillDay(store, { dayStart, receipts: rows, keyHash, samples: 25 })
    const fillSeconds = (performance.now() - fillStart) / 1000
    db.run('PRAGMA wal_checkpoint(TRUNCATE)')
    const load = { fill: await loadAverage(), seal: 0, http: 0 }

    // Seal that day as the service does a few seconds after midnight.
    const log = memoryLogger('error')
    const signer = Signer.fromSeed(new Uint8Array(32).fill(7), 'key_bench_v1', '2026-01-01T00:00:00.000Z', null)
    const audit = new AuditLog(store, log)
    const clock = { now: () => dayStart + 86_400_000 + 60_000 }
    const trail = auditTrail({ audit, signer, issuer: 'bench.local', clock, log, retentionDays: 35 })
    await trail.sealer.startedOn()
    const { sealed, sealSeconds, longestPauseMs } = await timedSeal(trail)
    if (sealed.join() !== day) throw new Error(`growth bench: expected ${day} sealed, got ${sealed.join(',')}`)
    db.run('PRAGMA wal_checkpoint(TRUNCATE)')
    db.close()
    load.seal = await loadAverage()

    // The app on that log and on an empty one, alternated with the bare signing route.
    const bare = await startServer('bare-sign.ts')
    const full = await startServer('app.ts', { WITNESS_BODIES: '10', BENCH_DATA_DIR: dir })
    const empty = await startServer('app.ts', { WITNESS_BODIES: '10' })
    const runs: Record<'bare' | 'full' | 'empty', Load[]> = { bare: [], full: [], empty: [] }
    let singles: [number, number][] = []
    let catchUpSeconds: number | null = null
    try {
      const base = `http://127.0.0.1:${full.fields[0]}`
      const headers = { 'X-Oracle-Key': key }
      // Cold first: nothing of the big log has been read by this server yet.
      singles = [
        await firstAndMedian(sample.map((id) => `${base}/v5/audit/proof?receipt_id=${id}`), {}),
        await firstAndMedian([`${base}/v5/receipts?limit=50`], headers),
        await firstAndMedian([`${base}/v5/archive?mic=XNYS&date=${day}`], headers),
      ]
      // The rows were written straight into the store, so the big-log server's transparency log
      // starts that many entries behind; a served log takes them in as they come. Measured once it
      // has caught up, as a running service with that log would be (else the rounds measure the backlog).
      catchUpSeconds = process.env.BENCH_LOG === 'off' ? null : await integratorCaughtUp(base, rows)
      for (let round = 0; round < ROUNDS; round++) {
        runs.bare.push(await measure(`http://127.0.0.1:${bare.fields[0]}/sign`, { pid: bare.pid }))
        runs.empty.push(await measure(`http://127.0.0.1:${empty.fields[0]}/v5/status?mic=XNYS`, { headers: { 'X-Oracle-Key': empty.fields[1]! }, pid: empty.pid }))
        runs.full.push(await measure(`${base}/v5/status?mic=XNYS`, { headers: { 'X-Oracle-Key': full.fields[1]! }, pid: full.pid }))
      }
    } finally {
      await bare.stop()
      await full.stop()
      await empty.stop()
    }
    load.http = await loadAverage()
    const mean = (list: Load[]): Load => ({
      rps: list.reduce((sum, l) => sum + l.rps, 0) / list.length,
      p99Ms: Math.max(...list.map((l) => l.p99Ms ?? 0)),
      non2xx: list.reduce((sum, l) => sum + l.non2xx, 0),
      requests: list.reduce((sum, l) => sum + l.requests, 0),
      loopCpuUs: list.reduce((sum, l) => sum + (l.loopCpuUs ?? 0), 0) / list.length,
      processCpuUs: list.reduce((sum, l) => sum + (l.processCpuUs ?? 0), 0) / list.length,
    })
    const [[proofFirstMs, proofMedianMs], [receiptsFirstMs, receiptsMedianMs], [archiveFirstMs, archiveMedianMs]] = singles as [[number, number], [number, number], [number, number]]
    return { rows, fillSeconds, sealSeconds, sealLongestPauseMs: longestPauseMs, bare: mean(runs.bare), statusEmpty: mean(runs.empty), statusFull: mean(runs.full), proofFirstMs, proofMedianMs, receiptsFirstMs, receiptsMedianMs, archiveFirstMs, archiveMedianMs, catchUpSeconds, load }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

export function growthRows(g: GrowthFigures): string[] {
  const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })
  const rows = fmt(g.rows)
  const flat = g.statusFull.rps / g.statusEmpty.rps
  const ms = (first: number, median: number) => `first ${fmt(first, 1)} ms, median of 20 ${fmt(median, 1)} ms`
  return [
    '| measure | figure | target | met |',
    '|---|---|---|---|',
    `| fill: ${rows} live receipts of one day through the store (batches of 10,000) | ${fmt(g.fillSeconds)} s = ${fmt(g.rows / g.fillSeconds)} rows/s (load ${g.load.fill}) | | |`,
    `| seal that day of ${rows} receipts (tree, signature, leaf index; one core) | ${fmt(g.sealSeconds, 1)} s (load ${g.load.seal}) | < 100 s | ${g.sealSeconds < 100 ? 'yes' : 'NO'} |`,
    `| longest event-loop pause while sealing it | ${fmt(g.sealLongestPauseMs, 1)} ms | < 250 ms | ${g.sealLongestPauseMs < 250 ? 'yes' : 'NO'} |`,
    `| the big-log server's transparency log taking in the ${rows} pre-filled rows before the rounds | ${g.catchUpSeconds === null ? 'not run (BENCH_LOG=off)' : `${fmt(g.catchUpSeconds, 1)} s`} | | |`,
    `| GET /v5/status (paid key) with ${rows} rows in the log / empty log (alternated rounds) | ${fmt(g.statusFull.rps)} / ${fmt(g.statusEmpty.rps)} req/s = ${flat.toFixed(3)}; of bare signing ${(g.statusFull.rps / g.bare.rps).toFixed(3)} / ${(g.statusEmpty.rps / g.bare.rps).toFixed(3)}; event-loop CPU ${fmt(g.statusFull.loopCpuUs ?? 0, 1)} / ${fmt(g.statusEmpty.loopCpuUs ?? 0, 1)} µs per request (load ${g.load.http}) | >= 0.95 | ${flat >= 0.95 ? 'yes' : 'NO'} |`,
    `| GET /v5/audit/proof, receipts of the sealed day of ${rows} | ${ms(g.proofFirstMs, g.proofMedianMs)} | < 20 ms | ${g.proofMedianMs < 20 ? 'yes' : 'NO'} |`,
    `| GET /v5/receipts first page (50; the key owns the ${rows} rows) | ${ms(g.receiptsFirstMs, g.receiptsMedianMs)} | < 20 ms | ${g.receiptsMedianMs < 20 ? 'yes' : 'NO'} |`,
    `| GET /v5/archive first page (XNYS, that day: ${fmt(Math.ceil(g.rows / 28))} rows of the venue) | ${ms(g.archiveFirstMs, g.archiveMedianMs)} | < 20 ms | ${g.archiveMedianMs < 20 ? 'yes' : 'NO'} |`,
  ]
}

if (import.meta.main) {
  const rows = growthRows(await growthBench())
  for (const row of rows) console.log(row)
  writeDocFigures('growth', `${machineLine()} (\`bun test/bench/growth.ts\`, BENCH_GROWTH_ROWS)`, rows)
}
