// POST /v5/sandbox: with X-Payment (an on-chain transfer of at least 0.001 USDC) it sells a credit
// key with 10 credits, without e-mail (../sandbox-credit-key.ts); without one it is the accounts'
// sandbox key (sb_) for an e-mail address (accounts/sandbox-key.ts), described here too, since a
// path has one route.
import { Elysia, t } from 'elysia'
import type { PaymentsDeps } from '../deps'
import { ApiError } from '../../http/errors'
import { jsonBody, responses } from '../../http/openapi'
import { requestSandboxKey, USE_CASE_MAX } from '../../accounts/sandbox-key'
import { SANDBOX_CALLS, SANDBOX_DAYS } from '../../catalogue/limits'
import { SANDBOX_X402_CREDITS } from '../../catalogue/prices'
import { buySandboxCreditKey } from '../sandbox-credit-key'

const paymentsNotConfigured = () =>
  new ApiError(503, 'PAYMENTS_NOT_CONFIGURED', 'x402 payments are not configured on this server; leave out X-Payment and send {"email": "…"} for a sandbox key')

export function sandboxRoutes(deps: PaymentsDeps) {
  return new Elysia({ name: 'payments-sandbox' }).post(
    '/v5/sandbox',
    async ({ request, server }) => {
      if (request.headers.has('x-payment') || request.headers.has('payment-signature')) {
        if (!deps.config.x402.payTo) throw paymentsNotConfigured()
        const bought = await buySandboxCreditKey(deps, request.headers)
        deps.log.info('sandbox credit key sold', { key_prefix: bought.key_prefix })
        return bought
      }
      return requestSandboxKey(deps, request, server)
    },
    {
      parse: 'none',
      detail: {
        tags: ['accounts'],
        summary: `Get a sandbox key (sb_): ${SANDBOX_DAYS} days or ${SANDBOX_CALLS} calls, one per e-mail or client address per ${SANDBOX_DAYS} days`,
        description: `With X-Payment ({txHash, …} of a USDC transfer of at least 0.001 to the payTo address) the answer is instead a credit key (svc_crd_) with ${SANDBOX_X402_CREDITS} credits, tier "credits", and no e-mail is taken.`,
        requestBody: jsonBody(t.Object({ email: t.String({ format: 'email' }), use_case: t.Optional(t.String({ maxLength: USE_CASE_MAX })) })),
        responses: responses({
          200: [
            'Sandbox key (api_key shown once; also e-mailed when e-mail is configured), or with X-Payment a credit key',
            t.Union([
              t.Object({ api_key: t.String(), key_prefix: t.String(), tier: t.Literal('sandbox'), email_captured: t.Boolean(), email_sent: t.Boolean(), expires_at: t.String({ format: 'date-time' }), calls_remaining: t.Integer(), upgrade_url: t.String({ format: 'uri' }), quickstart: t.Object({ curl: t.String(), javascript: t.String(), python: t.String() }) }),
              t.Object({ api_key: t.String(), key_prefix: t.String(), tier: t.Literal('credits'), credits: t.Integer(), email_captured: t.Literal(false), paid_atomic: t.String() }),
            ]),
          ],
          400: 'INVALID_EMAIL or INVALID_USE_CASE',
          402: 'X-Payment sent and refused: PAYMENT_* (malformed, insufficient, replayed, wrong recipient, too old…)',
          429: 'SANDBOX_LIMIT_REACHED (message, upgrade_url, plans; Retry-After)',
          503: 'X-Payment sent: PAYMENTS_NOT_CONFIGURED or CHAIN_RPC_UNAVAILABLE (nothing granted)',
        }),
      },
    },
  )
}
