// Loading a bench server with the same generator (`wrk` when installed, else load.ts) and reading
// its CPU time per request from /proc: shared by run.ts, the issue-21 benches and scale-out.ts.
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'

export const SECONDS = Number(process.env.BENCH_SECONDS ?? 5)
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64)
export type Load = { rps: number; p99Ms: number | null; non2xx: number; requests: number; loopCpuUs?: number | null; processCpuUs?: number | null }

export interface LoadOptions {
  headers?: Record<string, string>
  bodiesFile?: string
  seconds?: number
  connections?: number
}

export const hasWrk = Bun.spawnSync(['sh', '-c', 'command -v wrk']).exitCode === 0

/** The generator as the reports name it. */
export const generatorName = () => (hasWrk ? `wrk -t1 -c${CONNECTIONS} -d${SECONDS}s` : `bun load.ts, ${CONNECTIONS} connections, ${SECONDS}s`)

function parseWrk(output: string): Load {
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(output)?.[1] ?? 0)
  const p99 = /\s99%\s+([\d.]+)(us|ms|s)\b/.exec(output)
  const factor = { us: 0.001, ms: 1, s: 1000 } as const
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(output)?.[1] ?? 0)
  const requests = Number(/(\d+) requests in/.exec(output)?.[1] ?? 0)
  return { rps, p99Ms: p99 ? Number(p99[1]) * factor[p99[2] as keyof typeof factor] : null, non2xx, requests }
}

/** Loads `url` for `seconds` (default SECONDS) with `connections` (default CONNECTIONS). */
export async function load(url: string, options: LoadOptions = {}): Promise<Load> {
  const seconds = options.seconds ?? SECONDS
  const connections = options.connections ?? CONNECTIONS
  if (hasWrk) {
    const args = ['wrk', '-t1', `-c${connections}`, `-d${seconds}s`, '--latency']
    for (const [name, value] of Object.entries(options.headers ?? {})) args.push('-H', `${name}: ${value}`)
    if (options.bodiesFile) args.push('-s', resolve(import.meta.dir, 'post-bodies.lua'))
    args.push(url)
    if (options.bodiesFile) args.push('--', options.bodiesFile)
    const run = Bun.spawn(args, { stdout: 'pipe' })
    return parseWrk(await new Response(run.stdout).text())
  }
  const run = Bun.spawn(['bun', resolve(import.meta.dir, 'load.ts'), url, String(connections), String(seconds), JSON.stringify(options.headers ?? {}), ...(options.bodiesFile ? [options.bodiesFile] : [])], { stdout: 'pipe' })
  const result = JSON.parse(await new Response(run.stdout).text()) as { rps: number; p99_ms: number | null; errors: number }
  return { rps: result.rps, p99Ms: result.p99_ms, non2xx: result.errors, requests: Math.round(result.rps * seconds) }
}

// CPU time of a server's main thread (its event loop) from /proc: steadier than requests per
// second on a shared machine, since time the server spends descheduled does not count. The
// whole process (every thread: the audit writer, checkpoints, the collector) is read as well:
// on 2 cores with the load generator on one, work moved to a thread is not free.
const clockTicks = Number(Bun.spawnSync(['getconf', 'CLK_TCK']).stdout.toString().trim()) || 100
function cpuUs(statPath: string): number | null {
  try {
    const fields = readFileSync(statPath, 'utf8').split(') ')[1]!.split(' ')
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / clockTicks
  } catch {
    return null
  }
}
export const loopCpuUs = (pid: number | undefined): number | null => (pid === undefined ? null : cpuUs(`/proc/${pid}/task/${pid}/stat`))
export const processCpuUs = (pid: number | undefined): number | null => (pid === undefined ? null : cpuUs(`/proc/${pid}/stat`))

/** A warm-up second, then `load`; `pid`: the server's process, for its event loop's (and all its threads') CPU time per request. */
export async function measure(url: string, options: LoadOptions & { pid?: number } = {}): Promise<Load> {
  await load(url, { ...options, seconds: 1 }) // warm-up
  const before = [loopCpuUs(options.pid), processCpuUs(options.pid)]
  const result = await load(url, options)
  const after = [loopCpuUs(options.pid), processCpuUs(options.pid)]
  const perRequest = (i: number) => (before[i] != null && after[i] != null && result.requests ? (after[i]! - before[i]!) / result.requests : null)
  return { ...result, loopCpuUs: perRequest(0), processCpuUs: perRequest(1) }
}

/** The mean of several runs of one measure (alternated with another, so the machine's noise falls on both alike). */
export function meanLoad(runs: Load[]): Load {
  const meanOf = (values: (number | null | undefined)[]) => {
    const known = values.filter((v): v is number => typeof v === 'number')
    return known.length ? known.reduce((sum, v) => sum + v, 0) / known.length : null
  }
  return {
    rps: runs.reduce((sum, l) => sum + l.rps, 0) / runs.length,
    p99Ms: Math.max(...runs.map((l) => l.p99Ms ?? 0)),
    non2xx: runs.reduce((sum, l) => sum + l.non2xx, 0),
    requests: runs.reduce((sum, l) => sum + l.requests, 0),
    loopCpuUs: meanOf(runs.map((l) => l.loopCpuUs)),
    processCpuUs: meanOf(runs.map((l) => l.processCpuUs)),
  }
}
