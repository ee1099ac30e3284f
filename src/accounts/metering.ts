// Exact per-key request metering for /v5/status, /v5/batch and the tool endpoint's status tool.
//
// One process on its database (SQLite, the default): counts live in memory per key (today and
// this month, UTC), seeded from the database the first time a key is seen and written behind once
// a second in one transaction (and once more on a clean shutdown). The limit check and the count
// are one synchronous step after the seed, so on this single-threaded process a burst of
// concurrent requests cannot over-admit. A crash loses at most the last second of counts.
//
// Several processes or nodes on one database (WORKERS or REUSE_PORT on SQLite, every PostgreSQL node): the
// daily quota is claimed from the database in slices (quota-slices.ts: never more admitted than
// the limit; the early-refusal bound is stated there), and the counts are the stored ones.
//
// Credits and sandbox calls are spent in the database at once, one conditional statement per
// request, in both cases: exact, whatever the number of nodes.
import type { Clock } from '../clock'
import type { Logger } from '../log'
import type { AccountRow } from './store'
import type { MeterWrites, UsageStore } from './usage-store'
import { QuotaSlices } from './quota-slices'
import { nextUtcMidnight, planLimit, utcDayOf, utcMonthOf, type FreeLimits, type PlanLimit } from '../catalogue/limits'

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

/** Counting shared with other processes or nodes: the largest quota slice a node claims at once. */
export interface SharedCounting {
  maxSlice: number
}

export class Meter {
  private states = new Map<number, KeyState>()
  private loading = new Map<number, Promise<KeyState>>()
  private pending = new Map<string, { accountId: number; day: string; requests: number }>()
  private flushing: Promise<void> | null = null
  /** The UTC day of the last instant seen, so that a request does not format a date to learn it. */
  private today = { start: 0, end: -1, day: '', month: '' }
  /** Set when other processes or nodes count over the same database. */
  private readonly slices: QuotaSlices | null

  constructor(
    private readonly store: UsageStore,
    private readonly writes: MeterWrites,
    private readonly clock: Clock,
    private readonly log: Logger,
    readonly free: FreeLimits,
    shared: SharedCounting | null = null,
  ) {
    this.slices = shared ? new QuotaSlices(writes, clock, log, shared.maxSlice) : null
  }

  limitOf(account: AccountRow): PlanLimit {
    return planLimit(account.plan, this.free)
  }

  /**
   * Checks the key's limit and counts the request. Free keys past their daily quota spend a
   * credit when they have one; sandbox keys spend one of their calls.
   */
  async meter(account: AccountRow, surface: string): Promise<MeterOutcome> {
    const limit = this.limitOf(account)
    if (limit.kind === 'sandbox') {
      const now = this.clock.now()
      const resetAt = account.expires_at ? Date.parse(account.expires_at) : nextUtcMidnight(now)
      const left = await this.writes.spendSandboxCall(account.id, limit.calls)
      if (left === null) return { admitted: false, reason: 'sandbox_exhausted', rate: { limit: limit.calls, remaining: 0, resetAt } }
      const day = await this.count(account.id)
      return { admitted: true, via: 'sandbox', rate: { limit: limit.calls, remaining: left, resetAt }, creditBalance: null, day }
    }
    const quota = this.slices ? await this.takeShared(account, limit.daily) : await this.takeLocal(account.id, limit.daily)
    if (quota.admitted) return { admitted: true, via: 'quota', rate: { limit: limit.daily, remaining: quota.remaining, resetAt: quota.resetAt }, creditBalance: null, day: quota.day }
    const exhausted = { limit: limit.daily, remaining: 0, resetAt: quota.resetAt }
    if (limit.kind === 'paid') return { admitted: false, reason: 'paid_exhausted', rate: exhausted }
    const balance = await this.writes.debitCredit(account.id, surface, new Date(this.clock.now()).toISOString())
    if (balance === null) return { admitted: false, reason: 'free_exhausted', rate: exhausted }
    const day = await this.count(account.id)
    return { admitted: true, via: 'credit', rate: exhausted, creditBalance: balance, day }
  }

  /** One process: the in-memory count, checked and counted in one synchronous step after the seed. */
  private async takeLocal(accountId: number, daily: number): Promise<{ admitted: boolean; remaining: number; resetAt: number; day: string }> {
    const state = await this.state(accountId)
    // Synchronous from here to the count: nothing else runs in between.
    const now = this.clock.now()
    this.roll(state, now)
    const resetAt = this.utcDay(now).end
    if (state.dayCount >= daily) return { admitted: false, remaining: 0, resetAt, day: state.day }
    this.countIn(accountId, state)
    return { admitted: true, remaining: daily - state.dayCount, resetAt, day: state.day }
  }

  /**
   * Shared counting: a request of the node's claimed slice. A free key that holds credits claims
   * one request at a time, so that no credit is spent while a slice of its free quota lies unused
   * on another node.
   */
  private async takeShared(account: AccountRow, daily: number): Promise<{ admitted: boolean; remaining: number; resetAt: number; day: string }> {
    const { day, end } = this.utcDay(this.clock.now())
    const cap = account.plan === 'free' && account.credit_balance > 0 ? 1 : undefined
    const remaining = await this.slices!.take(account.id, day, daily, cap)
    return { admitted: remaining !== null, remaining: remaining ?? 0, resetAt: end, day }
  }

  /** The refusal a metered call would get now, or null when it would be admitted; counts nothing (HEAD). */
  async peek(account: AccountRow): Promise<Extract<MeterOutcome, { admitted: false }> | null> {
    const now = this.clock.now()
    const limit = this.limitOf(account)
    if (limit.kind === 'sandbox') {
      if ((await this.writes.sandboxCallsLeft(account.id, limit.calls)) > 0) return null
      return { admitted: false, reason: 'sandbox_exhausted', rate: { limit: limit.calls, remaining: 0, resetAt: account.expires_at ? Date.parse(account.expires_at) : nextUtcMidnight(now) } }
    }
    if ((await this.usage(account)).today < limit.daily) return null
    const rate = { limit: limit.daily, remaining: 0, resetAt: nextUtcMidnight(now) }
    if (limit.kind === 'paid') return { admitted: false, reason: 'paid_exhausted', rate }
    return (await this.writes.creditBalance(account.id)) > 0 ? null : { admitted: false, reason: 'free_exhausted', rate }
  }

  /**
   * Undoes an admitted request that failed before its answer (signing offline, audit log down):
   * the count, and the credit or sandbox call it spent. The caller calls it at most once.
   */
  async refund(account: AccountRow, outcome: Extract<MeterOutcome, { admitted: true }>, surface: string): Promise<void> {
    if (this.slices) {
      await this.writes.addRequests(account.id, outcome.day, -1)
    } else {
      const state = await this.state(account.id)
      this.roll(state, this.clock.now())
      if (state.day === outcome.day) state.dayCount = Math.max(0, state.dayCount - 1)
      if (state.month === outcome.day.slice(0, 7)) state.monthCount = Math.max(0, state.monthCount - 1)
      this.add(account.id, outcome.day, -1)
    }
    if (outcome.via === 'credit') await this.writes.refundCredit(account.id, surface, new Date(this.clock.now()).toISOString())
    if (outcome.via === 'sandbox') await this.writes.refundSandboxCall(account.id)
  }

  /**
   * Requests counted today and this month (UTC), including those not yet written. Shared
   * counting: the stored counts less this node's unused slice (other nodes' unused slices are in
   * them until given back, within about two seconds of going idle).
   */
  async usage(account: AccountRow): Promise<{ today: number; month: number }> {
    if (this.slices) {
      const day = this.utcDay(this.clock.now()).day
      const stored = await this.store.counts(account.id, day)
      const unused = this.slices.unusedOf(account.id, day)
      return { today: Math.max(0, stored.day - unused), month: Math.max(0, stored.month - unused) }
    }
    const state = await this.state(account.id)
    this.roll(state, this.clock.now())
    return { today: state.dayCount, month: state.monthCount }
  }

  /** Sandbox calls a key has left (fresh from the store). */
  sandboxCallsLeft(accountId: number, allowance: number): Promise<number> {
    return this.writes.sandboxCallsLeft(accountId, allowance)
  }

  /** Fresh credit balance of a key. */
  creditBalance(accountId: number): Promise<number> {
    return this.writes.creditBalance(accountId)
  }

  /** Counts a request paid by a credit or a sandbox call (their limits are the balance and the calls); the UTC day. */
  private async count(accountId: number): Promise<string> {
    if (this.slices) {
      const day = this.utcDay(this.clock.now()).day
      // The credit or call is spent already: a count that cannot be written is only a figure lost.
      await this.writes.addRequests(accountId, day, 1).catch((error: Error) => this.log.warn('request count not written', { error: error.message }))
      return day
    }
    const state = await this.state(accountId)
    this.roll(state, this.clock.now())
    this.countIn(accountId, state)
    return state.day
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

  private countIn(accountId: number, state: KeyState): void {
    state.dayCount++
    state.monthCount++
    this.add(accountId, state.day, 1)
  }

  private add(accountId: number, day: string, requests: number): void {
    const id = `${accountId}|${day}`
    const entry = this.pending.get(id)
    if (entry) entry.requests += requests
    else this.pending.set(id, { accountId, day, requests })
  }

  /**
   * Writes the counted requests in one transaction; a failed write keeps them for the next try.
   * Shared counting: gives back idle slices instead (the counts are written as they happen).
   */
  flush(): Promise<void> {
    if (this.slices) return this.slices.giveBack(this.utcDay(this.clock.now()).day)
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

  /** The write-behind (or give-back) timer; the returned stop writes what is left and gives back every slice. */
  start(): () => Promise<void> {
    const timer = setInterval(() => void this.flush(), FLUSH_MS)
    return async () => {
      clearInterval(timer)
      await this.flush()
      await this.slices?.giveBack(this.utcDay(this.clock.now()).day, true)
    }
  }
}
