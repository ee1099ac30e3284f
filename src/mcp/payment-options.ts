// The get_payment_options answer: every way to get access, read from configuration and from the
// constants the accounts and payments code enforces (nothing typed twice).
import type { AppDeps } from '../deps'
import { atomicAmount } from '../payments/requirements'
import { CREDIT_PACKS } from '../payments/credits'
import { SANDBOX_CALLS, SANDBOX_DAYS } from '../accounts/plan-limits'
import { plansOffer } from '../accounts/offers'
import { TOKEN_LIFETIME_SECONDS } from '../accounts/tokens'

/** USDC (6 decimals) as a decimal string with at least two decimals: 800000 → "0.80", 1000 → "0.001". */
function usdc(atomic: bigint): string {
  const [whole, fraction = ''] = (Number(atomic) / 1e6).toFixed(6).replace(/0+$/, '').split('.')
  return `${whole}.${fraction.padEnd(2, '0')}`
}

export function paymentOptions(deps: Pick<AppDeps, 'config'>) {
  const { config } = deps
  const base = config.publicBaseUrl
  const x402 = config.x402
  return {
    instant_key: { method: 'POST', url: `${base}/v5/keys/instant`, body: { agent_id: 'your-agent-name' }, plan: 'free', note: 'One free key per agent_id, shown once; send it as X-Oracle-Key, or exchange it for a bearer token at /oauth/token.' },
    sandbox: { method: 'POST', url: `${base}/v5/sandbox`, body: { email: 'you@example.com' }, plan: 'sandbox', limits: { days: SANDBOX_DAYS, calls: SANDBOX_CALLS } },
    oauth: { token_endpoint: `${base}/oauth/token`, grant_type: 'client_credentials', client_id: 'your API key', token_lifetime_seconds: TOKEN_LIFETIME_SECONDS },
    x402: {
      enabled: x402.payTo !== null,
      network: x402.network,
      asset: x402.asset,
      pay_to: x402.payTo,
      prices_usdc: { '/v5/status': x402.statusPrice, '/v5/batch': x402.batchPrice },
      prices_atomic: { '/v5/status': atomicAmount(x402.statusPrice), '/v5/batch': atomicAmount(x402.batchPrice) },
      headers: ['Payment-Signature (x402 v2)', 'X-Payment (x402 v1)'],
    },
    credits: { purchase: `${base}/v5/credits/purchase`, balance: `${base}/v5/credits/balance`, packs_usdc: Object.fromEntries(CREDIT_PACKS.map((pack) => [usdc(pack.atomic), pack.credits])) },
    plans: { checkout: `${base}/v5/checkout`, ...plansOffer(config) },
  }
}
