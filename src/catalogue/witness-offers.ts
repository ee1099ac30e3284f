// The `upgrade` object offered when the witness's anonymous cap or an account quota is reached
// (witness spec 8): the custody plans this installation sells, with their prices and quotas.
import type { Config } from '../config'
import { ACCOUNT_DAILY_QUOTA } from './limits'
import { capabilities } from './capabilities'

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
