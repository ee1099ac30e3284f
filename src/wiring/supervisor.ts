// WORKERS=N: the process the operator started (the supervisor) runs N copies of itself (the
// workers) that share its port (SO_REUSEPORT: the kernel spreads connections over them) and its
// store. Each worker is a node in the sense of docs/scale-out.md: its own NODE_ID
// (`<NODE_ID>-w<n>`), its own leases, quota slices and stream rows. The supervisor serves nothing
// itself: it prepares the store once (migrations, the signing key) before any worker starts, holds
// the data directory's lock for its workers, restarts a worker that dies (with backoff), passes
// SIGHUP on, and on SIGTERM stops every worker and then itself, logging each step.
//
// It re-executes its own program: `process.execPath` is the `bun` binary (then the script and
// Bun's own flags, `process.execArgv`, follow) or, in the single binary of `bun build --compile`,
// the binary itself (whose `process.argv[1]` is a virtual `/$bunfs/…` path, not passed on).
import type { Subprocess } from 'bun'
import type { Logger } from '../log'

/** The worker's number (1…N); set by the supervisor only. */
export const WORKER_ENV = 'OPENBELL_WORKER'
/** The supervisor's process id; a worker starts only as that process's child. */
export const SUPERVISOR_ENV = 'OPENBELL_SUPERVISOR'

/** First wait before a worker that died is started again; doubled at each death up to MAX_BACKOFF_MS. */
export const FIRST_BACKOFF_MS = 500
export const MAX_BACKOFF_MS = 30_000
/** A worker that ran this long before it died is restarted after FIRST_BACKOFF_MS again. */
export const STABLE_MS = 60_000
/** Longest a clean stop of every worker may take (each worker's own deadline is 25 s; systemd waits 30). */
export const STOP_DEADLINE_MS = 27_000
/** Exit codes a restart cannot cure (main.ts): a configuration error, a database from a newer build. */
const FATAL_EXIT_CODES = new Set([2, 3])

export interface WorkerInfo {
  id: string
  pid: number
  started_at: string
}

/** Messages between the supervisor and a worker (Bun's IPC channel). */
export type ToWorker = { type: 'workers'; workers: WorkerInfo[] }
export type FromWorker = { type: 'ready' }

interface Worker {
  n: number
  id: string
  child: Subprocess | null
  startedAt: number
  ready: boolean
  backoffMs: number
  restartTimer: ReturnType<typeof setTimeout> | null
}

/** The command that starts this program again, with its arguments (see the head of this file). */
export function selfCommand(): string[] {
  const compiled = (process.argv[1] ?? '').startsWith('/$bunfs/') || /^[A-Z]:\\~BUN\\/.test(process.argv[1] ?? '')
  return compiled ? [process.execPath, ...process.argv.slice(2)] : [process.execPath, ...process.execArgv, ...process.argv.slice(1)]
}

/** A worker's node id: the supervisor's NODE_ID (cut to leave room) and its number. */
export const workerNodeId = (nodeId: string, n: number) => `${nodeId.slice(0, 58)}-w${n}`

export interface SupervisorOptions {
  count: number
  nodeId: string
  log: Logger
  /** The environment every worker starts with (the supervisor's own); each gets its own variables on top. */
  env: Record<string, string | undefined>
  command?: string[]
  firstBackoffMs?: number
  maxBackoffMs?: number
  stableMs?: number
}

export class Supervisor {
  private readonly workers: Worker[]
  private stopping = false
  private reportFailed: (code: number) => void = () => {}
  private readyWaiters: (() => void)[] = []
  /** Resolves with the code the supervisor should exit with once a worker cannot start at all. */
  readonly failed: Promise<number>

  constructor(private readonly options: SupervisorOptions) {
    this.workers = Array.from({ length: options.count }, (_, i) => ({ n: i + 1, id: workerNodeId(options.nodeId, i + 1), child: null, startedAt: 0, ready: false, backoffMs: 0, restartTimer: null }))
    this.failed = new Promise<number>((resolve) => (this.reportFailed = resolve))
  }

  /** The workers running now (for /v5/health and the log). */
  list(): WorkerInfo[] {
    return this.workers.filter((worker) => worker.child && worker.ready).map((worker) => ({ id: worker.id, pid: worker.child!.pid, started_at: new Date(worker.startedAt).toISOString() }))
  }

  /** Starts every worker; resolves once each one listens (or the supervisor must give up: see `failed`). */
  async start(): Promise<void> {
    for (const worker of this.workers) this.spawn(worker)
    await new Promise<void>((resolve) => {
      this.readyWaiters.push(resolve)
      this.checkAllReady()
    })
  }

  /** Passes SIGHUP on (each worker reloads its calendars). */
  reload(): void {
    for (const worker of this.workers) worker.child?.kill('SIGHUP')
    this.options.log.info('SIGHUP passed to every worker', { workers: this.list().map((worker) => worker.id) })
  }

  /**
   * Stops every worker (SIGTERM: each finishes its requests, stops its jobs and closes the store)
   * and waits for them; a worker still running after STOP_DEADLINE_MS is killed. Resolves with
   * the exit code for the supervisor: 0 when every worker stopped cleanly.
   */
  async stop(signal: string): Promise<number> {
    this.stopping = true
    const { log } = this.options
    const running = this.workers.filter((worker) => worker.child)
    for (const worker of this.workers) if (worker.restartTimer) clearTimeout(worker.restartTimer)
    log.info('stopping workers', { signal, workers: running.map((worker) => ({ id: worker.id, pid: worker.child!.pid })) })
    let clean = true
    const killer = setTimeout(() => {
      for (const worker of running) {
        if (worker.child && worker.child.exitCode === null && worker.child.signalCode === null) {
          log.error('worker did not stop in time; killing it', { worker: worker.id, pid: worker.child.pid, deadline_ms: STOP_DEADLINE_MS })
          worker.child.kill('SIGKILL')
        }
      }
    }, STOP_DEADLINE_MS)
    await Promise.all(
      running.map(async (worker) => {
        const child = worker.child!
        child.kill('SIGTERM')
        const code = await child.exited
        if (code !== 0) clean = false
        log.info('worker stopped', { worker: worker.id, pid: child.pid, code, signal: child.signalCode, ran_ms: Date.now() - worker.startedAt })
      }),
    )
    clearTimeout(killer)
    return clean ? 0 : 1
  }

  private spawn(worker: Worker): void {
    const { log } = this.options
    worker.restartTimer = null
    worker.ready = false
    worker.startedAt = Date.now()
    const env = { ...this.options.env, WORKERS: '1', REUSE_PORT: 'true', NODE_ID: worker.id, [WORKER_ENV]: String(worker.n), [SUPERVISOR_ENV]: String(process.pid) }
    const child: Subprocess = Bun.spawn(this.options.command ?? selfCommand(), {
      env,
      stdio: ['ignore', 'inherit', 'inherit'],
      ipc: (message: FromWorker) => {
        if (message?.type !== 'ready' || worker.child !== child) return
        worker.ready = true
        log.info('worker listening', { worker: worker.id, pid: child.pid })
        this.broadcast()
        this.checkAllReady()
      },
      onExit: (_process, exitCode, signalCode): void => this.exited(worker, child, exitCode, signalCode),
    })
    worker.child = child
    log.info('worker started', { worker: worker.id, pid: child.pid })
  }

  private exited(worker: Worker, child: Subprocess, code: number | null, signal: number | string | null): void {
    if (worker.child !== child) return
    const { log } = this.options
    const ranMs = Date.now() - worker.startedAt
    worker.child = null
    worker.ready = false
    // A stop logs each worker's end itself (stop()).
    if (this.stopping) return
    const fields = { worker: worker.id, pid: child.pid, code, signal, ran_ms: ranMs }
    this.broadcast()
    if (code !== null && FATAL_EXIT_CODES.has(code)) {
      // The same configuration makes every restart fail the same way (a port taken, a newer database).
      log.error('worker cannot start with this configuration; stopping every worker', fields)
      this.reportFailed(code)
      return
    }
    worker.backoffMs = ranMs >= (this.options.stableMs ?? STABLE_MS) ? (this.options.firstBackoffMs ?? FIRST_BACKOFF_MS) : Math.min(this.options.maxBackoffMs ?? MAX_BACKOFF_MS, Math.max(this.options.firstBackoffMs ?? FIRST_BACKOFF_MS, worker.backoffMs * 2))
    log.error('worker died; restarting it', { ...fields, restart_in_ms: worker.backoffMs })
    worker.restartTimer = setTimeout(() => {
      if (!this.stopping) this.spawn(worker)
    }, worker.backoffMs)
  }

  /** Tells every listening worker who the workers are (each lists them in /v5/health). */
  private broadcast(): void {
    const message: ToWorker = { type: 'workers', workers: this.list() }
    for (const worker of this.workers) {
      if (!worker.child || !worker.ready) continue
      try {
        worker.child.send(message)
      } catch {
        // Exiting: its exit handler runs next.
      }
    }
  }

  private checkAllReady(): void {
    if (!this.workers.every((worker) => worker.ready)) return
    for (const resolve of this.readyWaiters.splice(0)) resolve()
  }
}
