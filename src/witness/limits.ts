// Per-address and per-account rate limits of the witness (witness.md 8). The `upgrade` object
// offered when the anonymous cap or an account quota is reached is catalogue/witness-offers.ts.
import { RateLimiter } from '../http/rate-limit'

export const ANONYMOUS_RATE = 60
export const AUTHORIZED_RATE = 600

export interface WitnessLimiters {
  anonymousPost: RateLimiter
  anonymousGet: RateLimiter
  authorizedAddress: RateLimiter
  authorizedAccount: RateLimiter
}

export function witnessLimiters(): WitnessLimiters {
  return {
    anonymousPost: new RateLimiter(ANONYMOUS_RATE),
    anonymousGet: new RateLimiter(ANONYMOUS_RATE),
    authorizedAddress: new RateLimiter(AUTHORIZED_RATE),
    authorizedAccount: new RateLimiter(AUTHORIZED_RATE),
  }
}

/** Whole seconds until the next 00:00 UTC (at least 1). */
export function secondsToUtcMidnight(now: number): number {
  const next = Math.floor(now / 86_400_000 + 1) * 86_400_000
  return Math.max(1, Math.ceil((next - now) / 1000))
}
