// DELETE /v5/webhooks/{webhook_id}: removes the subscription and its undelivered deliveries.
import { Elysia, t } from 'elysia'
import type { DeliveryDeps } from '../deps'
import { API_KEY_HEADER } from '../../http/auth'
import { requireAccount } from '../../accounts/key-check'
import { responses } from '../../http/openapi'
import { ownedWebhook } from './owned'

export function deleteRoutes(deps: DeliveryDeps) {
  return new Elysia({ name: 'delivery-webhook-delete' }).delete(
    '/v5/webhooks/:webhook_id',
    async ({ request, params, set }) => {
      const account = await requireAccount(deps, request.headers.get(API_KEY_HEADER))
      const row = await ownedWebhook(deps.delivery.webhooks, account, params.webhook_id)
      await deps.delivery.webhooks.delete(row.id)
      // A MIC nobody watches any more forgets its state, so a later subscriber starts afresh.
      await deps.delivery.queue.forgetUnsubscribed()
      deps.log.info('webhook deleted', { webhook_id: row.id, key_prefix: account.key_prefix })
      set.status = 204
      return new Response(null, { status: 204 })
    },
    {
      params: t.Object({ webhook_id: t.String() }),
      detail: { tags: ['delivery'], summary: 'Delete a webhook subscription (permanent)', responses: responses({ 204: 'Deleted', 401: 'API_KEY_REQUIRED', 403: 'INVALID_API_KEY or WEBHOOK_NOT_OWNED', 404: 'WEBHOOK_NOT_FOUND' }) },
    },
  )
}
