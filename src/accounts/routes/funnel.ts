// GET /v5/funnel?date= (operator: ADMIN_KEY in X-Oracle-Key): keys issued that UTC day by channel
// (top of funnel) and the share of them that made a metered call (conversion).
import { Elysia, t } from 'elysia'
import type { AccountsDeps } from '../deps'
import { authPlugin } from '../../http/auth'
import { responses } from '../../http/openapi'
import { parseDateParam } from '../../audit/dates'

export function funnelRoutes(deps: AccountsDeps) {
  // A key counts as converted when its row records a use, or the audit log holds a receipt it paid for.
  const usedInAudit = async (keyHash: string) => (await deps.audit.store.keyReceipts({ keyHash, limit: 1 })).length > 0
  return new Elysia({ name: 'accounts-funnel' }).use(authPlugin(deps)).get(
    '/v5/funnel',
    async ({ query }) => {
      const date = parseDateParam(query.date, new Date(deps.clock.now()).toISOString().slice(0, 10))
      return deps.selfService.events.funnel(date, usedInAudit)
    },
    {
      admin: true,
      query: t.Object({ date: t.Optional(t.String()) }),
      detail: {
        tags: ['operator'],
        summary: 'Key funnel of one UTC day (X-Oracle-Key: ADMIN_KEY)',
        description: 'top_of_funnel: self-service keys issued that day (instant, e-mail, sandbox); conversion_rate: the share of them that have made a metered call since.',
        responses: responses({
          200: ['Funnel', t.Object({ date: t.String(), top_of_funnel: t.Integer(), conversion_rate: t.Number(), channels: t.Object({ instant: t.Integer(), email: t.Integer(), sandbox: t.Integer() }) })],
          400: 'INVALID_DATE',
          401: 'ADMIN_KEY_REQUIRED',
          403: 'INVALID_ADMIN_KEY or ADMIN_DISABLED',
        }),
      },
    },
  )
}
