// Fixed one-minute windows per key (client address, account). Best effort by design: counts
// live in memory, and any limiter fault admits the request (fail open) rather than blocking it.

export interface RateDecision {
  allowed: boolean
  limit: number
  remaining: number
  /** Epoch ms when the current window ends. */
  resetAt: number
  /** Whole seconds until the next window (at least 1). */
  retryAfterSeconds: number
}

const MAX_KEYS_PER_WINDOW = 200_000

export class RateLimiter {
  private window = -1
  private counts = new Map<string, number>()

  constructor(
    readonly limit: number,
    private readonly windowMs = 60_000,
  ) {}

  /** Counts one request for `key` at `now`. */
  hit(key: string, now: number): RateDecision {
    const window = Math.floor(now / this.windowMs)
    const resetAt = (window + 1) * this.windowMs
    const retryAfterSeconds = Math.max(1, Math.ceil((resetAt - now) / 1000))
    try {
      if (window !== this.window) {
        this.window = window
        this.counts = new Map()
      }
      if (this.counts.size >= MAX_KEYS_PER_WINDOW && !this.counts.has(key)) throw new Error('limiter table full')
      const count = (this.counts.get(key) ?? 0) + 1
      this.counts.set(key, count)
      return { allowed: count <= this.limit, limit: this.limit, remaining: Math.max(0, this.limit - count), resetAt, retryAfterSeconds }
    } catch {
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
