// The `upgrade` object offered when the witness's anonymous cap or an account quota is reached
// (witness spec 8): the custody plans this installation sells, with their prices and quotas.
import type { Config } from '../config'
import { ACCOUNT_DAILY_QUOTA } from './limits'
import { capabilities } from './capabilities'

const NO_CHECKOUT_NOTE = 'No custody plan can be bought on this installation yet (no checkout is configured); the plans, their prices and quotas are listed for the operator to arrange. Retry after 00:00 UTC, or ask the operator.'

/**
 * The `upgrade` object of the witness refusals (witness spec 8), always present as the spec says:
 * the custody plans this installation sells, with a checkout request; or, where none is sold,
 * both plans with their prices and quotas, `checkout: null` and a note (a checkout that answers
 * 503 is never offered).
 */
export function upgradeOffer(config: Config) {
  const { witness } = config
  const sold = capabilities(config).witness
  const all = [
    { plan: 'custody_90d' as const, name: 'Evidence Starter: 90-day custody', amount_usd: witness.plan90dUsd, currency: 'USD', billing: 'monthly', checkpoints_per_utc_day: ACCOUNT_DAILY_QUOTA.evidence_starter },
    { plan: 'custody_1y' as const, name: 'Evidence: one-year custody', amount_usd: witness.plan1yUsd, currency: 'USD', billing: 'monthly', checkpoints_per_utc_day: ACCOUNT_DAILY_QUOTA.evidence },
  ]
  const plans = all.filter((offer) => sold[offer.plan])
  if (!plans.length) return { plans: all, checkout: null, pricing: witness.pricingUrl, note: NO_CHECKOUT_NOTE }
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

/** `{upgrade}` for a refusal body (the anonymous cap's 503, an account's 429). */
export function upgradeField(config: Config): { upgrade: ReturnType<typeof upgradeOffer> } {
  return { upgrade: upgradeOffer(config) }
}
