// Running a job on one node at a time: the job starts on the node that takes its lease and stops
// when that node loses it. Every node tries each lease every LEASE_RENEW_MS; the holder's try
// renews it. A holder that cannot renew (database unreachable) stops the job before its lease
// ends, so two nodes never run it at once while their clocks agree; another node takes the lease
// at its first try after the end: within LEASE_TTL_MS + LEASE_RENEW_MS (20 s) of the holder's
// last renewal. A clean stop releases the lease, so a successor starts within LEASE_RENEW_MS.
import type { Clock } from '../clock'
import type { Logger } from '../log'
import type { LeaseStore } from './lease-store'

export const LEASE_TTL_MS = 15_000
export const LEASE_RENEW_MS = 5_000
/** A holder that has not renewed stops its job this long before the lease ends (clock skew, a slow stop). */
const STOP_MARGIN_MS = 2_000

type StopJob = () => void | Promise<void>

interface Job {
  name: string
  start: () => StopJob
  stop: StopJob | null
  /** Until when this node's lease is known to last (0: not held). */
  heldUntil: number
}

export class Leadership {
  private readonly jobs = new Map<string, Job>()
  private timer: ReturnType<typeof setInterval> | null = null
  private round: Promise<void> | null = null
  /** A job was added during a round: one more round right after it (not at the next interval). */
  private again = false

  constructor(
    private readonly store: LeaseStore,
    /** Unique per process: a restarted node waits for its old lease like any other node. */
    readonly holder: string,
    private readonly clock: Clock,
    private readonly log: Logger,
    private readonly options: {
      ttlMs?: number
      renewMs?: number
      /**
       * True for a holder known to be dead (SQLite: every holder is a process on this machine), whose
       * lease is taken at once instead of after it ends: a restart after a crash resumes its jobs
       * at once, as before leases.
       */
      isDeadHolder?: (holder: string) => boolean
    } = {},
  ) {}

  /** Names of the jobs this node runs now. */
  held(): string[] {
    return [...this.jobs.values()].filter((job) => job.stop !== null).map((job) => job.name).sort()
  }

  /**
   * Runs `start` (a job's start, returning its stop) while this node holds the lease `name`.
   * The first try is made at once; the returned function stops the job and releases the lease.
   */
  run(name: string, start: () => StopJob): () => Promise<void> {
    if (this.jobs.has(name)) throw new Error(`job ${name} is already under a lease`)
    const job: Job = { name, start, stop: null, heldUntil: 0 }
    this.jobs.set(name, job)
    this.timer ??= setInterval(() => void this.tick(), this.options.renewMs ?? LEASE_RENEW_MS)
    void this.tick()
    return async () => {
      this.jobs.delete(name)
      await this.round
      await this.stopJob(job, 'node stopping')
      await this.store.release(name, this.holder).catch(() => {})
      if (!this.jobs.size && this.timer) {
        clearInterval(this.timer)
        this.timer = null
      }
    }
  }

  /** One round of tries (also called by tests); rounds never overlap. */
  tick(): Promise<void> {
    if (this.round) {
      this.again = true
      return this.round
    }
    this.round = (async () => {
      do {
        this.again = false
        await this.tryAll()
      } while (this.again)
    })().finally(() => {
      this.round = null
    })
    return this.round
  }

  private async tryAll(): Promise<void> {
    const ttl = this.options.ttlMs ?? LEASE_TTL_MS
    for (const job of [...this.jobs.values()]) {
      const now = this.clock.now()
      let held: boolean
      try {
        held = await this.store.acquire(job.name, this.holder, now, now + ttl)
        if (!held && this.options.isDeadHolder) held = await this.takeFromDead(job.name, now, now + ttl)
      } catch (error) {
        // Unknown whether the renewal landed: keep running only while the last known lease lasts.
        if (job.stop && this.clock.now() >= job.heldUntil - STOP_MARGIN_MS) await this.stopJob(job, `lease not renewed: ${(error as Error).message}`)
        continue
      }
      if (!this.jobs.has(job.name)) continue // stopped meanwhile
      if (held) {
        job.heldUntil = now + ttl
        if (!job.stop) {
          this.log.info('job lease taken: running the job on this node', { job: job.name, node: this.holder })
          job.stop = job.start()
        }
      } else if (job.stop) await this.stopJob(job, 'another node holds the lease')
    }
  }

  private async takeFromDead(name: string, now: number, until: number): Promise<boolean> {
    const current = (await this.store.all()).find((lease) => lease.name === name)
    if (!current || !this.options.isDeadHolder!(current.holder)) return false
    const taken = await this.store.takeOver(name, current.holder, this.holder, now, until)
    if (taken) this.log.warn('job lease of a process that is gone taken at once', { job: name, previous: current.holder })
    return taken
  }

  private async stopJob(job: Job, reason: string): Promise<void> {
    const stop = job.stop
    if (!stop) return
    job.stop = null
    job.heldUntil = 0
    this.log.warn('job stopped on this node', { job: job.name, node: this.holder, reason })
    try {
      await stop()
    } catch (error) {
      this.log.error('job did not stop cleanly', { job: job.name, error: (error as Error).message })
    }
  }
}
