// The get_payment_options answer: every way to get access, from configuration (nothing typed twice).
import type { AppDeps } from '../deps'
import { atomicAmount } from '../payments/requirements'

export function paymentOptions(deps: Pick<AppDeps, 'config'>) {
  const { config } = deps
  const base = config.publicBaseUrl
  const x402 = config.x402
  return {
    instant_key: { method: 'POST', url: `${base}/v5/keys/instant`, body: { agent_id: 'your-agent-name' }, plan: 'free', note: 'One free key per agent_id, shown once; send it as X-Oracle-Key, or exchange it for a bearer token at /oauth/token.' },
    sandbox: { method: 'POST', url: `${base}/v5/sandbox`, body: { email: 'you@example.com' }, plan: 'sandbox', limits: { days: 7, calls: 200 } },
    oauth: { token_endpoint: `${base}/oauth/token`, grant_type: 'client_credentials', client_id: 'your API key', token_lifetime_seconds: 3600 },
    x402: {
      enabled: x402.payTo !== null,
      network: x402.network,
      asset: x402.asset,
      pay_to: x402.payTo,
      prices_usdc: { '/v5/status': x402.statusPrice, '/v5/batch': x402.batchPrice },
      prices_atomic: { '/v5/status': atomicAmount(x402.statusPrice), '/v5/batch': atomicAmount(x402.batchPrice) },
      headers: ['Payment-Signature (x402 v2)', 'X-Payment (x402 v1)'],
    },
    credits: { purchase: `${base}/v5/credits/purchase`, balance: `${base}/v5/credits/balance`, packs_usdc: { '0.001': 1, '0.09': 100, '0.80': 1000 } },
    plans: { checkout: `${base}/v5/checkout`, builder: { daily_limit: 50_000 }, pro: { daily_limit: 200_000 } },
  }
}
