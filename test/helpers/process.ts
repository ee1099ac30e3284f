// Starting the real service as a child process on a free port, for end-to-end tests.
import { resolve } from 'node:path'

export function freePort(): number {
  const probe = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() })
  const port = probe.port!
  probe.stop(true)
  return port
}

export interface RunningService {
  base: string
  process: ReturnType<typeof Bun.spawn>
  output: () => string
}

const SHIFTED_CLOCK = resolve(import.meta.dir, 'shifted-clock.ts')

/**
 * The clock offset that puts a service at `time` (UTC) of the host's current UTC day, for tests
 * that count per UTC day: started at noon, a run cannot cross midnight.
 */
export function clockOffsetTo(time = '12:00:00.000', now = Date.now()): number {
  return Date.parse(`${new Date(now).toISOString().slice(0, 10)}T${time}Z`) - now
}

/**
 * `clockOffsetMs`: the service's clock runs that far ahead of the host's (test/helpers/shifted-clock.ts).
 * `startMs`: how long it may take to answer /v5/health (default 20 s).
 */
export async function startService(env: Record<string, string>, options: { clockOffsetMs?: number; startMs?: number } = {}): Promise<RunningService> {
  const port = freePort()
  let output = ''
  const clock = options.clockOffsetMs === undefined ? [] : ['--preload', SHIFTED_CLOCK]
  const child = Bun.spawn(['bun', ...clock, resolve(import.meta.dir, '../../src/main.ts')], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', HALT_FEED_URL: 'off', LOG_LEVEL: 'warn', ...(options.clockOffsetMs === undefined ? {} : { OPENBELL_TEST_CLOCK_OFFSET_MS: String(options.clockOffsetMs) }), ...env },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  void (async () => {
    for await (const chunk of child.stdout as ReadableStream<Uint8Array>) output += new TextDecoder().decode(chunk)
  })()
  void (async () => {
    for await (const chunk of child.stderr as ReadableStream<Uint8Array>) output += new TextDecoder().decode(chunk)
  })()
  const base = `http://127.0.0.1:${port}`
  const deadline = Date.now() + (options.startMs ?? 20_000)
  for (;;) {
    try {
      if ((await fetch(`${base}/v5/health`)).status === 200) break
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`service did not start:\n${output}`)
    await Bun.sleep(100)
  }
  return { base, process: child, output: () => output }
}

/** Timeout for a beforeAll that starts a chain, compiles a binary or spawns the service: bun's
 *  default hook timeout (5 s) is too short on a cold CI machine. */
export const SLOW_SETUP_MS = 120_000

/** Polls `probe` every 20 ms until it gives a value, or fails naming `what` after `ms`. */
export async function waitFor<T>(probe: () => T | undefined | false | Promise<T | undefined | false>, ms: number, what: string): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const value = await probe()
    if (value) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await Bun.sleep(20)
  }
}
