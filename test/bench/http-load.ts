// Loading an HTTP server for `bun run bench`: wrk when installed (else test/bench/load.ts), and
// the event loop's CPU time per request of the server under load, read from /proc.
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'

export const SECONDS = Number(process.env.BENCH_SECONDS ?? 5)
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64)

export type Load = { rps: number; p99Ms: number | null; non2xx: number; requests: number; loopCpuUs?: number | null }

export interface LoadOptions {
  headers?: Record<string, string>
  bodiesFile?: string
  seconds?: number
  connections?: number
}

export const hasWrk = Bun.spawnSync(['sh', '-c', 'command -v wrk']).exitCode === 0

/** The generator as the report names it. */
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
// second on a shared machine, since time the server spends descheduled does not count.
const clockTicks = Number(Bun.spawnSync(['getconf', 'CLK_TCK']).stdout.toString().trim()) || 100
export function loopCpuUs(pid: number | undefined): number | null {
  if (pid === undefined) return null
  try {
    const fields = readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / clockTicks
  } catch {
    return null
  }
}

/** A warm-up second, then `load`; `pid`: the server's process, for its event loop's CPU time per request. */
export async function measure(url: string, options: LoadOptions & { pid?: number } = {}): Promise<Load> {
  await load(url, { ...options, seconds: 1 }) // warm-up
  const before = loopCpuUs(options.pid)
  const result = await load(url, options)
  const after = loopCpuUs(options.pid)
  return { ...result, loopCpuUs: before !== null && after !== null && result.requests ? (after - before) / result.requests : null }
}

/** The mean of several runs of one measure (alternated with another, so the machine's noise falls on both alike). */
export function meanLoad(runs: Load[]): Load {
  const cpu = runs.map((l) => l.loopCpuUs).filter((us): us is number => typeof us === 'number')
  return {
    rps: runs.reduce((sum, l) => sum + l.rps, 0) / runs.length,
    p99Ms: Math.max(...runs.map((l) => l.p99Ms ?? 0)),
    non2xx: runs.reduce((sum, l) => sum + l.non2xx, 0),
    requests: runs.reduce((sum, l) => sum + l.requests, 0),
    loopCpuUs: cpu.length ? cpu.reduce((sum, us) => sum + us, 0) / cpu.length : null,
  }
}
