// Metering outcomes as HTTP: the X-RateLimit-* headers of a metered answer and the refusals
// (free tier exhausted → 402 with the x402 requirements, paid limit → 429, sandbox → 402).
import type { MeterDeps } from './deps'
import type { AccountRow } from './store'
import { ApiError } from '../http/errors'
import { paymentRequired } from '../catalogue/payment-requirements'
import type { MeterOutcome, RateLimitInfo } from './metering'
import { canBuyPlan, canUpgrade, capabilities } from '../catalogue/capabilities'

export interface PaymentOffer {
  resourceUrl: string
  price: string
  description: string
}

/** Where a key holder upgrades: the pricing page (/pricing, or WITNESS_PRICING_URL). */
export const upgradeUrlOf = (deps: Pick<MeterDeps, 'config'>) => deps.config.witness.pricingUrl

/** X-RateLimit-Reset is the reset instant in Unix seconds (as GitHub and others send it). */
export function rateLimitHeaders(rate: RateLimitInfo): Record<string, string> {
  return {
    'x-ratelimit-limit': String(rate.limit),
    'x-ratelimit-remaining': String(Math.max(0, rate.remaining)),
    'x-ratelimit-reset': String(Math.ceil(rate.resetAt / 1000)),
  }
}

/** Headers of an admitted metered answer (credit-paid answers also say the balance left). */
export function admittedHeaders(outcome: Extract<MeterOutcome, { admitted: true }>): Record<string, string> {
  const headers = rateLimitHeaders(outcome.rate)
  if (outcome.creditBalance !== null) headers['x-credits-remaining'] = String(outcome.creditBalance)
  return headers
}

export function meterRefusal(deps: Pick<MeterDeps, 'config' | 'clock'>, account: AccountRow, outcome: Extract<MeterOutcome, { admitted: false }>, offer: PaymentOffer): ApiError {
  const now = deps.clock.now()
  const retryAfter = String(Math.max(1, Math.ceil((outcome.rate.resetAt - now) / 1000)))
  const resetsAt = new Date(outcome.rate.resetAt).toISOString()
  const upgradeUrl = upgradeUrlOf(deps)
  const headers = rateLimitHeaders(outcome.rate)
  switch (outcome.reason) {
    case 'free_exhausted': {
      const { body, header } = paymentRequired(deps.config, offer.resourceUrl, offer.price, offer.description)
      const { error: _error, message: _message, ...requirements } = body
      const message = `this free key has used its ${outcome.rate.limit} requests for today (UTC); the quota resets at ${resetsAt}. ${waysToContinue(deps.config, offer.price)}`
      const upgrade = canUpgrade(capabilities(deps.config)) ? { upgrade_url: upgradeUrl } : {}
      return new ApiError(402, 'FREE_TIER_EXHAUSTED', message, { ...requirements, daily_limit: outcome.rate.limit, resets_at: resetsAt, credit_balance: 0, ...upgrade }, {
        ...headers,
        'retry-after': retryAfter,
        'payment-required': header,
      })
    }
    case 'paid_exhausted':
      return new ApiError(429, 'RATE_LIMITED', `the ${account.plan} plan allows ${outcome.rate.limit} requests per UTC day; the limit resets at ${resetsAt}`, { plan: account.plan, daily_limit: outcome.rate.limit, resets_at: resetsAt }, {
        ...headers,
        'retry-after': retryAfter,
      })
    case 'sandbox_exhausted':
      return sandboxExhausted(deps, account, 0)
  }
}

/** A sandbox key that has used its calls or passed its expiry (spec 3: 7 days or 200 calls). */
export function sandboxExhausted(deps: Pick<MeterDeps, 'config'>, account: AccountRow, callsRemaining: number | null): ApiError {
  const upgrade = canUpgrade(capabilities(deps.config))
  return new ApiError(402, 'SANDBOX_KEY_EXHAUSTED', `this sandbox key has used its calls or passed its expiry; get a free key (POST /v5/keys/instant)${upgrade ? ` or upgrade (${upgradeUrlOf(deps)})` : ''}`, {
    expires_at: account.expires_at,
    calls_remaining: callsRemaining ?? account.calls_remaining,
    ...(upgrade ? { upgrade_url: upgradeUrlOf(deps) } : {}),
  })
}

/** What a free key past its daily limit can do today on this installation, as one sentence. */
export function waysToContinue(config: MeterDeps['config'], price: string): string {
  const can = capabilities(config)
  const ways = [
    ...(can.x402PerRequest ? [`pay ${price} USDC for this request with x402 (Payment-Signature or X-Payment)`] : []),
    ...(can.x402Transfers ? ['buy credits for this key (POST /v5/credits/purchase)'] : []),
    ...(can.card.credits ? ['buy a 1,000-credit key by card (POST /v5/checkout {"plan": "credits"})'] : []),
    ...(canBuyPlan(can, 'builder') || canBuyPlan(can, 'pro') ? [`upgrade to a paid plan (${config.witness.pricingUrl})`] : []),
  ]
  return ways.length ? `To continue today: ${ways.join('; or ')}.` : 'Nothing is sold on this server: the key answers again after the reset.'
}

export type Metered =
  | { admitted: true; via: 'quota' | 'credit' | 'sandbox'; headers: Record<string, string>; /** undo the count (and credit or sandbox call) when the request then fails */ refund: () => Promise<void> }
  | { admitted: false; reason: Extract<MeterOutcome, { admitted: false }>['reason']; error: ApiError }

/**
 * Meters one request of an admitted key (status and usable already checked): counts it, or says
 * why not with the answer to give. For /v5/status, /v5/batch and the tool endpoint's status tool;
 * `surface` names the call in the credit ledger ('/v5/status', '/mcp:get_market_status').
 */
export async function meter(deps: MeterDeps, account: AccountRow, surface: string, offer: PaymentOffer): Promise<Metered> {
  const outcome = await deps.meter.meter(account, surface)
  if (outcome.admitted) {
    let refunded = false
    const refund = async () => {
      if (refunded) return
      refunded = true
      await deps.meter.refund(account, outcome, surface)
    }
    return { admitted: true, via: outcome.via, headers: admittedHeaders(outcome), refund }
  }
  return { admitted: false, reason: outcome.reason, error: meterRefusal(deps, account, outcome, offer) }
}
