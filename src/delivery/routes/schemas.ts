// OpenAPI shapes of the webhook surfaces (documentation only; responses are not validated).
import { t } from 'elysia'

export const WebhookEntrySchema = t.Object({
  webhook_id: t.String({ format: 'uuid' }),
  url: t.String({ format: 'uri' }),
  mics: t.Array(t.String()),
  events: t.Array(t.String()),
  created_at: t.String({ format: 'date-time' }),
  status: t.Union([t.Literal('active'), t.Literal('paused')]),
})
