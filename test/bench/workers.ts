// WORKERS=2 against one process (issue 32; `bun test/bench/workers.ts`, also run by `bun run bench`):
// GET /v5/status with a paid key on the real service, each layout on its own data directory, in
// alternated rounds. On this 2-core machine the load generator shares the cores with the workers.
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { CONNECTIONS, SECONDS, meanLoad, measure, processCpuUs, type Load } from './measure'
import { startBenchService } from './service'
import { machineLine, writeDocFigures } from './doc-figures'

const ROOT = resolve(import.meta.dir, '../..')
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)

export interface WorkersResult {
  one: Load
  two: Load
  rounds: number
  /** CPU time of the service's processes (supervisor and workers) per request, µs. */
  treeCpuUs: { one: number; two: number }
  /** Cores the service's processes kept busy while loaded, and the whole machine's busy cores. */
  serviceCores: { one: number; two: number }
  machineCores: { one: number; two: number }
  /** Work done by two CPU-bound processes at once against one alone: what the two cores give. */
  machineRatio: number
}

/** The serving process and its children (the workers), each whole process's CPU time, µs. */
function treeCpuUs(pid: number): number {
  let children: string[] = []
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean)
  } catch {
    // not on Linux, or gone
  }
  return [pid, ...children.map(Number)].reduce((sum, id) => sum + (processCpuUs(id) ?? 0), 0)
}

/** Busy and total CPU time of the whole machine so far (/proc/stat, in clock ticks). */
function machineTicks(): { busy: number; all: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number)
  const all = fields.reduce((sum, v) => sum + v, 0)
  return { busy: all - fields[3]! - fields[4]!, all }
}

// One spin: SHA-256 of a short buffer for two seconds, the count printed. Started as separate
// processes, alone and two at once, with nothing else loading the machine.
const SPIN = "const h=require('node:crypto');const e=performance.now()+2000;let n=0;while(performance.now()<e){h.createHash('sha256').update('openbell').digest();n++}console.log(n)"
async function spins(count: number): Promise<number> {
  const children = Array.from({ length: count }, () => Bun.spawn(['bun', '-e', SPIN], { stdout: 'pipe' }))
  const counts = await Promise.all(children.map(async (child) => Number((await new Response(child.stdout).text()).trim())))
  return counts.reduce((sum, n) => sum + n, 0)
}

/** How much more two CPU-bound processes do than one on this machine (2.0 on two independent cores). */
export async function machineTwoProcessRatio(): Promise<number> {
  const one = [await spins(1)]
  const two = [await spins(2)]
  one.push(await spins(1))
  two.push(await spins(2))
  return (two[0]! + two[1]!) / (one[0]! + one[1]!)
}

export async function workersBench(): Promise<WorkersResult> {
  const one = await startBenchService(ROOT, { WORKERS: '1' })
  const two = await startBenchService(ROOT, { WORKERS: '2' })
  const runs: { one: Load[]; two: Load[] } = { one: [], two: [] }
  const cpu = { one: [] as number[], two: [] as number[] }
  const serviceCores = { one: [] as number[], two: [] as number[] }
  const machineCores = { one: [] as number[], two: [] as number[] }
  const cores = navigator.hardwareConcurrency
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 ? [['two', two], ['one', one]] as const : [['one', one], ['two', two]] as const
      for (const [name, service] of order) {
        const key = service.proKey()
        const [before, machineBefore, start] = [treeCpuUs(service.pid), machineTicks(), performance.now()]
        const run = await measure(`${service.base}/v5/status?mic=XNYS`, { headers: { 'X-Oracle-Key': key } })
        const [spent, machineAfter, wallUs] = [treeCpuUs(service.pid) - before, machineTicks(), (performance.now() - start) * 1000]
        // The warm-up second's requests are not counted in `requests`: an overstatement, alike for both.
        cpu[name].push(spent / run.requests)
        serviceCores[name].push(spent / wallUs)
        machineCores[name].push((cores * (machineAfter.busy - machineBefore.busy)) / (machineAfter.all - machineBefore.all))
        runs[name].push(run)
      }
    }
  } finally {
    await one.stop()
    await two.stop()
  }
  const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length
  const machineRatio = await machineTwoProcessRatio()
  return { one: meanLoad(runs.one), two: meanLoad(runs.two), rounds: ROUNDS, treeCpuUs: { one: mean(cpu.one), two: mean(cpu.two) }, serviceCores: { one: mean(serviceCores.one), two: mean(serviceCores.two) }, machineCores: { one: mean(machineCores.one), two: mean(machineCores.two) }, machineRatio }
}

export function workersRows(result: WorkersResult): string[] {
  const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })
  const ratio = result.two.rps / result.one.rps
  return [
    '| measure | figure | target | met |',
    '|---|---|---|---|',
    `| GET /v5/status, paid key: WORKERS=2 / one process (the real service on SQLite) | ${fmt(result.two.rps)} / ${fmt(result.one.rps)} req/s = ${ratio.toFixed(3)}; p99 ${fmt(result.two.p99Ms ?? 0, 2)} / ${fmt(result.one.p99Ms ?? 0, 2)} ms | >= 1.3 | ${ratio >= 1.3 ? 'yes' : 'NO'} |`,
    `| CPU time of the service's processes per request (supervisor and workers, every thread): WORKERS=2 / one process | ${fmt(result.treeCpuUs.two, 1)} / ${fmt(result.treeCpuUs.one, 1)} µs = ${(result.treeCpuUs.two / result.treeCpuUs.one).toFixed(3)} | | |`,
    `| cores busy while loaded: the service's processes / the whole machine (of ${navigator.hardwareConcurrency}), one process; WORKERS=2 | ${result.serviceCores.one.toFixed(2)} / ${result.machineCores.one.toFixed(2)}; ${result.serviceCores.two.toFixed(2)} / ${result.machineCores.two.toFixed(2)} | | |`,
    `| the most WORKERS=2 could give at one process's CPU per request: (cores − what the rest of the machine used) / the one process's cores | ${((navigator.hardwareConcurrency - (result.machineCores.one - result.serviceCores.one)) / result.serviceCores.one).toFixed(3)} | | |`,
    `| this machine: work of two CPU-bound processes at once / one alone (SHA-256 spins, no load generator; 2.0 on two independent cores) | ${result.machineRatio.toFixed(3)} | | |`,
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
