// POST /v5/verify {receipt} and GET /v5/verify?receipt=<JSON>
import { Elysia, t } from 'elysia'
import type { MarketRouteDeps } from '../deps'
import { ApiError } from '../../http/errors'
import { readBodyText } from '../../http/body'
import { jsonBody, requiredByRoute, responses } from '../../http/openapi'
import { verificationKeys, verifyReceipt } from '../../crypto/verify-receipt'
import { MAX_PROOF_BYTES, proofReport } from '../../transparency/verify-proof'

const MAX_RECEIPT_BYTES = 16_384
/** A body with a tlog-proof beside the receipt. */
const MAX_BODY_BYTES = MAX_RECEIPT_BYTES + MAX_PROOF_BYTES

const ResultSchema = t.Object({
  valid: t.Boolean(),
  expired: t.Boolean(),
  reason: t.String({ description: 'SIGNATURE_VALID, INVALID_SIGNATURE, MALFORMED_RECEIPT, ORACLE_NOT_CONFIGURED, or a RECEIPT_EXPIRED message' }),
  receipt_type: t.Union([t.String(), t.Null()]),
  unsigned_members: t.Union([t.Array(t.String()), t.Null()], { description: 'members the signature does not cover (besides signature): not vouched for, even when valid is true; null when the type is not recognised' }),
  mic: t.Union([t.String(), t.Null()]),
  status: t.Union([t.String(), t.Null()]),
  expires_at: t.Union([t.String(), t.Null()]),
  proof: t.Optional(
    t.Object(
      { valid: t.Boolean(), reason: t.Union([t.String(), t.Null()]), message: t.String(), index: t.Union([t.Integer(), t.Null()]), tree_size: t.Union([t.Integer(), t.Null()]), origin: t.Union([t.String(), t.Null()]), log_keys: t.Array(t.String()), cosigned_by: t.Array(t.Object({ witness: t.String(), key: t.String(), cosigned_at: t.Union([t.String(), t.Null()]) })) },
      { description: 'present when a proof was sent: the tlog-proof checked under /log/policy with the receipt as the entry' },
    ),
  ),
})

export function verifyRoutes(deps: MarketRouteDeps) {
  const verify = (receipt: unknown) => verifyReceipt(verificationKeys(deps.signer), receipt, deps.clock.now())
  return new Elysia({ name: 'market-verify' })
    .post(
      '/v5/verify',
      async ({ request }) => {
        // Checked before and while reading: a large body is refused without being buffered.
        const text = await readBodyText(request, MAX_BODY_BYTES, deps)
        let body: unknown
        try {
          body = JSON.parse(text)
        } catch {
          throw new ApiError(400, 'BAD_REQUEST', 'body must be JSON: {"receipt": {…}}')
        }
        const { receipt, proof } = (body ?? {}) as { receipt?: unknown; proof?: unknown }
        if (!receipt || typeof receipt !== 'object' || Array.isArray(receipt)) throw new ApiError(400, 'RECEIPT_REQUIRED', 'body must carry "receipt": the complete signed receipt object')
        if (proof !== undefined && (typeof proof !== 'string' || proof.length > MAX_PROOF_BYTES)) throw new ApiError(400, 'BAD_REQUEST', `proof must be the text of a tlog-proof (GET /log/proof/receipt/{id}), at most ${MAX_PROOF_BYTES} bytes`)
        if (JSON.stringify(receipt).length > MAX_RECEIPT_BYTES) throw new ApiError(413, 'PAYLOAD_TOO_LARGE', `the receipt is limited to ${MAX_RECEIPT_BYTES} bytes`)
        return proof === undefined ? verify(receipt) : { ...verify(receipt), proof: proofReport(deps.transparency.policy, receipt, proof) }
      },
      {
        parse: 'none',
        detail: {
          tags: ['verification'],
          summary: 'Verify a receipt',
          requestBody: jsonBody(t.Object({ receipt: t.Object({}, { additionalProperties: true }), proof: t.Optional(t.String({ description: 'the receipt\'s tlog-proof (GET /log/proof/receipt/{id}); checked under /log/policy and reported in `proof`' })) })),
          responses: responses({ 200: ['Verification result', ResultSchema], 400: 'BAD_REQUEST or RECEIPT_REQUIRED', 408: 'REQUEST_TIMEOUT: the body did not arrive in time', 413: 'PAYLOAD_TOO_LARGE: a receipt over 16,384 bytes, or a body over 65,536' }),
        },
      },
    )
    .get(
      '/v5/verify',
      ({ query }) => {
        if (!query.receipt) throw new ApiError(400, 'RECEIPT_REQUIRED', 'query parameter receipt (the JSON-encoded receipt) is required')
        if (Buffer.byteLength(query.receipt) > MAX_RECEIPT_BYTES) throw new ApiError(400, 'BAD_REQUEST', `receipt is limited to ${MAX_RECEIPT_BYTES} bytes`)
        let receipt: unknown
        try {
          receipt = JSON.parse(query.receipt)
        } catch {
          throw new ApiError(400, 'BAD_REQUEST', 'receipt must be JSON')
        }
        return verify(receipt)
      },
      {
        query: t.Object({ receipt: t.Optional(t.String({ description: 'JSON-encoded receipt', ...requiredByRoute })) }),
        detail: { tags: ['verification'], summary: 'Verify a receipt passed as JSON in the query', responses: responses({ 200: ['Verification result', ResultSchema], 400: 'RECEIPT_REQUIRED or BAD_REQUEST' }) },
      },
    )
}
