// POST /v5/sandbox {email, use_case?}: a sandbox key (sb_) for 7 days or 200 calls, whichever
// comes first; one per e-mail or client address per 7-day window. Also mailed when e-mail is
// configured. With X-Payment (an on-chain transfer of at least 0.001 USDC) it sells a credit key
// with 10 credits instead, without e-mail (src/payments/sandbox-credit-key.ts).
import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../deps'
import { ApiError, badRequest } from '../../http/errors'
import { jsonBody, responses } from '../../http/openapi'
import { AllowanceExhausted } from '../self-service'
import { canUpgrade, capabilities } from '../capabilities'
import { plansOffer, quickstart, SANDBOX_CALLS, SANDBOX_DAYS, upgradeUrl, USE_CASE_MAX } from '../offers'
import { buySandboxCreditKey, SANDBOX_X402_CREDITS } from '../../payments/sandbox-credit-key'
import { callerAddress, parseEmail, readJsonObject, secondsUntil } from './input'

const paymentsNotConfigured = () =>
  new ApiError(503, 'PAYMENTS_NOT_CONFIGURED', 'x402 payments are not configured on this server; leave out X-Payment and send {"email": "…"} for a sandbox key')

function parseUseCase(value: unknown): string | null {
  if (value === undefined || value === null) return null
  if (typeof value !== 'string' || [...value].length > USE_CASE_MAX) throw badRequest('INVALID_USE_CASE', `use_case must be a string of at most ${USE_CASE_MAX} characters`)
  return value.trim() || null
}

export function sandboxRoutes(deps: AppDeps) {
  return new Elysia({ name: 'accounts-sandbox' }).post(
    '/v5/sandbox',
    async ({ request, server }) => {
      if (request.headers.has('x-payment') || request.headers.has('payment-signature')) {
        if (!deps.config.x402.payTo) throw paymentsNotConfigured()
        const bought = await buySandboxCreditKey(deps, request.headers)
        deps.log.info('sandbox credit key sold', { key_prefix: bought.key_prefix })
        return bought
      }
      const body = await readJsonObject(request, deps, 'INVALID_EMAIL', '{"email": "…", "use_case": "…"}')
      const email = parseEmail(body.email)
      if (!email) throw badRequest('INVALID_EMAIL', body.email === undefined ? 'email is required' : 'email must be an e-mail address')
      const useCase = parseUseCase(body.use_case)
      const now = deps.clock.now()
      let issued
      try {
        issued = await deps.selfService.sandbox(email, useCase, callerAddress(request, deps, server), now, deps.mail.configured)
      } catch (error) {
        if (!(error instanceof AllowanceExhausted)) throw error
        throw new ApiError(
          429,
          'SANDBOX_LIMIT_REACHED',
          `one sandbox key per e-mail address or client address per ${SANDBOX_DAYS} days; get a free key at /v5/keys/instant${canUpgrade(capabilities(deps.config)) ? ' or upgrade' : ''}`,
          { upgrade_url: upgradeUrl(deps.config), plans: plansOffer(deps.config), retry_at: new Date(error.resetAt).toISOString() },
          { 'retry-after': String(secondsUntil(error.resetAt, now)) },
        )
      }
      if (issued.mailId !== null) deps.mail.wake()
      deps.log.info('sandbox key issued', { key_prefix: issued.keyPrefix, mailed: issued.mailId !== null })
      return {
        api_key: issued.key,
        key_prefix: issued.keyPrefix,
        tier: 'sandbox',
        email_captured: true,
        email_sent: issued.mailId !== null,
        expires_at: issued.expiresAt,
        calls_remaining: issued.callsRemaining,
        upgrade_url: upgradeUrl(deps.config),
        quickstart: quickstart(deps.config, issued.key),
      }
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
