// What one caller of the tool endpoint may have the server do at once and per minute: the message
// rate (anonymous per address, a bearer token per key, every tool) and the messages outstanding per
// caller: being answered, or answered but not yet taken by a client that does not read (docs/mcp.md,
// "Limits").
// 150 non-reading connections of one bearer token sending 100-element get_market_calendar batches
// used to grow the process by 281 MB for 10 s: nothing bounded a key's messages.
import { RateLimiter, type RateDecision } from '../http/rate-limit'
import { MCP_MAX_OUTSTANDING } from './limits'

export type Refusal = { kind: 'rate'; decision: RateDecision } | { kind: 'outstanding'; limit: number }

/** Who is counted: an address (anonymous) or a key (bearer token). */
export type CallerKey = `address:${string}` | `key:${string}`

export class Admission {
  private readonly anonymousRate: RateLimiter
  private readonly keyRate: RateLimiter
  private readonly inFlight = new Map<CallerKey, number>()

  constructor(limits: { anonymousRatePerMinute: number; keyRatePerMinute: number }, private readonly maxOutstanding = MCP_MAX_OUTSTANDING) {
    this.anonymousRate = new RateLimiter(limits.anonymousRatePerMinute)
    this.keyRate = new RateLimiter(limits.keyRatePerMinute)
  }

  /** Counts `messages` against the caller's rate; a refusal when the minute cannot take them all (then nothing is run). */
  countMessages(caller: CallerKey, now: number, messages = 1): Refusal | null {
    const limiter = caller.startsWith('key:') ? this.keyRate : this.anonymousRate
    const decision = limiter.hit(caller, now, messages)
    return decision.allowed ? null : { kind: 'rate', decision }
  }

  /**
   * Takes `messages` of the caller's outstanding places until `release` is called (the answer
   * handed over whole, dropped, or the request failed); null when they do not fit.
   */
  enter(caller: CallerKey, messages = 1): { release(): void } | null {
    const current = this.inFlight.get(caller) ?? 0
    if (current + messages > this.maxOutstanding) return null
    this.inFlight.set(caller, current + messages)
    let released = false
    return {
      release: () => {
        if (released) return
        released = true
        const left = (this.inFlight.get(caller) ?? messages) - messages
        if (left <= 0) this.inFlight.delete(caller)
        else this.inFlight.set(caller, left)
      },
    }
  }

  /** Messages outstanding now (for tests). */
  outstanding(caller?: CallerKey): number {
    if (caller) return this.inFlight.get(caller) ?? 0
    let total = 0
    for (const count of this.inFlight.values()) total += count
    return total
  }
}
