// GET /v5/receipts?limit=&mic=&from=: the calling key's own live receipts as audit rows.
import { Elysia, t } from 'elysia'
import type { AuditDeps } from '../deps'
import { API_KEY_HEADER } from '../../http/auth'
import { requireAccount } from '../../accounts/key-check'
import { responses } from '../../http/openapi'
import { parseMic } from '../../calendar/mic-param'
import { keyReceipts, parseFrom, parseLimit } from '../queries'

const AuditRowSchema = t.Object({ mic: t.String(), status: t.String(), source: t.String(), issued_at: t.String(), schema_version: t.String() })

export function receiptListRoutes(deps: AuditDeps) {
  return new Elysia({ name: 'audit-receipts' }).get(
    '/v5/receipts',
    async ({ query, request }) => {
      const account = await requireAccount(deps, request.headers.get(API_KEY_HEADER))
      const limit = parseLimit(query.limit)
      const mic = query.mic === undefined || query.mic === '' ? undefined : parseMic(query.mic)
      const from = parseFrom(query.from)
      return keyReceipts(deps.audit.store, account, { limit, mic, from })
    },
    {
      query: t.Object({
        limit: t.Optional(t.String({ description: 'integer 1 to 200, default 50' })),
        mic: t.Optional(t.String({ description: 'only this MIC' })),
        from: t.Optional(t.String({ description: 'date-time: receipts issued strictly after it, oldest first; without it the latest `limit`' })),
      }),
      detail: {
        tags: ['audit'],
        summary: "The key's own receipts (builder or pro key)",
        responses: responses({
          200: ['Audit rows in log order', t.Object({ receipts: t.Array(AuditRowSchema), count: t.Integer() })],
          400: 'INVALID_LIMIT, INVALID_FROM, FROM_OUT_OF_RANGE or UNKNOWN_MIC',
          401: 'API_KEY_REQUIRED',
          402: 'PLAN_UPGRADE_REQUIRED (free and sandbox keys) or ACCOUNT_INACTIVE',
          403: 'INVALID_API_KEY',
        }),
      },
    },
  )
}
