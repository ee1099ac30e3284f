// GET /v5/audit/digest?date=&cursor=: the daily digest (spec 2.7), signed once sealed.
import { Elysia, t } from 'elysia'
import type { AuditDeps } from '../deps'
import { responses } from '../../http/openapi'
import { parseCursor, parseDateParam, utcDay } from '../dates'
import { DIGEST_IDS_PAGE, dayDigest } from '../digest'

export function digestRoutes(deps: AuditDeps) {
  return new Elysia({ name: 'audit-digest' }).get(
    '/v5/audit/digest',
    async ({ query }) => {
      const now = deps.clock.now()
      const date = parseDateParam(query.date, utcDay(now))
      const cursor = parseCursor(query.cursor)
      const startedOn = await deps.auditTrail.sealer.startedOn()
      return dayDigest({ store: deps.audit.store, trees: deps.auditTrail.trees }, date, cursor, startedOn, now)
    },
    {
      query: t.Object({
        date: t.Optional(t.String({ description: 'YYYY-MM-DD (UTC), default today' })),
        cursor: t.Optional(t.String({ description: `next_cursor of the previous page of receipt_ids (pages of ${DIGEST_IDS_PAGE})` })),
      }),
      detail: {
        tags: ['audit'],
        summary: 'Daily digest: RFC 6962 Merkle root of the day\'s receipt ids in log order, chained to the day before',
        responses: responses({
          200: [
            `Digest. receipt_ids is paged (${DIGEST_IDS_PAGE} per page, next_cursor); total_receipts_issued counts all pages. Sealed days carry receipt (signed over exactly digest_fields of /v5/keys) and, since the transparency log, log_receipt (signed over digest_log_fields: the log size holding the day); digests first signed with log_tree_size in receipt also carry that first receipt as receipt_with_log_tree_size`,
            t.Object(
              {
                date: t.String(),
                total_receipts_issued: t.Integer(),
                exchanges_attested: t.Array(t.String()),
                receipt_ids: t.Array(t.String()),
                merkle_root: t.String(),
                previous_day_merkle_root: t.Union([t.String(), t.Null()]),
                chain_length: t.Integer(),
                computed_at: t.String(),
                partial: t.Boolean(),
                next_cursor: t.Union([t.String(), t.Null()]),
                receipt: t.Optional(t.Object({}, { additionalProperties: true })),
                log_tree_size: t.Optional(t.Integer()),
                log_receipt: t.Optional(t.Object({}, { additionalProperties: true })),
                receipt_with_log_tree_size: t.Optional(t.Object({}, { additionalProperties: true })),
              },
              { additionalProperties: true },
            ),
          ],
          400: 'INVALID_DATE, DATE_OUT_OF_RANGE, DATE_IN_FUTURE or INVALID_CURSOR',
          404: 'DIGEST_NOT_FOUND (before the log began)',
        }),
      },
    },
  )
}
