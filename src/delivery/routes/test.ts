// POST /v5/webhooks/test/{webhook_id}: one synthetic delivery with the current state of the
// subscription's first MIC, signed like a real one, no retry. A paused subscription whose test
// delivery succeeds is active again (the documented way to resume after a dead letter).
import { Elysia, t } from 'elysia'
import type { DeliveryDeps } from '../deps'
import { API_KEY_HEADER } from '../../http/auth'
import { requireAccount } from '../../accounts/key-check'
import { responses } from '../../http/openapi'
import { issueLiveReceipt } from '../../market/issue'
import type { Mic } from '../../calendar/mics'
import { deliveryBody } from '../webhooks/payload'
import { newMessageId } from '../webhooks/signing'
import { ownedWebhook } from './owned'

export function testRoutes(deps: DeliveryDeps) {
  return new Elysia({ name: 'delivery-webhook-test' }).post(
    '/v5/webhooks/test/:webhook_id',
    async ({ request, params }) => {
      const account = await requireAccount(deps, request.headers.get(API_KEY_HEADER))
      const row = await ownedWebhook(deps.delivery.webhooks, account, params.webhook_id)
      const mic = row.mics[0] as Mic
      const receipt = await issueLiveReceipt(deps, mic, { surface: '/v5/webhooks/test', keyHash: account.key_hash })
      const payload = deliveryBody({ webhook_id: row.id, mic, previous_status: receipt.status, current_status: receipt.status, receipt, occurred_at: receipt.issued_at, test: true })
      const result = await deps.delivery.sender.send(row, newMessageId(), JSON.stringify(payload), deps.clock.now())
      if (result.delivered && row.status === 'paused') {
        await deps.delivery.webhooks.setStatus(row.id, 'active', null)
        deps.log.info('webhook resumed by a successful test delivery', { webhook_id: row.id })
      }
      // The key holder gets the category only; the operator's log has the detail.
      if (!result.delivered) deps.log.info('webhook test delivery failed', { webhook_id: row.id, host: new URL(row.url).host, error: result.detail })
      return { delivered: result.delivered, payload_sent: payload, status_code: result.statusCode, ...(result.error ? { error: result.error } : {}) }
    },
    {
      params: t.Object({ webhook_id: t.String() }),
      detail: {
        tags: ['delivery'],
        summary: 'Send one synthetic, signed delivery now (no retry); a success resumes a paused subscription',
        responses: responses({
          200: ['Test result', t.Object({ delivered: t.Boolean(), payload_sent: t.Object({}, { additionalProperties: true }), status_code: t.Integer({ description: '0 when the target gave no HTTP answer' }), error: t.Optional(t.String({ description: 'on failure only: target_forbidden, connect_failed, tls_failed, timeout or http_<code>' })) })],
          401: 'API_KEY_REQUIRED',
          403: 'INVALID_API_KEY or WEBHOOK_NOT_OWNED',
          404: 'WEBHOOK_NOT_FOUND',
          503: 'AUDIT_LOG_UNAVAILABLE',
        }),
      },
    },
  )
}
