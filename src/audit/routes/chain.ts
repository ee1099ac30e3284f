// GET /v5/audit/chain?days=: the latest sealed digests and whether each links to the day before.
import { Elysia, t } from 'elysia'
import type { AuditDeps } from '../deps'
import { ApiError } from '../../http/errors'
import { responses } from '../../http/openapi'
import { auditChain } from '../digest'

export const CHAIN_MAX_DAYS = 30

function parseDays(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 7
  if (!/^[1-9][0-9]{0,3}$/.test(raw) || Number(raw) < 1 || Number(raw) > CHAIN_MAX_DAYS) throw new ApiError(400, 'INVALID_DAYS', `days must be an integer from 1 to ${CHAIN_MAX_DAYS}`)
  return Number(raw)
}

export function chainRoutes(deps: AuditDeps) {
  return new Elysia({ name: 'audit-chain' }).get('/v5/audit/chain', async ({ query }) => auditChain(deps.audit.store, parseDays(query.days)), {
    query: t.Object({ days: t.Optional(t.String({ description: 'integer 1 to 30, default 7' })) }),
    detail: {
      tags: ['audit'],
      summary: 'Chain of sealed daily digests',
      responses: responses({
        200: [
          'Chain, newest first',
          t.Object({
            chain_length: t.Integer(),
            chain_intact: t.Boolean(),
            latest_date: t.Union([t.String(), t.Null()]),
            oldest_date: t.Union([t.String(), t.Null()]),
            digests: t.Array(t.Object({ date: t.String(), merkle_root: t.String(), previous_day_merkle_root: t.Union([t.String(), t.Null()]) }, { additionalProperties: true })),
          }),
        ],
        400: 'INVALID_DAYS',
      }),
    },
  })
}
