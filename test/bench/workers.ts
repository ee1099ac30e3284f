// WORKERS=2 against one process (issue 32; `bun test/bench/workers.ts`, also run by `bun run bench`):
// GET /v5/status with a paid key on the real service, each layout on its own data directory, in
// alternated rounds. On this 2-core machine the load generator shares the cores with the workers.
import { resolve } from 'node:path'
import { CONNECTIONS, SECONDS, meanLoad, measure, type Load } from './measure'
import { startBenchService } from './service'
import { machineLine, writeDocFigures } from './doc-figures'

const ROOT = resolve(import.meta.dir, '../..')
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)

export interface WorkersResult {
  one: Load
  two: Load
  rounds: number
}

export async function workersBench(): Promise<WorkersResult> {
  const one = await startBenchService(ROOT, { WORKERS: '1' })
  const two = await startBenchService(ROOT, { WORKERS: '2' })
  const runs: { one: Load[]; two: Load[] } = { one: [], two: [] }
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 ? [['two', two], ['one', one]] as const : [['one', one], ['two', two]] as const
      for (const [name, service] of order) runs[name].push(await measure(`${service.base}/v5/status?mic=XNYS`, { headers: { 'X-Oracle-Key': service.proKey() } }))
    }
  } finally {
    await one.stop()
    await two.stop()
  }
  return { one: meanLoad(runs.one), two: meanLoad(runs.two), rounds: ROUNDS }
}

export function workersRows(result: WorkersResult): string[] {
  const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })
  const ratio = result.two.rps / result.one.rps
  return [
    '| measure | figure | target | met |',
    '|---|---|---|---|',
    `| GET /v5/status, paid key: WORKERS=2 / one process (the real service on SQLite) | ${fmt(result.two.rps)} / ${fmt(result.one.rps)} req/s = ${ratio.toFixed(3)}; p99 ${fmt(result.two.p99Ms ?? 0, 2)} / ${fmt(result.one.p99Ms ?? 0, 2)} ms | >= 1.3 | ${ratio >= 1.3 ? 'yes' : 'NO'} |`,
  ]
}

export const workersHeader = (result: WorkersResult) => `${machineLine()}; wrk -t1 -c${CONNECTIONS} -d${SECONDS}s, ${result.rounds} alternated rounds (\`bun test/bench/workers.ts\`)`

if (import.meta.main) {
  const result = await workersBench()
  const rows = workersRows(result)
  console.log(workersHeader(result))
  for (const row of rows) console.log(row)
  writeDocFigures('workers', workersHeader(result), rows)
}
