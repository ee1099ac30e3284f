// Fixed one-minute windows per key (client address, account). Counts live in memory; the
// table is bounded, and when it is full the oldest key is evicted, so a flood of new keys never
// turns limiting off. Only a fault inside the limiter admits a request (witness spec: fail open).

export interface RateDecision {
  allowed: boolean
  limit: number
  remaining: number
  /** Epoch ms when the current window ends. */
  resetAt: number
  /** Whole seconds until the next window (at least 1). */
  retryAfterSeconds: number
}

export const MAX_KEYS_PER_WINDOW = 200_000

export class RateLimiter {
  private window = -1
  private counts = new Map<string, number>()

  constructor(
    readonly limit: number,
    private readonly windowMs = 60_000,
    private readonly maxKeys = MAX_KEYS_PER_WINDOW,
  ) {}

  /** Counts `cost` requests (one by default) for `key` at `now`. */
  hit(key: string, now: number, cost = 1): RateDecision {
    const window = Math.floor(now / this.windowMs)
    const resetAt = (window + 1) * this.windowMs
    const retryAfterSeconds = Math.max(1, Math.ceil((resetAt - now) / 1000))
    try {
      if (window !== this.window) {
        this.window = window
        this.counts = new Map()
      }
      const previous = this.counts.get(key)
      if (previous === undefined && this.counts.size >= this.maxKeys) {
        // A Map iterates in insertion order: the first key is the oldest in this window.
        this.counts.delete(this.counts.keys().next().value!)
      }
      const count = (previous ?? 0) + cost
      this.counts.set(key, count)
      return { allowed: count <= this.limit, limit: this.limit, remaining: Math.max(0, this.limit - count), resetAt, retryAfterSeconds }
    } catch {
      // Only a fault in the limiter itself admits (witness spec: fails open on a limiter error).
      return { allowed: true, limit: this.limit, remaining: this.limit, resetAt, retryAfterSeconds }
    }
  }
}

export function rateLimitHeaders(decision: RateDecision): Record<string, string> {
  const headers: Record<string, string> = {
    'x-ratelimit-limit': String(decision.limit),
    'x-ratelimit-remaining': String(decision.remaining),
    'x-ratelimit-reset': String(Math.ceil(decision.resetAt / 1000)),
  }
  if (!decision.allowed) headers['retry-after'] = String(decision.retryAfterSeconds)
  return headers
}
