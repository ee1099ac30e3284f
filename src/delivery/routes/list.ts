// GET /v5/webhooks: the key's subscriptions (no secrets) with their count.
import { Elysia, t } from 'elysia'
import type { DeliveryDeps } from '../deps'
import { API_KEY_HEADER } from '../../http/auth'
import { requireAccount } from '../../accounts/key-check'
import { responses } from '../../http/openapi'
import { webhookEntry } from '../webhooks/store'
import { WebhookEntrySchema } from './schemas'

export function listRoutes(deps: DeliveryDeps) {
  return new Elysia({ name: 'delivery-webhook-list' }).get(
    '/v5/webhooks',
    async ({ request }) => {
      const account = await requireAccount(deps, request.headers.get(API_KEY_HEADER))
      const webhooks = (await deps.delivery.webhooks.listByKey(account.key_hash)).map(webhookEntry)
      return { webhooks, count: webhooks.length }
    },
    {
      detail: {
        tags: ['delivery'],
        summary: "The key's webhook subscriptions",
        responses: responses({ 200: ['Webhook list', t.Object({ webhooks: t.Array(WebhookEntrySchema), count: t.Integer() })], 401: 'API_KEY_REQUIRED', 402: 'ACCOUNT_INACTIVE', 403: 'INVALID_API_KEY' }),
      },
    },
  )
}
