// The real service with WORKERS=N on one SQLite file (`bun src/main.ts` as its supervisor, which
// starts the workers), for the workers' end-to-end tests (test/workers/). Requests go to the one
// port the workers share; each is sent on a new connection (`keepalive: false`), so the kernel
// spreads them over the workers as it spreads separate clients. One supervisor per test file.
import { Database } from 'bun:sqlite'
import { join, resolve } from 'node:path'
import { tempDir, TEST_ADMIN_KEY } from './app'
import { freePort } from './process'
import { openDatabase } from '../../src/store/database'
import { sqliteAccountStore, type AccountStore } from '../../src/accounts/store'

const MAIN = resolve(import.meta.dir, '../../src/main.ts')
const SHIFTED_CLOCK = resolve(import.meta.dir, 'shifted-clock.ts')
/** Workers starting on a busy 2-core machine (each loads every calendar) can take a minute. */
const START_MS = 150_000

export interface WorkerEntry {
  id: string
  pid: number
  started_at: string
}

export interface Health {
  storage: { backend: string; node_id: string; leader_of: string[]; status: string }
  workers: WorkerEntry[]
}

export interface WorkersOptions {
  count?: number
  env?: Record<string, string>
  /** The service's clock runs this far ahead of the host's (test/helpers/shifted-clock.ts). */
  clockOffsetMs?: number
}

export class Workers {
  private text = ''
  private db: Database | null = null

  private constructor(
    readonly base: string,
    readonly dataDir: string,
    readonly process: ReturnType<typeof Bun.spawn>,
    readonly env: Record<string, string>,
    readonly count: number,
  ) {}

  static async start(options: WorkersOptions = {}): Promise<Workers> {
    const count = options.count ?? 2
    const port = freePort()
    const dataDir = tempDir('openbell-test-workers-')
    const clock = options.clockOffsetMs === undefined ? [] : ['--preload', SHIFTED_CLOCK]
    const env: Record<string, string> = {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      WORKERS: String(count),
      HALT_FEED_URL: 'off',
      LOG_LEVEL: 'info',
      ADMIN_KEY: TEST_ADMIN_KEY,
      ISSUER: 'oracle.test',
      ...(options.clockOffsetMs === undefined ? {} : { OPENBELL_TEST_CLOCK_OFFSET_MS: String(options.clockOffsetMs) }),
      ...options.env,
    }
    const child = Bun.spawn(['bun', ...clock, MAIN], { env: { ...process.env, ...env }, stdout: 'pipe', stderr: 'pipe' })
    const workers = new Workers(`http://127.0.0.1:${port}`, dataDir, child, env, count)
    workers.collect(child.stdout as ReadableStream<Uint8Array>)
    workers.collect(child.stderr as ReadableStream<Uint8Array>)
    try {
      await workers.waitForWorkers(count, START_MS)
    } catch (error) {
      await workers.stop()
      throw error
    }
    return workers
  }

  private collect(stream: ReadableStream<Uint8Array>): void {
    void (async () => {
      const decoder = new TextDecoder()
      for await (const chunk of stream) this.text += decoder.decode(chunk, { stream: true })
    })()
  }

  /** Everything the supervisor and its workers printed so far. */
  output(): string {
    return this.text
  }

  /** The printed JSON lines, parsed (other lines skipped). */
  lines(): Record<string, any>[] {
    return this.text.split('\n').flatMap((line) => {
      try {
        return line.startsWith('{') ? [JSON.parse(line) as Record<string, any>] : []
      } catch {
        return []
      }
    })
  }

  /** A request on a new connection (the kernel picks the worker). */
  fetch(path: string, init: RequestInit = {}): Promise<Response> {
    return fetch(`${this.base}${path}`, { ...init, keepalive: false })
  }

  async health(): Promise<Health> {
    return (await (await this.fetch('/v5/health')).json()) as Health
  }

  /**
   * Waits until /v5/health lists `count` workers, none of them in `without` (pids), as answered by
   * each of them: a worker signs its health at most once a second, so one that answered just
   * before the supervisor's news may list the old workers for up to a second more.
   */
  async waitForWorkers(count: number, ms: number, without: number[] = []): Promise<WorkerEntry[]> {
    const deadline = Date.now() + ms
    const agreed = new Set<string>()
    for (;;) {
      try {
        const { workers, storage } = await this.health()
        if (workers?.length === count && workers.every((worker) => !without.includes(worker.pid))) {
          agreed.add(storage.node_id)
          if (workers.every((worker) => agreed.has(worker.id))) return workers
        }
      } catch {
        // not listening yet, or a worker restarting
      }
      if (Date.now() > deadline || this.process.exitCode !== null) throw new Error(`the workers did not start:\n${this.text.slice(-4000)}`)
      await Bun.sleep(200)
    }
  }

  /** The node ids that answered `tries` health requests (each on its own connection). */
  async answering(tries = 20): Promise<Set<string>> {
    const ids = new Set<string>()
    for (let i = 0; i < tries; i++) ids.add((await this.health()).storage.node_id)
    return ids
  }

  /** The SQLite file the workers share, opened by the test as a further process would (WAL). */
  database(): Database {
    this.db ??= openDatabase(join(this.dataDir, 'openbell.sqlite'))
    return this.db
  }

  accounts(): AccountStore {
    return sqliteAccountStore(this.database())
  }

  /** Runs `openbell <args>` (the CLI) on the same data directory, as an operator would. */
  async cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    const child = Bun.spawn(['bun', MAIN, ...args], { env: { ...process.env, ...this.env, WORKERS: '1' }, stdout: 'pipe', stderr: 'pipe' })
    const [stdout, stderr] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text()])
    return { code: await child.exited, stdout, stderr }
  }

  /** SIGTERM to the supervisor (SIGKILL after 40 s); resolves with its exit code. */
  async stop(): Promise<number | null> {
    this.db?.close()
    this.db = null
    if (this.process.exitCode !== null || this.process.signalCode !== null) return this.process.exitCode
    this.process.kill('SIGTERM')
    const timer = setTimeout(() => this.process.kill('SIGKILL'), 40_000)
    const code = await this.process.exited
    clearTimeout(timer)
    return code
  }
}
