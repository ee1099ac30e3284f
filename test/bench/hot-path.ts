// Issue 21, target 1 (`bun test/bench/hot-path.ts`, also run by `bun run bench`): GET /v5/status
// with a paid key and GET /v5/batch of 5 venues against the bare signing route, the servers up
// together and measured in alternated rounds so that the machine's noise falls on all alike.
// Reports requests per second, p99 and the event loop's CPU per request (from /proc).
import { startServer } from './start-server'
import { CONNECTIONS, SECONDS, meanLoad, measure, type Load } from './measure'
import { machineLine, writeDocFigures } from './doc-figures'

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const BATCH_MICS = 'XNYS,XNAS,XLON,XPAR,XJPX'

export interface HotPath {
  bare: Load
  status: Load
  batch: Load
  rounds: number
}

export async function hotPathBench(env: Record<string, string> = {}): Promise<HotPath> {
  const bare = await startServer('bare-sign.ts')
  // A pro key per round and surface: one key's daily limit (200,000) is a few seconds of load.
  const app = await startServer('app.ts', { WITNESS_BODIES: '10', BENCH_PAID_KEYS: String(2 * ROUNDS), ...env })
  const keys = app.fields[6]!.split(',')
  const runs: Record<'bare' | 'status' | 'batch', Load[]> = { bare: [], status: [], batch: [] }
  try {
    for (let round = 0; round < ROUNDS; round++) {
      runs.bare.push(await measure(`http://127.0.0.1:${bare.fields[0]}/sign`, { pid: bare.pid }))
      runs.status.push(await measure(`http://127.0.0.1:${app.fields[0]}/v5/status?mic=XNYS`, { headers: { 'X-Oracle-Key': keys[2 * round]! }, pid: app.pid }))
      runs.batch.push(await measure(`http://127.0.0.1:${app.fields[0]}/v5/batch?mics=${BATCH_MICS}`, { headers: { 'X-Oracle-Key': keys[2 * round + 1]! }, pid: app.pid }))
    }
  } finally {
    await bare.stop()
    await app.stop()
  }
  return { bare: meanLoad(runs.bare), status: meanLoad(runs.status), batch: meanLoad(runs.batch), rounds: ROUNDS }
}

export function hotPathRows(result: HotPath): string[] {
  const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })
  const cpu = (l: Load) => `event-loop CPU ${fmt(l.loopCpuUs ?? 0, 1)} µs, whole process ${fmt(l.processCpuUs ?? 0, 1)} µs per request`
  const statusRatio = result.status.rps / result.bare.rps
  const batchRatio = (result.batch.rps * 5) / result.bare.rps
  return [
    '| measure | figure | target | met |',
    '|---|---|---|---|',
    `| bare signing route | ${fmt(result.bare.rps)} req/s, p99 ${fmt(result.bare.p99Ms ?? 0, 2)} ms; ${cpu(result.bare)} | | |`,
    `| GET /v5/status, paid key (metered, answered after its row commits) | ${fmt(result.status.rps)} req/s = ${statusRatio.toFixed(3)} of bare signing, p99 ${fmt(result.status.p99Ms ?? 0, 2)} ms; ${cpu(result.status)} | >= 0.85; p99 < 25 ms at 64 connections | ${statusRatio >= 0.85 && (result.status.p99Ms ?? 0) < 25 ? 'yes' : 'NO'} |`,
    `| GET /v5/batch of 5 venues, paid key: signed receipts per second | ${fmt(result.batch.rps * 5)} /s (${fmt(result.batch.rps)} req/s) = ${batchRatio.toFixed(3)} of bare signing, p99 ${fmt(result.batch.p99Ms ?? 0, 2)} ms; ${cpu(result.batch)} | >= 0.85 | ${batchRatio >= 0.85 ? 'yes' : 'NO'} |`,
    `| event-loop CPU per signature: bare / /v5/status / /v5/batch (5) | ${fmt(result.bare.loopCpuUs ?? 0, 1)} / ${fmt(result.status.loopCpuUs ?? 0, 1)} / ${fmt((result.batch.loopCpuUs ?? 0) / 5, 1)} µs | | |`,
  ]
}

if (import.meta.main) {
  const result = await hotPathBench()
  const rows = hotPathRows(result)
  for (const row of rows) console.log(row)
  writeDocFigures('hot-path', `${machineLine()}; wrk -t1 -c${CONNECTIONS} -d${SECONDS}s, ${result.rounds} alternated rounds (\`bun test/bench/hot-path.ts\`)`, rows)
}
