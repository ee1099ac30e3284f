// Issue 21, target 1 (`bun test/bench/hot-path.ts`, also run by `bun run bench`): GET /v5/status
// with a paid key and GET /v5/batch of 5 venues against the bare signing route, the servers up
// together and measured in alternated rounds so that the machine's noise falls on all alike.
// Reports requests per second, p99 and the event loop's CPU per request (from /proc).
import { startServer } from './start-server'
import { measure, type Load } from './measure'

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const BATCH_MICS = 'XNYS,XNAS,XLON,XPAR,XJPX'

export interface HotPath {
  bare: Load
  status: Load
  batch: Load
  rounds: number
}

const mean = (runs: Load[]): Load => ({
  rps: runs.reduce((sum, l) => sum + l.rps, 0) / runs.length,
  p99Ms: Math.max(...runs.map((l) => l.p99Ms ?? 0)),
  non2xx: runs.reduce((sum, l) => sum + l.non2xx, 0),
  requests: runs.reduce((sum, l) => sum + l.requests, 0),
  loopCpuUs: meanOf(runs.map((l) => l.loopCpuUs)),
  processCpuUs: meanOf(runs.map((l) => l.processCpuUs)),
})
function meanOf(values: (number | null | undefined)[]): number | null {
  return values.every((v) => v != null) ? values.reduce((sum: number, v) => sum + v!, 0) / values.length : null
}

export async function hotPathBench(env: Record<string, string> = {}): Promise<HotPath> {
  const bare = await startServer('bare-sign.ts')
  const app = await startServer('app.ts', { WITNESS_BODIES: '10', ...env })
  const runs: Record<'bare' | 'status' | 'batch', Load[]> = { bare: [], status: [], batch: [] }
  try {
    for (let round = 0; round < ROUNDS; round++) {
      runs.bare.push(await measure(`http://127.0.0.1:${bare.fields[0]}/sign`, { pid: bare.pid }))
      runs.status.push(await measure(`http://127.0.0.1:${app.fields[0]}/v5/status?mic=XNYS`, { headers: { 'X-Oracle-Key': app.fields[1]! }, pid: app.pid }))
      runs.batch.push(await measure(`http://127.0.0.1:${app.fields[0]}/v5/batch?mics=${BATCH_MICS}`, { headers: { 'X-Oracle-Key': app.fields[1]! }, pid: app.pid }))
    }
  } finally {
    await bare.stop()
    await app.stop()
  }
  return { bare: mean(runs.bare), status: mean(runs.status), batch: mean(runs.batch), rounds: ROUNDS }
}

if (import.meta.main) {
  const result = await hotPathBench()
  const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })
  const line = (name: string, l: Load) => console.log(`${name}: ${fmt(l.rps)} req/s = ${(l.rps / result.bare.rps).toFixed(3)} of bare; p99 ${l.p99Ms?.toFixed(2)} ms; CPU per request: loop ${l.loopCpuUs?.toFixed(1)} µs, process ${l.processCpuUs?.toFixed(1)} µs${l.non2xx ? `; ${l.non2xx} non-2xx` : ''}`)
  console.log(`rounds ${result.rounds}; load average ${(await Bun.file('/proc/loadavg').text()).split(' ').slice(0, 3).join(' ')}`)
  line('bare signing', result.bare)
  line('/v5/status (paid key)', result.status)
  line('/v5/batch 5 MICs (per request)', result.batch)
  console.log(`/v5/batch 5 MICs, signatures/s / bare: ${((result.batch.rps * 5) / result.bare.rps).toFixed(3)}`)
}
