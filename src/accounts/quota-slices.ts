// Daily request quotas counted by several processes or nodes over one database, without a
// database round trip per request: each node claims a slice of a key's day from the database
// (one conditional statement: the day's stored count may never pass the limit) and admits
// requests from its slice in memory. So:
//
// - Never more admitted than the limit: a node admits only requests it claimed, and the claims
//   of all nodes together stay within the limit (the statement's row lock orders them).
// - A node may refuse early: when the database has nothing left to claim while another node still
//   holds unused requests of its slice. A node holds one slice at a time (it claims again only
//   when its slice is used up), of max(1, ⌊(limit − stored) / SLICE_DIVISOR⌋) requests at the
//   time of the claim and never more than its current size (below). So a refusal leaves unused
//   at most one slice per other node: at most (nodes − 1) × min(maxSlice, max(1, ⌊limit /
//   SLICE_DIVISOR⌋)) requests, and a slice claimed when fewer than 2 × SLICE_DIVISOR were left is
//   a single request, used by the request that claimed it. A slice unused for SLICE_IDLE_MS is
//   given back at the next give-back round (each second), so the unused part comes back within
//   about two seconds of its node going quiet; every slice at a clean stop. A node that dies keeps
//   its slice counted for that day: at most one slice per key it was serving, under-admission only.
// - The stored day count includes claimed-but-unused requests until they are given back.
//
// The size adapts to the key's pace: a key starts at FIRST_SLICE, and a slice used up within
// SLICE_GROW_MS of its claim makes the next one twice as large, up to `maxSlice`; one that lasted
// longer than SLICE_IDLE_MS starts again at FIRST_SLICE. A claim is a durable commit (a WAL
// flush on PostgreSQL) that every request of the key waits on once its slice is used up, so at a
// fixed size a key answering thousands of requests a second waited on one about every 64
// requests (a probe of the scale-out bench: PostgreSQL ÷ SQLite 0.50–0.60 with 64, 0.67–0.77
// with slices grown to 4,096; docs/performance.md); a quiet key still claims small slices.
//
// With `maxSlice` 1 every admission is one claim of one request: exact with no early refusal, at
// a write per request. Several SQLite processes on one file (WORKERS, REUSE_PORT) claim slices up
// to MAX_SLICE as PostgreSQL nodes do (wiring/assemble.ts).
import type { Clock } from '../clock'
import type { Logger } from '../log'
import type { MeterWrites } from './usage-store'

/** A slice is at most this fraction of what is left of the day's quota… */
export const SLICE_DIVISOR = 16
/** …and at most this many requests (PostgreSQL nodes): a busy key's slices grow to it… */
export const MAX_SLICE = 4096
/** …from this many, a key's first slice (and again after a slow one). */
export const FIRST_SLICE = 64
/** A slice used up within this long of its claim makes the next one twice as large. */
export const SLICE_GROW_MS = 250
/** A slice that admitted nothing for this long is given back at the next round. */
export const SLICE_IDLE_MS = 1000

interface Slice {
  accountId: number
  day: string
  /** Claimed by this node and not admitted yet. */
  unused: number
  /** The day's stored count after this node's last claim (all nodes' claims, and counts written). */
  stored: number
  /** When this node last admitted from the slice (or claimed it). */
  usedAt: number
  /** The size of the next claim (before the limit's share caps it), and when the last claim got its requests. */
  size: number
  claimedAt: number
  /** The claim in flight, resolving to the number of requests it got (0: nothing left). */
  claiming: Promise<number> | null
}

export class QuotaSlices {
  private slices = new Map<string, Slice>()

  constructor(
    private readonly writes: Pick<MeterWrites, 'claim' | 'addRequests'>,
    private readonly clock: Clock,
    private readonly log: Pick<Logger, 'warn'>,
    readonly maxSlice: number,
  ) {}

  /**
   * Admits one request of the key's day within `limit`: the requests left as far as this node
   * knows (for X-RateLimit-Remaining), or null when the day's quota is claimed in full. `cap`
   * lowers the slice size for this key (1: claim exactly what is admitted).
   */
  async take(accountId: number, day: string, limit: number, cap = this.maxSlice): Promise<number | null> {
    for (;;) {
      const slice = this.sliceOf(accountId, day)
      if (slice.unused > 0) {
        slice.unused--
        slice.usedAt = this.clock.now()
        return Math.max(0, limit - slice.stored) + slice.unused
      }
      // One claim in flight per key: concurrent requests wait for it and share what it got.
      slice.claiming ??= this.claim(slice, limit, Math.min(cap, this.maxSlice)).finally(() => {
        slice.claiming = null
      })
      if ((await slice.claiming) === 0) return null
    }
  }

  /** Requests this node holds unused for a key's day (the stored count includes them). */
  unusedOf(accountId: number, day: string): number {
    return this.slices.get(`${accountId}|${day}`)?.unused ?? 0
  }

  /**
   * Gives back what is unused of slices idle for SLICE_IDLE_MS (all of them with `all`, at a
   * clean stop), and forgets slices of past days. A failed give-back keeps the slice for the next round.
   */
  async giveBack(today: string, all = false): Promise<void> {
    const now = this.clock.now()
    const returns: Promise<void>[] = []
    for (const [id, slice] of this.slices) {
      if (slice.claiming) continue
      const idle = all || slice.day !== today || now - slice.usedAt >= SLICE_IDLE_MS
      if (!idle) continue
      if (slice.unused === 0) {
        if (slice.day !== today || all) this.slices.delete(id)
        continue
      }
      const unused = slice.unused
      slice.unused = 0
      returns.push(
        this.writes.addRequests(slice.accountId, slice.day, -unused).then(
          () => {
            if (this.slices.get(id) === slice && slice.unused === 0 && !slice.claiming) this.slices.delete(id)
          },
          (error: Error) => {
            // Still claimed in the database: keep holding (and using) them.
            slice.unused += unused
            this.log.warn('unused quota not given back; retrying', { error: error.message, requests: unused })
          },
        ),
      )
    }
    await Promise.all(returns)
  }

  private sliceOf(accountId: number, day: string): Slice {
    const id = `${accountId}|${day}`
    let slice = this.slices.get(id)
    if (!slice) {
      slice = { accountId, day, unused: 0, stored: 0, usedAt: this.clock.now(), size: Math.min(FIRST_SLICE, this.maxSlice), claimedAt: Number.NEGATIVE_INFINITY, claiming: null }
      this.slices.set(id, slice)
    }
    return slice
  }

  /** Claims a slice: its size, or 1 when that does not fit, or nothing (0). */
  private async claim(slice: Slice, limit: number, cap: number): Promise<number> {
    const lasted = this.clock.now() - slice.claimedAt
    if (lasted < SLICE_GROW_MS) slice.size = Math.min(this.maxSlice, slice.size * 2)
    else if (lasted > SLICE_IDLE_MS) slice.size = Math.min(FIRST_SLICE, this.maxSlice)
    const want = Math.max(1, Math.min(cap, slice.size, Math.floor((limit - slice.stored) / SLICE_DIVISOR)))
    let got = want
    let stored = await this.writes.claim(slice.accountId, slice.day, limit, want)
    if (stored === null && want > 1) {
      got = 1
      stored = await this.writes.claim(slice.accountId, slice.day, limit, 1)
    }
    if (stored === null) {
      slice.stored = Math.max(slice.stored, limit)
      return 0
    }
    slice.stored = stored
    slice.unused += got
    slice.usedAt = slice.claimedAt = this.clock.now()
    return got
  }
}
