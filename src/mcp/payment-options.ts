// The get_payment_options answer: every way to get access on this installation, from the pricing
// document (src/catalogue/pricing.ts: configuration and the constants the accounts and payments
// code enforces, and only what is configured), plus the OAuth token exchange of the tool endpoint.
import type { McpToolDeps } from './deps'
import { pricing, x402Terms } from '../catalogue/pricing'
import { SANDBOX_CALLS, SANDBOX_DAYS } from '../catalogue/limits'
import { TOKEN_LIFETIME_SECONDS } from '../accounts/tokens'

export function paymentOptions(deps: Pick<McpToolDeps, 'config'>) {
  const { config } = deps
  const base = config.publicBaseUrl
  const offer = pricing(config)
  return {
    instant_key: { method: 'POST', url: `${base}/v5/keys/instant`, body: { agent_id: 'your-agent-name' }, plan: 'free', note: 'One free key per agent_id, shown once; send it as X-Oracle-Key, or exchange it for a bearer token at /oauth/token.' },
    sandbox: { method: 'POST', url: `${base}/v5/sandbox`, body: { email: 'you@example.com' }, plan: 'sandbox', limits: { days: SANDBOX_DAYS, calls: SANDBOX_CALLS } },
    oauth: { token_endpoint: `${base}/oauth/token`, grant_type: 'client_credentials', client_id: 'your API key', token_lifetime_seconds: TOKEN_LIFETIME_SECONDS },
    x402: { enabled: offer.pay_per_request !== null, ...x402Terms(config) },
    /** null where no credits are sold here. */
    credits: offer.credits && { ...offer.credits, balance: `${base}/v5/credits/balance` },
    /** free, and builder and pro only where they are sold here. */
    plans: offer.plans,
    pricing: `${base}/pricing`,
  }
}
