// GET /v5/audit/proof?receipt_id=: RFC 6962 inclusion proof of a live receipt in its day's tree.
import { Elysia, t } from 'elysia'
import type { AuditDeps } from '../deps'
import { ApiError } from '../../http/errors'
import { requiredByRoute, responses } from '../../http/openapi'
import { addDays } from '../dates'
import { inclusionProof } from '../queries'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

export function proofRoutes(deps: AuditDeps) {
  return new Elysia({ name: 'audit-proof' }).get(
    '/v5/audit/proof',
    async ({ query }) => {
      const receiptId = query.receipt_id ?? ''
      if (!UUID.test(receiptId)) throw new ApiError(400, 'INVALID_RECEIPT_ID', 'receipt_id must be the receipt_id (lowercase UUID) of a live receipt')
      const last = await deps.audit.store.lastDigest()
      const firstUnsealed = last ? addDays(last.date, 1) : await deps.auditTrail.sealer.startedOn()
      return inclusionProof({ store: deps.audit.store, trees: deps.auditTrail.trees }, receiptId, firstUnsealed)
    },
    {
      query: t.Object({ receipt_id: t.Optional(t.String({ description: 'receipt_id of a live receipt', ...requiredByRoute })) }),
      detail: {
        tags: ['audit'],
        summary: 'Inclusion proof of a receipt in the Merkle tree of its day (RFC 6962 audit path)',
        responses: responses({
          200: [
            'Proof: verify with leaf = SHA-256(0x00 ‖ receipt_id), the audit_path (bottom-up), leaf_index and tree_size against merkle_root (docs/audit.md)',
            t.Object({ receipt_id: t.String(), date: t.String(), leaf_index: t.Integer(), tree_size: t.Integer(), audit_path: t.Array(t.String()), merkle_root: t.String(), sealed: t.Boolean(), partial: t.Boolean() }, { additionalProperties: true }),
          ],
          400: 'INVALID_RECEIPT_ID',
          404: 'RECEIPT_NOT_FOUND (unknown, demo or sample-door receipt)',
        }),
      },
    },
  )
}
