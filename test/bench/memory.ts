// Issue 21, target 4 (`bun test/bench/memory.ts`; BENCH_MEMORY_RECEIPTS, default 1,000,000): the
// bench app's resident memory after 10,000 live receipts served (GET /v5/status with a paid key,
// each metered and durably logged) and after BENCH_MEMORY_RECEIPTS, read from /proc (VmRSS)
// after the load stops. Growth with work done would show here; what the target allows is 50 MB.
import { readFileSync } from 'node:fs'
import { startServer } from './start-server'
import { load } from './measure'
import { machineLine, writeDocFigures } from './doc-figures'

const RECEIPTS = Number(process.env.BENCH_MEMORY_RECEIPTS ?? 1_000_000)
const FIRST = 10_000

export interface MemoryFigures {
  first: { receipts: number; rssMiB: number }
  last: { receipts: number; rssMiB: number }
  peakMiB: number
  seconds: number
  loadAverage: string
}

const rssMiB = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024
const hwmMiB = (pid: number) => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024

export async function memoryBench(receipts = RECEIPTS): Promise<MemoryFigures> {
  // Pro keys in turn, 4 s each: one key's daily limit (200,000) would refuse the rest with 429.
  const app = await startServer('app.ts', { WITNESS_BODIES: '10', BENCH_PAID_KEYS: String(Math.ceil(receipts / 100_000) + 1) })
  const url = `http://127.0.0.1:${app.fields[0]}/v5/status?mic=XNYS`
  const keys = app.fields[6]!.split(',')
  let turn = 0
  const started = performance.now()
  try {
    let served = 0
    const serve = async (until: number, seconds: number) => {
      while (served < until) {
        const result = await load(url, { headers: { 'X-Oracle-Key': keys[turn++ % keys.length]! }, seconds })
        if (result.non2xx) throw new Error(`memory bench: ${result.non2xx} non-2xx answers`)
        served += result.requests
      }
      await Bun.sleep(1000) // the last answers and commits settle
    }
    await serve(FIRST, 1)
    const first = { receipts: served, rssMiB: rssMiB(app.pid) }
    await serve(receipts, 4)
    const last = { receipts: served, rssMiB: rssMiB(app.pid) }
    return { first, last, peakMiB: hwmMiB(app.pid), seconds: (performance.now() - started) / 1000, loadAverage: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ') }
  } finally {
    await app.stop()
  }
}

export function memoryRows(m: MemoryFigures): string[] {
  const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })
  const growth = m.last.rssMiB - m.first.rssMiB
  return [
    '| measure | figure | target | met |',
    '|---|---|---|---|',
    `| RSS of the app after ${fmt(m.first.receipts)} / ${fmt(m.last.receipts)} GET /v5/status receipts (paid key, each logged) | ${fmt(m.first.rssMiB, 1)} / ${fmt(m.last.rssMiB, 1)} MiB (growth ${fmt(growth, 1)} MiB; peak ${fmt(m.peakMiB, 1)} MiB; ${fmt(m.seconds)} s; load ${m.loadAverage}) | growth < 50 MB | ${growth * 2 ** 20 < 50e6 ? 'yes' : 'NO'} |`,
  ]
}

if (import.meta.main) {
  const rows = memoryRows(await memoryBench())
  for (const row of rows) console.log(row)
  writeDocFigures('memory', `${machineLine()} (\`bun test/bench/memory.ts\`)`, rows)
}
