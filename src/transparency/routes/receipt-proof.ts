// GET /log/proof/receipt/<receipt id>: a C2SP tlog-proof of a logged receipt — its index, the
// inclusion proof and the newest checkpoint with every cosignature the service holds — that a
// client keeps and checks offline, years later, under /log/policy. Before the receipt is in a
// checkpoint: 404 with Retry-After. The `extra` line carries the receipt id (unauthenticated:
// the proof is bound to the receipt by the entry's bytes, the receipt as answered).
import { Elysia, t } from 'elysia'
import { formatTlogProof, utf8 } from '@openbell/verify'
import type { TransparencyDeps } from '../deps'
import { ApiError } from '../../http/errors'
import { responses } from '../../http/openapi'
import { inclusionProof } from '../proofs'
import { orUnavailable } from './log'
import { RECEIPT_ID, receiptLeafIndex } from './receipt-leaf'

export const TLOG_PROOF_CONTENT_TYPE = 'text/plain; charset=utf-8'

export function receiptProofRoutes(deps: TransparencyDeps) {
  const { reader } = deps.transparency
  // A receipt is in a checkpoint about one interval after it is answered.
  const retryAfter = String(Math.ceil(deps.transparency.checkpointIntervalMs / 1000) + 1)
  return new Elysia({ name: 'transparency-receipt-proof' }).get(
    '/log/proof/receipt/:id',
    async ({ params }) => {
      const receiptId = params.id
      if (!RECEIPT_ID.test(receiptId)) throw new ApiError(400, 'INVALID_RECEIPT_ID', 'the path ends in the receipt_id (lowercase UUID) of a live receipt')
      const state = await orUnavailable(() => reader.latest())
      const index = await receiptLeafIndex(deps, receiptId, state.baseSeq)
      if (state.checkpoint === null || index >= state.checkpointSize)
        throw new ApiError(404, 'RECEIPT_NOT_INTEGRATED', `the receipt is logged (leaf ${index}) but no checkpoint covers it yet; retry in ${retryAfter} s`, { leaf_index: index }, { 'retry-after': retryAfter })
      const size = state.checkpointSize
      const path = await orUnavailable(() => inclusionProof(reader.nodes(size), index, size))
      const body = formatTlogProof({ extra: utf8(receiptId), index, path, checkpoint: state.checkpoint })
      return new Response(body, { headers: { 'content-type': TLOG_PROOF_CONTENT_TYPE, 'cache-control': 'public, max-age=1', 'content-disposition': `inline; filename="${receiptId}.tlog-proof"` } })
    },
    {
      params: t.Object({ id: t.String() }),
      detail: {
        tags: ['transparency'],
        summary: 'C2SP tlog-proof of a logged receipt (index, inclusion proof, newest cosigned checkpoint; extra = the receipt id), to verify offline under /log/policy',
        responses: responses({ 200: ['tlog-proof', t.String(), 'text/plain'], 400: 'INVALID_RECEIPT_ID', 404: 'RECEIPT_NOT_FOUND, or RECEIPT_NOT_INTEGRATED with Retry-After (logged, not yet in a checkpoint)', 503: 'LOG_UNAVAILABLE' }),
      },
    },
  )
}
