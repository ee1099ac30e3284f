// The anonymous daily allowance of signed receipts per client on the tool endpoint. One process
// alone on its database checks and counts in memory in one synchronous step (exact under
// concurrency: JavaScript runs one step at a time) and writes behind once a second, so that a
// crash can give a client at most the calls of its last second again; a client first seen today is
// read from the store once, concurrent first calls sharing that read. Processes that share the
// database (nodes on PostgreSQL, REUSE_PORT on SQLite) count every call in the store with one
// conditional statement instead: exact across them, never more than the limit.
import type { Clock } from '../clock'
import type { Logger } from '../log'
import type { McpStore } from './store'
import { utcDay } from './usage'

export class AnonymousAllowance {
  private day = ''
  private counts = new Map<string, number>()
  private loading = new Map<string, Promise<number>>()
  private dirty = new Set<string>()

  constructor(
    private readonly store: McpStore,
    private readonly clock: Clock,
    private readonly log: Logger,
    /** Other processes count on the same database: count each call there. */
    private readonly shared = false,
  ) {}

  /** True, and counted, when the client is under the limit today; false when it has used it up. */
  async take(clientHash: string, limit: number): Promise<boolean> {
    if (limit <= 0) return false
    const day = utcDay(this.clock.now())
    if (this.shared) return this.store.takeAnonymousCall(day, clientHash, limit)
    if (day !== this.day) {
      await this.flush()
      this.day = day
      this.counts = new Map()
      this.loading = new Map()
    }
    if (!this.counts.has(clientHash)) {
      let load = this.loading.get(clientHash)
      if (!load) {
        load = this.store.anonymousCalls(day, clientHash)
        this.loading.set(clientHash, load)
      }
      const stored = await load
      this.loading.delete(clientHash)
      if (day !== this.day) return this.take(clientHash, limit)
      if (!this.counts.has(clientHash)) this.counts.set(clientHash, stored)
    }
    // From here to the return nothing awaits: check and count are one step.
    const used = this.counts.get(clientHash)!
    if (used >= limit) return false
    this.counts.set(clientHash, used + 1)
    this.dirty.add(clientHash)
    return true
  }

  /**
   * Gives back one call taken today (the call signed nothing); a new day has nothing to give back.
   * In memory: the store only ever raises a count, so a call already written behind stays counted
   * after a restart (the client loses at most that one call).
   */
  async giveBack(clientHash: string): Promise<void> {
    if (this.shared) return this.store.giveBackAnonymousCall(utcDay(this.clock.now()), clientHash)
    if (this.day !== utcDay(this.clock.now())) return
    const used = this.counts.get(clientHash)
    if (!used) return
    this.counts.set(clientHash, used - 1)
    this.dirty.add(clientHash)
  }

  async flush(): Promise<void> {
    if (!this.dirty.size) return
    const changed = new Map([...this.dirty].map((client) => [client, this.counts.get(client)!]))
    this.dirty.clear()
    try {
      await this.store.saveAnonymousCalls(this.day, changed)
    } catch (error) {
      for (const client of changed.keys()) this.dirty.add(client)
      this.log.warn('tool endpoint allowance not saved; will retry', { error: (error as Error).message })
    }
  }

  start(): () => Promise<void> {
    const timer = setInterval(() => void this.flush(), 1000)
    return async () => {
      clearInterval(timer)
      await this.flush()
    }
  }
}
