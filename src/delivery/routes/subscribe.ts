// POST /v5/webhooks/subscribe: builder and pro keys register an HTTPS URL for state changes of
// some MICs. The target is resolved now and refused when it is not public (ssrf.ts). The signing
// secret is answered once, after the row is committed.
import { Elysia, t } from 'elysia'
import { randomUUID } from 'node:crypto'
import type { DeliveryDeps } from '../deps'
import { API_KEY_HEADER } from '../../http/auth'
import { requireAccount } from '../../accounts/key-check'
import { ApiError, badRequest } from '../../http/errors'
import { readBodyText } from '../../http/body'
import { jsonBody, responses } from '../../http/openapi'
import { parseSubscribe } from '../webhooks/validate'
import { newWebhookSecret } from '../webhooks/signing'
import { WEBHOOK_LIMITS } from '../../catalogue/limits'
import { webhookEntry, type WebhookRow } from '../webhooks/store'
import { WebhookEntrySchema } from './schemas'
import { resolveStatus } from '../../market/resolve'
import type { Mic } from '../../calendar/mics'

const MAX_BODY_BYTES = 16 * 1024

/**
 * A MIC nobody watched before gets its current state stored now, so that a change right after
 * subscribing is delivered rather than taken as the dispatcher's first sight (a baseline). A MIC
 * with a stored state keeps it; a view this node's caches have not caught up with stores nothing
 * (the dispatcher's first sight does).
 */
async function baselineNewMics(deps: DeliveryDeps, mics: readonly Mic[]): Promise<void> {
  const now = deps.clock.now()
  for (const mic of mics) await deps.delivery.baseline(mic, await resolveStatus(deps, mic, now), now)
}

export function subscribeRoutes(deps: DeliveryDeps) {
  return new Elysia({ name: 'delivery-webhook-subscribe' }).post(
    '/v5/webhooks/subscribe',
    async ({ request }) => {
      const account = await requireAccount(deps, request.headers.get(API_KEY_HEADER))
      const limit = WEBHOOK_LIMITS[account.plan]
      if (!limit) throw new ApiError(402, 'PLAN_REQUIRED', `webhooks need a builder or pro key (this key is ${account.plan})`)
      const input = parseSubscribe(await readBodyText(request, MAX_BODY_BYTES, deps))
      const target = await deps.delivery.sender.check(input.url)
      if (!target.ok) {
        // The key holder is not told what the host resolved to (that would map the operator's
        // network through the service's resolver); the operator's log has it.
        deps.log.info('webhook target refused', { key_prefix: account.key_prefix, host: input.url.host, reason: target.reason })
        throw badRequest('WEBHOOK_TARGET_FORBIDDEN', target.kind === 'port' ? target.reason : `${input.url.hostname} does not resolve to public addresses only; a webhook may not reach loopback, private, link-local or other special-purpose addresses`)
      }
      const row: WebhookRow = {
        id: randomUUID(),
        key_hash: account.key_hash,
        url: input.url.href,
        mics: input.mics,
        events: input.events,
        secret: newWebhookSecret(),
        status: 'active',
        paused_reason: null,
        created_at: new Date(deps.clock.now()).toISOString(),
      }
      await deps.transactor.run(() => deps.delivery.webhooks.create(row, limit), { name: 'webhook-subscribe' })
      await baselineNewMics(deps, input.mics)
      deps.log.info('webhook subscribed', { webhook_id: row.id, key_prefix: account.key_prefix, host: input.url.host, mics: row.mics })
      return { ...webhookEntry(row), subscription_id: row.id, secret: row.secret }
    },
    {
      parse: 'none',
      detail: {
        tags: ['delivery'],
        summary: 'Subscribe an HTTPS URL to state changes and/or calendar changes (builder 5, pro 25); the signing secret is shown once',
        requestBody: jsonBody(t.Object({ url: t.String({ format: 'uri', description: 'https:// URL resolving to public addresses, on port 443 or 1024–65535' }), mics: t.Array(t.String(), { minItems: 1 }), events: t.Optional(t.Array(t.Union([t.Literal('status_change'), t.Literal('calendar_change')]), { description: 'status_change (default): market state changes; calendar_change: changed dates of the MICs\' calendars' })) })),
        responses: responses({
          200: ['Subscription with its signing secret (whsec_…, shown once)', t.Composite([WebhookEntrySchema, t.Object({ subscription_id: t.String({ description: 'legacy alias of webhook_id' }), secret: t.String() })])],
          400: 'BAD_REQUEST, URL_REQUIRED, INVALID_URL, HTTPS_REQUIRED, MICS_REQUIRED, TOO_MANY_MICS, UNKNOWN_MIC, UNKNOWN_EVENT, INVALID_EVENTS, WEBHOOK_TARGET_FORBIDDEN',
          401: 'API_KEY_REQUIRED',
          402: 'PLAN_REQUIRED (free, sandbox and other plans) or ACCOUNT_INACTIVE',
          403: 'INVALID_API_KEY or WEBHOOK_LIMIT_REACHED',
          413: 'PAYLOAD_TOO_LARGE',
        }),
      },
    },
  )
}
