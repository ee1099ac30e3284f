// Tool-endpoint usage for /v5/metrics: requests today and distinct clients today. Counted in
// memory on the request path and written behind once a second, so a crash loses at most the
// last second of these (best-effort) figures. Clients are salted hashes, never addresses; the
// day is part of the hash, so one client cannot be followed from one day to the next.
import type { Clock } from '../clock'
import type { Logger } from '../log'
import { sha256Hex } from '../crypto/hash'
import type { McpStore } from './store'

const FLUSH_MS = 1000
const MAX_PENDING_CLIENTS = 100_000

export const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10)

export class McpUsage {
  private salt: string | null = null
  private pendingDay = ''
  private pendingRequests = 0
  private pendingClients = new Set<string>()
  private flushing: Promise<void> | null = null

  constructor(
    private readonly store: McpStore,
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {}

  async clientHash(address: string, day = utcDay(this.clock.now())): Promise<string> {
    this.salt ??= await this.store.salt()
    return sha256Hex(`${this.salt}|${day}|${address}`).slice(0, 32)
  }

  /** Counts one JSON-RPC request from a client (by hash). */
  record(day: string, clientHash: string, requests: number): void {
    if (day !== this.pendingDay) {
      void this.flush()
      this.pendingDay = day
    }
    this.pendingRequests += requests
    this.pendingClients.add(clientHash)
    if (this.pendingClients.size >= MAX_PENDING_CLIENTS) void this.flush()
  }

  async today(): Promise<{ requests: number; clients: number }> {
    await this.flush()
    return this.store.usage(utcDay(this.clock.now()))
  }

  flush(): Promise<void> {
    if (this.flushing) return this.flushing.then(() => this.flush())
    if (!this.pendingRequests && !this.pendingClients.size) return Promise.resolve()
    const day = this.pendingDay
    const requests = this.pendingRequests
    const clients = [...this.pendingClients]
    this.pendingRequests = 0
    this.pendingClients = new Set()
    this.flushing = this.store
      .addUsage(day, requests, clients)
      .catch((error: Error) => this.log.warn('tool endpoint usage not recorded', { error: error.message, requests }))
      .finally(() => {
        this.flushing = null
      })
    return this.flushing
  }

  start(): () => Promise<void> {
    const timer = setInterval(() => void this.flush(), FLUSH_MS)
    return async () => {
      clearInterval(timer)
      await this.flush()
    }
  }
}
