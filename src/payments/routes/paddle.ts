// POST /webhooks/paddle: billing-provider notifications. The signature is checked on the raw
// body before it is parsed; each event id is applied once; 200 only after the commit.
import { Elysia, t } from 'elysia'
import type { PaymentsDeps } from '../deps'
import { ApiError } from '../../http/errors'
import { readBodyText } from '../../http/body'
import { responses } from '../../http/openapi'
import { checkPaddleSignature } from '../paddle/signature'
import { parsePaddleEvent, purchaseFrom } from '../paddle/events'
import { BillingProviderError, customerEmail } from '../paddle/api'

const MAX_BODY_BYTES = 256 * 1024

export function paddleRoutes(deps: PaymentsDeps) {
  return new Elysia({ name: 'payments-paddle' }).post(
    '/webhooks/paddle',
    async ({ request }) => {
      const { paddle } = deps.config
      if (!paddle.webhookSecrets.length) throw new ApiError(503, 'BILLING_NOT_CONFIGURED', 'PADDLE_WEBHOOK_SECRET is not configured on this server')
      const header = request.headers.get('paddle-signature')
      if (!header) throw new ApiError(400, 'SIGNATURE_REQUIRED', 'the Paddle-Signature header is missing')
      const raw = await readBodyText(request, MAX_BODY_BYTES, deps)
      const check = checkPaddleSignature(header, raw, paddle.webhookSecrets, deps.clock.now())
      if (!check.ok) throw new ApiError(401, 'INVALID_SIGNATURE', `the Paddle-Signature does not verify (${check.reason})`)
      let body: unknown
      try {
        body = JSON.parse(raw)
      } catch {
        throw new ApiError(400, 'BAD_REQUEST', 'the notification body is not JSON')
      }
      const event = parsePaddleEvent(body)
      if (!event) throw new ApiError(400, 'BAD_REQUEST', 'the notification lacks event_id, event_type, occurred_at or data')
      const purchase = event.event_type === 'transaction.completed' ? purchaseFrom(event, paddle.prices) : null
      let email = purchase?.email ?? null
      if (purchase && !email) {
        if (!purchase.customerId || !paddle.apiKey) throw new ApiError(503, 'BILLING_NOT_CONFIGURED', 'the purchase carries no e-mail and the customer cannot be looked up (PADDLE_API_KEY); retry later')
        try {
          email = await customerEmail(deps.config, purchase.customerId)
        } catch (error) {
          // Paddle retries a failed delivery; nothing was recorded.
          if (error instanceof BillingProviderError) throw new ApiError(503, 'BILLING_PROVIDER_UNAVAILABLE', error.message, {}, { 'retry-after': '60' })
          throw error
        }
      }
      const result = await deps.paddleEvents(event, email, deps.clock.now())
      // A new key's mail is committed: send it now rather than at the mail job's next round.
      if (purchase && result.outcome === 'applied') deps.mail.wake()
      deps.log.info('paddle notification', { event_id: event.event_id, event_type: event.event_type, outcome: result.outcome })
      return { received: true, event_id: event.event_id, outcome: result.outcome }
    },
    {
      parse: 'none',
      detail: {
        tags: ['payments'],
        summary: 'Paddle notifications (Paddle-Signature verified on the raw body)',
        responses: responses({
          200: ['Processed (or a redelivery, changing nothing)', t.Object({ received: t.Boolean(), event_id: t.String(), outcome: t.String({ description: 'applied, duplicate, stale or ignored' }) })],
          400: 'SIGNATURE_REQUIRED or BAD_REQUEST',
          401: 'INVALID_SIGNATURE (mismatch, malformed, or older than 300 s)',
          503: 'BILLING_NOT_CONFIGURED or BILLING_PROVIDER_UNAVAILABLE (Paddle retries)',
        }),
      },
    },
  )
}
