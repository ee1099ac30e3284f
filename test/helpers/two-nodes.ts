// Two real service processes (`bun src/main.ts`) on one PostgreSQL database, for the scale-out
// end-to-end tests (test/nodes/): the same SIGNING_KEY_FILE, different NODE_IDs and ports, each
// with a DATA_DIR of its own (nothing in it is shared: the database is). One pair per test file;
// `fetch` talks to them round-robin, as a load balancer would.
import { SQL } from 'bun'
import { chmodSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { randomBytes } from 'node:crypto'
import { tempDir, TEST_ADMIN_KEY } from './app'
import { startService, type RunningService } from './process'
import { migratedDatabase, type TestDatabase } from './postgres'
import { CalendarRegistry } from '../../src/calendar/registry'
import { nextOpen, statusAt } from '../../src/calendar/engine'
import { memoryLogger } from '../../src/log'
import { systemClock } from '../../src/clock'

export interface Node extends RunningService {
  id: string
  /** Its clock offset (test/helpers/shifted-clock.ts), when it runs on a shifted clock. */
  clockOffsetMs: number | undefined
}

/** `storage` of /v5/health. */
export interface Storage {
  backend: 'sqlite' | 'postgres'
  node_id: string
  leader_of: string[]
  status: 'ok' | 'degraded'
}

export const PUBLIC_KEY_ID = 'key_nodes_v1'
/** A node starting on a busy 2-core machine (a dozen other test processes) can take 15 s and more. */
const NODE_START_MS = 90_000
const MAIN = resolve(import.meta.dir, '../../src/main.ts')
const SHIFTED_CLOCK = resolve(import.meta.dir, 'shifted-clock.ts')

export interface PairOptions {
  /** Variables for both nodes (on top of the pair's own). */
  env?: Record<string, string>
  /** Clock offset of each node (index 0: node a), or one for both. */
  clockOffsetMs?: number | [number | undefined, number | undefined]
  /** The database (default: a fresh migrated one on the run's cluster). */
  database?: { url: string; sql: SQL; drop(): Promise<void> }
  /** Start node b only once node a holds every job lease (a predictable lease holder). */
  aLeadsFirst?: boolean
  /** Variables of one node (by its id), on top of `env`: a schedules directory of its own. */
  envOf?: (id: string) => Record<string, string>
}

export class Pair {
  readonly nodes: Node[] = []
  private turn = 0
  private constructor(
    readonly database: { url: string; sql: SQL; drop(): Promise<void> },
    readonly keyFile: string,
    private readonly baseEnv: Record<string, string>,
    private readonly offsets: [number | undefined, number | undefined],
    private readonly envOf: (id: string) => Record<string, string> = () => ({}),
  ) {}

  static async start(options: PairOptions = {}): Promise<Pair> {
    const database: TestDatabase | PairOptions['database'] = options.database ?? (await migratedDatabase('nodes'))
    const keyDir = tempDir('openbell-test-nodes-')
    const keyFile = join(keyDir, 'signing-key.hex')
    writeFileSync(keyFile, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600 })
    chmodSync(keyFile, 0o600)
    const offsets: [number | undefined, number | undefined] = Array.isArray(options.clockOffsetMs) ? options.clockOffsetMs : [options.clockOffsetMs, options.clockOffsetMs]
    const pair = new Pair(database!, keyFile, { ADMIN_KEY: TEST_ADMIN_KEY, ...options.env }, offsets, options.envOf)
    try {
      if (options.aLeadsFirst) {
        pair.nodes.push(await pair.startNode('node-a'))
        await pair.waitForLeases('node-a')
        pair.nodes.push(await pair.startNode('node-b'))
      } else {
        pair.nodes.push(...(await Promise.all([pair.startNode('node-a'), pair.startNode('node-b')])))
      }
    } catch (error) {
      await pair.stop()
      throw error
    }
    return pair
  }

  /** The variables a node of this pair starts with. */
  env(id: string, extra: Record<string, string> = {}): Record<string, string> {
    return {
      DATABASE_URL: this.database.url,
      NODE_ID: id,
      SIGNING_KEY_FILE: this.keyFile,
      PUBLIC_KEY_ID: PUBLIC_KEY_ID,
      KEY_VALID_FROM: '2026-01-01T00:00:00.000Z',
      DATA_DIR: tempDir(`openbell-test-${id}-`),
      ISSUER: 'oracle.test',
      ...this.baseEnv,
      ...this.envOf(id),
      ...extra,
    }
  }

  /**
   * Starts a node of this pair (the first two are `node-a` and `node-b`; a restart reuses a name),
   * on the pair's clock for that name unless `clockOffsetMs` is given.
   */
  async startNode(id: string, extra: Record<string, string> = {}, clockOffsetMs?: number): Promise<Node> {
    const offset = clockOffsetMs ?? this.offsets[id === 'node-b' ? 1 : 0]
    const service = await startService(this.env(id, extra), { startMs: NODE_START_MS, ...(offset === undefined ? {} : { clockOffsetMs: offset }) })
    return { ...service, id, clockOffsetMs: offset }
  }

  get a(): Node {
    return this.nodes[0]!
  }

  get b(): Node {
    return this.nodes[1]!
  }

  /** The nodes still running (not killed by the test). */
  live(): Node[] {
    return this.nodes.filter((node) => node.process.exitCode === null && node.process.signalCode === null)
  }

  /** The next node in round-robin order (among the live ones). */
  next(): Node {
    const live = this.live()
    return live[this.turn++ % live.length]!
  }

  /** A request to the next node, round-robin. */
  fetch(path: string, init?: RequestInit): Promise<Response> {
    return fetch(`${this.next().base}${path}`, init)
  }

  async storage(node: Node): Promise<Storage> {
    const body = (await (await fetch(`${node.base}/v5/health`)).json()) as { storage: Storage }
    return body.storage
  }

  /** Waits until `id` runs every job that is under a lease on every node (it started first). */
  async waitForLeases(id: string, ms = 20_000): Promise<void> {
    const node = this.nodes.find((candidate) => candidate.id === id)!
    const deadline = Date.now() + ms
    for (;;) {
      const storage = await this.storage(node)
      if (LEASED_JOBS.every((job) => storage.leader_of.includes(job))) return
      if (Date.now() > deadline) throw new Error(`${id} did not take every lease: ${storage.leader_of.join(', ')}`)
      await Bun.sleep(100)
    }
  }

  /** kill -9 (or another signal) and wait for the process to end. */
  async kill(node: Node, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    node.process.kill(signal)
    await node.process.exited
  }

  /** Stops every node (SIGTERM, then SIGKILL after 10 s) and drops the database. */
  async stop(): Promise<void> {
    // OPENBELL_TEST_NODE_LOGS=<dir>: keep each node's output there (to look into a failure).
    const logs = process.env.OPENBELL_TEST_NODE_LOGS
    if (logs) for (const node of this.nodes) writeFileSync(join(logs, `${node.id}-${node.process.pid}.log`), node.output())
    await Promise.all(
      this.nodes.map(async (node) => {
        if (node.process.exitCode !== null || node.process.signalCode !== null) return
        node.process.kill('SIGTERM')
        const timer = setTimeout(() => node.process.kill('SIGKILL'), 10_000)
        await node.process.exited
        clearTimeout(timer)
      }),
    )
    await this.database.drop().catch(() => {})
  }

  /** Runs `openbell <args>` (the CLI) against the pair's database, as an operator would. */
  async cli(args: string[], extra: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
    // On node a's clock (an override's expiry is read against the nodes' clocks).
    const offset = this.offsets[0]
    const clock = offset === undefined ? [] : ['--preload', SHIFTED_CLOCK]
    const env = { ...process.env, ...this.env('cli', extra), ...(offset === undefined ? {} : { OPENBELL_TEST_CLOCK_OFFSET_MS: String(offset) }) }
    const child = Bun.spawn(['bun', ...clock, MAIN, ...args], { env, stdout: 'pipe', stderr: 'pipe' })
    const [stdout, stderr] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text()])
    return { code: await child.exited, stdout, stderr }
  }
}

/** The jobs main.ts runs under a lease (one node at a time), read from it (so a new one is not missed), in /v5/health's order. */
export const LEASED_JOBS: readonly string[] = [...readFileSync(MAIN, 'utf8').matchAll(/leases\.run\('([a-z-]+)'/g)].map((match) => match[1]!).sort()

/** The clock offset that puts a node at `iso` now (for startService's clockOffsetMs). */
export const offsetTo = (iso: string) => Date.parse(iso) - Date.now()

/** The instant of a shifted clock when the host's clock reads `hostMs`. */
export const shifted = (node: Node, hostMs = Date.now()) => hostMs + (node.clockOffsetMs ?? 0)

/** Headers of a keyed JSON request. */
export const keyed = (key: string, extra: Record<string, string> = {}) => ({ 'x-oracle-key': key, ...extra })

/**
 * An instant `hoursIn` hours after the open of the next session of `mic` (at least a day ahead,
 * so the run's own day plays no part), from the repository's calendars: for tests that need the
 * venue in session (halt polling runs only then).
 */
export function inSession(mic: string, hoursIn = 1, now = Date.now()): number {
  const calendars = new CalendarRegistry(resolve(import.meta.dir, '../../schedules'), memoryLogger('error'), systemClock)
  calendars.reload('test')
  const calendar = calendars.calendar(mic)
  if (!calendar) throw new Error(`no calendar for ${mic}`)
  const open = nextOpen(calendar, now + 86_400_000)
  if (open === null) throw new Error(`no next session for ${mic}`)
  const instant = open + hoursIn * 3_600_000
  if (statusAt(calendar, instant).status !== 'OPEN') throw new Error(`${mic} is not open ${hoursIn} h after ${new Date(open).toISOString()}`)
  return instant
}
