// POST /v5/verify {receipt} and GET /v5/verify?receipt=<JSON>
import { Elysia, t } from 'elysia'
import type { MarketRouteDeps } from '../deps'
import { ApiError } from '../../http/errors'
import { readBodyText } from '../../http/body'
import { jsonBody, requiredByRoute, responses } from '../../http/openapi'
import { verificationKeys, verifyReceipt } from '../../crypto/verify-receipt'

const MAX_RECEIPT_BYTES = 16_384

const ResultSchema = t.Object({
  valid: t.Boolean(),
  expired: t.Boolean(),
  reason: t.String({ description: 'SIGNATURE_VALID, INVALID_SIGNATURE, MALFORMED_RECEIPT, ORACLE_NOT_CONFIGURED, or a RECEIPT_EXPIRED message' }),
  receipt_type: t.Union([t.String(), t.Null()]),
  unsigned_members: t.Union([t.Array(t.String()), t.Null()], { description: 'members the signature does not cover (besides signature): not vouched for, even when valid is true; null when the type is not recognised' }),
  mic: t.Union([t.String(), t.Null()]),
  status: t.Union([t.String(), t.Null()]),
  expires_at: t.Union([t.String(), t.Null()]),
})

export function verifyRoutes(deps: MarketRouteDeps) {
  const verify = (receipt: unknown) => verifyReceipt(verificationKeys(deps.signer), receipt, deps.clock.now())
  return new Elysia({ name: 'market-verify' })
    .post(
      '/v5/verify',
      async ({ request }) => {
        // Checked before and while reading: a large body is refused without being buffered.
        const text = await readBodyText(request, MAX_RECEIPT_BYTES, deps)
        let body: unknown
        try {
          body = JSON.parse(text)
        } catch {
          throw new ApiError(400, 'BAD_REQUEST', 'body must be JSON: {"receipt": {…}}')
        }
        const receipt = (body as { receipt?: unknown } | null)?.receipt
        if (!receipt || typeof receipt !== 'object' || Array.isArray(receipt)) throw new ApiError(400, 'RECEIPT_REQUIRED', 'body must carry "receipt": the complete signed receipt object')
        return verify(receipt)
      },
      {
        parse: 'none',
        detail: {
          tags: ['verification'],
          summary: 'Verify a receipt',
          requestBody: jsonBody(t.Object({ receipt: t.Object({}, { additionalProperties: true }) })),
          responses: responses({ 200: ['Verification result', ResultSchema], 400: 'BAD_REQUEST or RECEIPT_REQUIRED', 408: 'REQUEST_TIMEOUT: the body did not arrive in time', 413: 'PAYLOAD_TOO_LARGE: body over 16,384 bytes' }),
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
