// Per-address and per-account rate limits of the witness (witness.md 8), and the `upgrade`
// object offered when the anonymous cap or an account quota is reached.
import type { Config } from '../config'
import { RateLimiter } from '../http/rate-limit'
import { ACCOUNT_DAILY_QUOTA } from './service'
import { capabilities } from '../accounts/capabilities'

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

/**
 * The `upgrade` object of the witness refusals (witness spec 8), with only the custody plans this
 * installation sells; null when it sells none (then no refusal offers one).
 */
export function upgradeOffer(config: Config) {
  const { witness } = config
  const sold = capabilities(config).witness
  const plans = [
    { plan: 'custody_90d' as const, name: 'Evidence Starter: 90-day custody', amount_usd: witness.plan90dUsd, currency: 'USD', billing: 'monthly', checkpoints_per_utc_day: ACCOUNT_DAILY_QUOTA.evidence_starter },
    { plan: 'custody_1y' as const, name: 'Evidence: one-year custody', amount_usd: witness.plan1yUsd, currency: 'USD', billing: 'monthly', checkpoints_per_utc_day: ACCOUNT_DAILY_QUOTA.evidence },
  ].filter((offer) => sold[offer.plan])
  if (!plans.length) return null
  return {
    plans,
    checkout: {
      method: 'POST',
      url: witness.checkoutUrl,
      headers: { 'content-type': 'application/json' },
      body: { plan: plans[0]!.plan },
      then: 'Open the url in the response in a browser. Nothing is bought unless a person completes the payment there; the key arrives by e-mail and goes in Authorization: Bearer <key>.',
    },
    pricing: witness.pricingUrl,
  }
}

/** `{upgrade}` for a refusal body, or nothing when no custody plan is sold here. */
export function upgradeField(config: Config): { upgrade?: NonNullable<ReturnType<typeof upgradeOffer>> } {
  const upgrade = upgradeOffer(config)
  return upgrade ? { upgrade } : {}
}
