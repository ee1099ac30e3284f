// The real service (`bun <root>/src/main.ts`, as `bun start` runs it) for the benches that compare
// builds or process layouts: the regression guard (this checkout against an earlier commit) and
// the workers bench (WORKERS=2 against one process). Each gets a fresh DATA_DIR; paid keys are
// made with the build's own CLI (`openbell keys create`), which every build has.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from '../helpers/process'

export interface BenchService {
  base: string
  /** The serving process: the one process, or the supervisor (its workers are its children). */
  pid: number
  /** A new pro key (its daily limit, 200,000, is a few rounds of load). */
  proKey(): string
  stop(): Promise<void>
}

export async function startBenchService(root: string, env: Record<string, string> = {}, startMs = 180_000): Promise<BenchService> {
  const dataDir = mkdtempSync(join(tmpdir(), 'openbell-bench-service-'))
  const port = freePort()
  const serviceEnv = { ...process.env, TZ: 'UTC', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, ISSUER: 'bench.local', HALT_FEED_URL: 'off', LOG_LEVEL: 'warn', ...env }
  // The request log goes nowhere, as the bench's own app server does with its lines.
  const child = Bun.spawn(['bun', join(root, 'src/main.ts')], { cwd: root, env: serviceEnv, stdout: 'ignore', stderr: 'inherit' })
  const base = `http://127.0.0.1:${port}`
  const deadline = Date.now() + startMs
  const expected = Number(env.WORKERS ?? 1)
  for (;;) {
    try {
      const health = (await (await fetch(`${base}/v5/health`, { keepalive: false })).json()) as { workers?: unknown[] }
      if (expected <= 1 || health.workers?.length === expected) break
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`the service of ${root} did not start`)
    await Bun.sleep(200)
  }
  return {
    base,
    pid: child.pid,
    proKey() {
      const made = Bun.spawnSync(['bun', join(root, 'src/main.ts'), 'keys', 'create', '--plan', 'pro'], { cwd: root, env: { ...serviceEnv, WORKERS: '1' } })
      const key = made.stdout.toString().split('\n')[0]!.trim()
      if (!/^svc_/.test(key)) throw new Error(`no key from ${root}: ${made.stderr.toString()}`)
      return key
    },
    async stop() {
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), 40_000)
      await child.exited
      clearTimeout(timer)
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
