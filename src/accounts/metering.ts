// Exact per-key request metering for /v5/status, /v5/batch and the tool endpoint's status tool.
//
// Counts live in memory per key (today and this month, UTC), seeded from SQLite the first time a
// key is seen and written behind once a second in one transaction (and once more on a clean
// shutdown). The limit check and the count are one synchronous step after the seed, so on this
// single-threaded process a burst of concurrent requests cannot over-admit. A crash loses at most
// the last second of counts (never credits or sandbox calls: those are spent in SQL at once).
import type { Clock } from '../clock'
import type { Logger } from '../log'
import type { AccountRow } from './store'
import type { MeterWrites, UsageStore } from './usage-store'
import { nextUtcMidnight, planLimit, utcDayOf, utcMonthOf, type FreeLimits, type PlanLimit } from './plan-limits'

const FLUSH_MS = 1000
const MAX_STATES = 200_000

/** The figures behind X-RateLimit-Limit/Remaining/Reset. */
export interface RateLimitInfo {
  limit: number
  remaining: number
  /** When the limit next resets (epoch ms): next UTC midnight, or a sandbox key's expiry. */
  resetAt: number
}

export type MeterOutcome =
  | { admitted: true; via: 'quota' | 'credit' | 'sandbox'; rate: RateLimitInfo; creditBalance: number | null; /** UTC day it was counted on */ day: string }
  | { admitted: false; reason: 'free_exhausted' | 'paid_exhausted' | 'sandbox_exhausted'; rate: RateLimitInfo }

interface KeyState {
  day: string
  month: string
  dayCount: number
  monthCount: number
}

export class Meter {
  private states = new Map<number, KeyState>()
  private loading = new Map<number, Promise<KeyState>>()
  private pending = new Map<string, { accountId: number; day: string; requests: number }>()
  private flushing: Promise<void> | null = null
  /** The UTC day of the last instant seen, so that a request does not format a date to learn it. */
  private today = { start: 0, end: -1, day: '', month: '' }

  constructor(
    private readonly store: UsageStore,
    private readonly writes: MeterWrites,
    private readonly clock: Clock,
    private readonly log: Logger,
    readonly free: FreeLimits,
    /**
     * Several processes count over one database (REUSE_PORT=true): each check-and-count is then one
     * atomic SQL statement (about 8 µs instead of 1 µs) so that the limit holds across processes.
     */
    private readonly shared = false,
  ) {}

  limitOf(account: AccountRow): PlanLimit {
    return planLimit(account.plan, this.free)
  }

  /**
   * Checks the key's limit and counts the request in one step. Free keys past their daily quota
   * spend a credit when they have one; sandbox keys spend one of their calls.
   */
  async meter(account: AccountRow, surface: string): Promise<MeterOutcome> {
    const state = await this.state(account.id)
    // Synchronous from here to the count: nothing else runs in between.
    const now = this.clock.now()
    this.roll(state, now)
    const limit = this.limitOf(account)
    if (limit.kind === 'sandbox') {
      const resetAt = account.expires_at ? Date.parse(account.expires_at) : nextUtcMidnight(now)
      const left = this.writes.spendSandboxCall(account.id, limit.calls)
      if (left === null) return { admitted: false, reason: 'sandbox_exhausted', rate: { limit: limit.calls, remaining: 0, resetAt } }
      this.count(account.id, state)
      return { admitted: true, via: 'sandbox', rate: { limit: limit.calls, remaining: left, resetAt }, creditBalance: null, day: state.day }
    }
    const resetAt = this.utcDay(now).end
    if (this.shared) {
      const counted = this.writes.countBelow(account.id, state.day, limit.daily)
      if (counted !== null) {
        state.dayCount = counted
        state.monthCount++
        return { admitted: true, via: 'quota', rate: { limit: limit.daily, remaining: limit.daily - counted, resetAt }, creditBalance: null, day: state.day }
      }
    } else if (state.dayCount < limit.daily) {
      this.count(account.id, state)
      return { admitted: true, via: 'quota', rate: { limit: limit.daily, remaining: limit.daily - state.dayCount, resetAt }, creditBalance: null, day: state.day }
    }
    const exhausted = { limit: limit.daily, remaining: 0, resetAt }
    if (limit.kind === 'paid') return { admitted: false, reason: 'paid_exhausted', rate: exhausted }
    const balance = this.writes.debitCredit(account.id, surface, new Date(now).toISOString())
    if (balance === null) return { admitted: false, reason: 'free_exhausted', rate: exhausted }
    this.count(account.id, state)
    return { admitted: true, via: 'credit', rate: exhausted, creditBalance: balance, day: state.day }
  }

  /** The refusal a metered call would get now, or null when it would be admitted; counts nothing (HEAD). */
  async peek(account: AccountRow): Promise<Extract<MeterOutcome, { admitted: false }> | null> {
    const now = this.clock.now()
    const limit = this.limitOf(account)
    if (limit.kind === 'sandbox') {
      if (this.writes.sandboxCallsLeft(account.id, limit.calls) > 0) return null
      return { admitted: false, reason: 'sandbox_exhausted', rate: { limit: limit.calls, remaining: 0, resetAt: account.expires_at ? Date.parse(account.expires_at) : nextUtcMidnight(now) } }
    }
    if ((await this.usage(account)).today < limit.daily) return null
    const rate = { limit: limit.daily, remaining: 0, resetAt: nextUtcMidnight(now) }
    if (limit.kind === 'paid') return { admitted: false, reason: 'paid_exhausted', rate }
    return this.writes.creditBalance(account.id) > 0 ? null : { admitted: false, reason: 'free_exhausted', rate }
  }

  /**
   * Undoes an admitted request that failed before its answer (signing offline, audit log down):
   * the count, and the credit or sandbox call it spent. The caller calls it at most once.
   */
  async refund(account: AccountRow, outcome: Extract<MeterOutcome, { admitted: true }>, surface: string): Promise<void> {
    const state = await this.state(account.id)
    this.roll(state, this.clock.now())
    if (state.day === outcome.day) state.dayCount = Math.max(0, state.dayCount - 1)
    if (state.month === outcome.day.slice(0, 7)) state.monthCount = Math.max(0, state.monthCount - 1)
    this.add(account.id, outcome.day, -1)
    if (outcome.via === 'credit') this.writes.refundCredit(account.id, surface, new Date(this.clock.now()).toISOString())
    if (outcome.via === 'sandbox') this.writes.refundSandboxCall(account.id)
  }

  /** Requests counted today and this month (UTC), including those not yet written. */
  async usage(account: AccountRow): Promise<{ today: number; month: number }> {
    if (this.shared) {
      const stored = await this.store.counts(account.id, utcDayOf(this.clock.now()))
      return { today: stored.day, month: stored.month }
    }
    const state = await this.state(account.id)
    this.roll(state, this.clock.now())
    return { today: state.dayCount, month: state.monthCount }
  }

  /** Sandbox calls a key has left (fresh from the store). */
  sandboxCallsLeft(accountId: number, allowance: number): number {
    return this.writes.sandboxCallsLeft(accountId, allowance)
  }

  /** Fresh credit balance of a key. */
  creditBalance(accountId: number): number {
    return this.writes.creditBalance(accountId)
  }

  private async state(accountId: number): Promise<KeyState> {
    const known = this.states.get(accountId)
    if (known) return known
    let loading = this.loading.get(accountId)
    if (!loading) {
      loading = this.seed(accountId).finally(() => this.loading.delete(accountId))
      this.loading.set(accountId, loading)
    }
    const loaded = await loading
    // Every concurrent caller gets the same object (set again if it was evicted meanwhile).
    if (!this.states.has(accountId)) this.states.set(accountId, loaded)
    return this.states.get(accountId)!
  }

  private async seed(accountId: number): Promise<KeyState> {
    const now = this.clock.now()
    const day = utcDayOf(now)
    const stored = await this.store.counts(accountId, day)
    const state = { day, month: utcMonthOf(now), dayCount: stored.day, monthCount: stored.month }
    this.states.set(accountId, state)
    return state
  }

  /** The UTC day (and month) of `now` and its bounds; recomputed only when `now` leaves the cached day. */
  private utcDay(now: number): { start: number; end: number; day: string; month: string } {
    const today = this.today
    if (now >= today.start && now < today.end) return today
    const end = nextUtcMidnight(now)
    this.today = { start: end - 86_400_000, end, day: utcDayOf(now), month: utcMonthOf(now) }
    return this.today
  }

  /** A new UTC day starts the day count again; a new month, the month count too. */
  private roll(state: KeyState, now: number): void {
    const { day, month } = this.utcDay(now)
    if (state.day === day) return
    if (state.month !== month) {
      state.month = month
      state.monthCount = 0
    }
    state.day = day
    state.dayCount = 0
  }

  private count(accountId: number, state: KeyState): void {
    state.dayCount++
    state.monthCount++
    this.add(accountId, state.day, 1)
  }

  private add(accountId: number, day: string, requests: number): void {
    if (this.shared) return this.writes.addRequests(accountId, day, requests)
    const id = `${accountId}|${day}`
    const entry = this.pending.get(id)
    if (entry) entry.requests += requests
    else this.pending.set(id, { accountId, day, requests })
  }

  /** Writes the counted requests in one transaction; a failed write keeps them for the next try. */
  flush(): Promise<void> {
    if (this.flushing) return this.flushing.then(() => this.flush())
    if (!this.pending.size) return Promise.resolve()
    const rows = [...this.pending.values()]
    this.pending = new Map()
    this.flushing = this.store
      .add(rows)
      .catch((error: Error) => {
        this.log.warn('usage counts not written; retrying', { error: error.message, keys: rows.length })
        for (const row of rows) {
          const id = `${row.accountId}|${row.day}`
          const entry = this.pending.get(id)
          if (entry) entry.requests += row.requests
          else this.pending.set(id, row)
        }
      })
      .finally(() => {
        this.flushing = null
        this.evict()
      })
    return this.flushing
  }

  /** Keeps memory bounded: forgets keys with nothing unwritten (they are seeded again when seen). */
  private evict(): void {
    if (this.states.size <= MAX_STATES) return
    const unwritten = new Set([...this.pending.values()].map((row) => row.accountId))
    for (const id of this.states.keys()) if (!unwritten.has(id)) this.states.delete(id)
  }

  /** The write-behind timer; the returned stop writes what is left. */
  start(): () => Promise<void> {
    const timer = setInterval(() => void this.flush(), FLUSH_MS)
    return async () => {
      clearInterval(timer)
      await this.flush()
    }
  }
}
