// The worker's side of WORKERS=N (supervisor.ts): who it is, the admission check that lets it
// serve from the data directory its supervisor holds locked, and the supervisor's channel (the
// list of workers for /v5/health; the channel closing means the supervisor is gone).
import type { Logger } from '../log'
import { SUPERVISOR_ENV, WORKER_ENV, type ToWorker, type WorkerInfo } from './supervisor'

export interface WorkerRole {
  n: number
  supervisorPid: number
}

/** This process's role: a worker of a supervisor, or null (it serves alone, or supervises). */
export function workerRole(env: Record<string, string | undefined> = process.env): WorkerRole | null {
  const n = env[WORKER_ENV]
  if (n === undefined) return null
  return { n: Number(n), supervisorPid: Number(env[SUPERVISOR_ENV]) }
}

/**
 * Whether this process was started by the supervisor it names: only then does it serve without
 * the data directory's lock (its supervisor holds it). A copied environment does not pass.
 */
export function admitted(role: WorkerRole): boolean {
  return Number.isInteger(role.n) && role.n >= 1 && role.supervisorPid > 1 && process.ppid === role.supervisorPid && typeof process.send === 'function'
}

export interface SupervisorChannel {
  /** The supervisor's workers, as it last said (this one included once it listens). */
  workers(): WorkerInfo[]
  /** Tells the supervisor this worker listens. */
  ready(): void
}

/** Follows the supervisor's messages; `gone` runs once when the channel closes (the supervisor died or let go). */
export function joinSupervisor(log: Logger, gone: () => void): SupervisorChannel {
  let workers: WorkerInfo[] = []
  process.on('message', (message: ToWorker) => {
    if (message?.type === 'workers') workers = message.workers
  })
  const leave = () => {
    log.warn('supervisor gone; stopping this worker')
    gone()
  }
  // The channel may have closed while this worker was starting: 'disconnect' has fired already.
  if (process.connected === false) queueMicrotask(leave)
  else process.once('disconnect', leave)
  return {
    workers: () => workers,
    ready: () => void process.send?.({ type: 'ready' }),
  }
}
