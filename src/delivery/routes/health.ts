// GET /v5/webhooks/health (public): the dispatcher's last stored record; does not wake it.
import { Elysia, t } from 'elysia'
import type { DeliveryDeps } from '../deps'
import { responses } from '../../http/openapi'

export function healthRoutes(deps: DeliveryDeps) {
  return new Elysia({ name: 'delivery-webhook-health' }).get(
    '/v5/webhooks/health',
    async ({ set }) => {
      set.headers['cache-control'] = 'no-store'
      const record = await deps.delivery.records.read()
      // A record older than three cycles means the dispatcher stopped: its health is not known.
      const stale = record && deps.clock.now() - Date.parse(record.checked_at) > 3 * deps.config.delivery.dispatchIntervalSeconds * 1000
      if (record) return stale ? { ...record, status: 'unknown' } : record
      // Never ran (a fresh database): nothing is known.
      const now = new Date(deps.clock.now()).toISOString()
      return { status: 'unknown', next_alarm: now, checked_at: now }
    },
    {
      detail: {
        tags: ['delivery'],
        summary: 'Webhook dispatcher health (last stored cycle record)',
        responses: responses({ 200: ['Dispatcher health', t.Object({ status: t.Union([t.Literal('ok'), t.Literal('unknown')]), next_alarm: t.String({ format: 'date-time' }), checked_at: t.String({ format: 'date-time' }) })] }),
      },
    },
  )
}
