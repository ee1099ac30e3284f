// POST /v5/checkout {plan, email?}: a Paddle checkout for a plan; answers {url} to send the buyer
// to. 503 when billing is not configured, 502 when Paddle fails; other methods 405. Limited per
// client address, since each call creates a transaction at the provider.
import { Elysia, t } from 'elysia'
import type { PaymentsDeps } from '../deps'
import { ApiError, badRequest } from '../../http/errors'
import { readBodyText } from '../../http/body'
import { clientAddress } from '../../http/client-address'
import { rateLimitHeaders } from '../../http/rate-limit'
import { jsonBody, responses } from '../../http/openapi'

const CHECKOUT_MAX_BODY_BYTES = 4096
export const CHECKOUT_PER_MINUTE = 10
import { PADDLE_PRICE_VARIABLES, type PaddleProduct } from '../../config'
import { BillingProviderError, createCheckout } from '../paddle/api'
import { capabilities } from '../../catalogue/capabilities'

const PRODUCTS = Object.keys(PADDLE_PRICE_VARIABLES) as PaddleProduct[]
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}$/

export function checkoutRoutes(deps: PaymentsDeps) {
  return new Elysia({ name: 'payments-checkout' })
    .post(
      '/v5/checkout',
      async ({ request, server }) => {
        const decision = deps.checkoutLimiter.hit(clientAddress(request, deps.config.clientIpHeader, server), deps.clock.now())
        if (!decision.allowed) throw new ApiError(429, 'RATE_LIMITED', `over ${CHECKOUT_PER_MINUTE} checkouts per minute from this address; retry in ${decision.retryAfterSeconds} s`, {}, rateLimitHeaders(decision))
        let body: Record<string, unknown>
        const text = await readBodyText(request, CHECKOUT_MAX_BODY_BYTES, deps)
        try {
          body = JSON.parse(text) as Record<string, unknown>
        } catch {
          throw badRequest('BAD_REQUEST', 'body must be JSON {plan, email?}')
        }
        const plan = body?.plan
        if (typeof plan !== 'string' || !PRODUCTS.includes(plan as PaddleProduct)) throw badRequest('INVALID_PLAN', `plan must be one of ${PRODUCTS.join(', ')}`)
        const email = body.email === undefined ? null : typeof body.email === 'string' && EMAIL.test(body.email) ? body.email : undefined
        if (email === undefined) throw badRequest('INVALID_EMAIL', 'email must be an e-mail address')
        const price = deps.config.paddle.prices[plan as PaddleProduct]
        // Card checkout only where the purchase can end with a key in the buyer's mailbox: the API
        // key and price, the webhook secret (the event that makes the key) and e-mail.
        if (!price || !capabilities(deps.config).card[plan as PaddleProduct]) throw new ApiError(503, 'BILLING_NOT_CONFIGURED', `card payments for ${plan} are not configured on this server (see ${deps.config.publicBaseUrl}/pricing)`)
        try {
          return { url: await createCheckout(deps.config, price, email) }
        } catch (error) {
          if (error instanceof BillingProviderError) throw new ApiError(502, 'BILLING_PROVIDER_ERROR', error.message)
          throw error
        }
      },
      {
        parse: 'none',
        detail: {
          tags: ['payments'],
          summary: 'Start a card checkout (Paddle) for a plan',
          requestBody: jsonBody(t.Object({ plan: t.Union(PRODUCTS.map((product) => t.Literal(product))), email: t.Optional(t.String({ format: 'email' })) })),
          responses: responses({ 200: ['Checkout', t.Object({ url: t.String({ format: 'uri' }) })], 400: 'INVALID_PLAN or INVALID_EMAIL', 405: 'METHOD_NOT_ALLOWED', 429: 'RATE_LIMITED (Retry-After)', 502: 'BILLING_PROVIDER_ERROR', 503: 'BILLING_NOT_CONFIGURED' }),
        },
      },
    )
  // Every other method: 405 with `Allow: OPTIONS, POST` from the HTTP plugin (src/http/plugin.ts).
}
