// GET /v5/usage: requests today and this month, limits and what happens past them (spec 2.7 Usage).
import { Elysia, t } from 'elysia'
import type { AccountsDeps } from '../deps'
import { API_KEY_HEADER } from '../../http/auth'
import { requireAccount } from '../key-check'
import { responses } from '../../http/openapi'
import { usageReport } from '../usage-report'

const nullableInt = t.Union([t.Integer(), t.Null()])

export const UsageSchema = t.Object({
  key_prefix: t.String(),
  plan: t.String(),
  requests_today: t.Integer(),
  requests_this_month: t.Integer(),
  daily_limit: nullableInt,
  monthly_limit: nullableInt,
  percent_used_today: t.Number(),
  percent_used_month: t.Number(),
  rate_limit_resets_at: t.String({ format: 'date-time' }),
  upgrade_url: t.String({ format: 'uri' }),
  x402_available: t.Boolean(),
  x402_amount: t.String(),
  credit_balance: t.Integer(),
  calls_remaining: t.Optional(t.Integer({ description: 'sandbox keys only' })),
  expires_at: t.Optional(t.Union([t.String({ format: 'date-time' }), t.Null()], { description: 'sandbox keys only' })),
})

export function usageRoute(deps: AccountsDeps) {
  return new Elysia({ name: 'accounts-usage' }).get(
    '/v5/usage',
    async ({ request }) => usageReport(deps, await requireAccount(deps, request.headers.get(API_KEY_HEADER))),
    {
      detail: {
        tags: ['accounts'],
        summary: 'Usage of the calling key today and this month (UTC), its limits and credit balance',
        responses: responses({ 200: ['Usage', UsageSchema], 401: 'API_KEY_REQUIRED', 402: 'ACCOUNT_INACTIVE, KEY_EXPIRED or SANDBOX_KEY_EXHAUSTED', 403: 'INVALID_API_KEY' }),
      },
    },
  )
}
