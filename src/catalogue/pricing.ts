// The pricing document (GET /pricing, and the tool endpoint's get_payment_options): every way to
// get access on this installation, with prices, from configuration and the constants the code
// enforces. Only what is configured is listed (capabilities.ts): a bare install offers free and
// sandbox keys and says that nothing is sold.
import type { Config } from '../config'
import { atomicAmount, SANDBOX_X402_CREDITS, SANDBOX_X402_PRICE_USDC, usdc } from './prices'
import { CREDIT_PACKS } from './credit-packs'
import { upgradeOffer } from './witness-offers'
import { canBuyCredits, canBuyPlan, capabilities } from './capabilities'
import { MINT_PERIOD_DAYS, MINT_TIERS } from './mint-tiers'
import { PAID_DAILY_LIMITS, SANDBOX_CALLS, SANDBOX_DAYS } from './limits'

/**
 * The plans a key holder can get here: free always; builder and pro only where this installation
 * sells them, each with only the ways that are configured (mint on chain, card checkout).
 */
export function plansOffer(config: Config) {
  const base = config.publicBaseUrl
  const can = capabilities(config)
  const offer: Record<string, Record<string, unknown>> = {
    free: { daily_limit: config.metering.freeDailyLimit, get: `POST ${base}/v5/keys/instant {"agent_id": "…"}` },
  }
  for (const plan of ['builder', 'pro'] as const) {
    if (!canBuyPlan(can, plan)) continue
    offer[plan] = {
      daily_limit: PAID_DAILY_LIMITS[plan],
      ...(can.x402Transfers ? { price_usdc: MINT_TIERS[plan].priceUsdc, period_days: MINT_PERIOD_DAYS, mint: `POST ${base}/v5/x402/mint {"tx_hash": "…", "tier": "${plan}"}` } : {}),
      ...(can.card[plan] ? { checkout: `POST ${base}/v5/checkout {"plan": "${plan}"}` } : {}),
    }
  }
  return offer
}

/** Credit packs as the chain proof counts them: USDC paid → credits. */
export const creditPacksUsdc = () => Object.fromEntries(CREDIT_PACKS.map((pack) => [usdc(pack.atomic), pack.credits]))

/** The x402 per-request terms (prices from configuration; pay_to null where unset). */
export function x402Terms(config: Config) {
  const x402 = config.x402
  return { scheme: 'x402', network: x402.network, asset: x402.asset, pay_to: x402.payTo, prices_usdc: { '/v5/status': x402.statusPrice, '/v5/batch': x402.batchPrice }, prices_atomic: { '/v5/status': atomicAmount(x402.statusPrice), '/v5/batch': atomicAmount(x402.batchPrice) }, headers: ['Payment-Signature (x402 v2)', 'X-Payment (x402 v1)'] }
}

export function pricing(config: Config) {
  const can = capabilities(config)
  const base = config.publicBaseUrl
  const creditWays = [
    ...(can.x402Transfers ? [{ via: 'x402_transfer', request: `POST ${base}/v5/credits/purchase`, note: 'credits for the key in X-Oracle-Key, paid with a USDC transfer (X-Payment: {"txHash": …})' }] : []),
    ...(can.card.credits ? [{ via: 'card', request: `POST ${base}/v5/checkout {"plan": "credits"}`, note: 'a new credit key holding 1,000 credits, e-mailed after payment' }] : []),
  ]
  const witness = upgradeOffer(config)
  return {
    issuer: config.issuer,
    free: {
      daily_limit: config.metering.freeDailyLimit,
      get: [
        { via: 'instant', request: `POST ${base}/v5/keys/instant {"agent_id": "…"}`, note: 'shown once in the answer; one per agent_id' },
        ...(can.emailKeys ? [{ via: 'email', request: `POST ${base}/v5/keys/request {"email": "…"}`, note: 'sent by e-mail only' }] : []),
      ],
    },
    sandbox: {
      days: SANDBOX_DAYS,
      calls: SANDBOX_CALLS,
      get: `POST ${base}/v5/sandbox {"email": "…"}`,
      emailed: can.emailKeys,
      ...(can.x402Transfers ? { credit_key: { price_usdc: SANDBOX_X402_PRICE_USDC, credits: SANDBOX_X402_CREDITS, request: `POST ${base}/v5/sandbox with X-Payment: {"txHash": …}` } } : {}),
    },
    /** builder and pro appear only where they can be bought here. */
    plans: plansOffer(config),
    pay_per_request: can.x402PerRequest ? x402Terms(config) : null,
    credits: canBuyCredits(can) ? { ...(can.x402Transfers ? { packs_usdc: creditPacksUsdc() } : {}), ways: creditWays } : null,
    /** Custody plans appear only where one can be bought here. */
    witness: witness.checkout ? { plans: witness.plans, checkout: witness.checkout } : null,
  }
}

export type Pricing = ReturnType<typeof pricing>
