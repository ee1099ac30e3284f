// GET /v5/batch: one independently signed receipt per MIC, built in parallel from one calendar snapshot.
import { Elysia, t } from 'elysia'
import { randomUUID } from 'node:crypto'
import type { MarketRouteDeps } from '../deps'
import { requiredByRoute, responses } from '../../http/openapi'
import { resolveStatus } from '../resolve'
import { auditContextOf, signLiveReceipts } from '../issue'
import { answerAdmitted, requireKeyOrPayment } from '../access'
import { MAX_BATCH, parseMicList } from '../batch'
import { SignedReceiptSchema } from './schemas'
import { headOfPaidRoute, isHead } from '../head'

export function batchRoutes(deps: MarketRouteDeps) {
  return new Elysia({ name: 'market-batch' }).get(
    '/v5/batch',
    async ({ query, request, set }) => {
      const mics = parseMicList(query.mics)
      if (isHead(request)) return headOfPaidRoute(deps, request, deps.config.x402.batchPrice, 'Batch of signed market-state receipts', 'batch')
      const access = await requireKeyOrPayment(deps, request, deps.config.x402.batchPrice, 'Batch of signed market-state receipts', 'batch')
      return answerAdmitted(access, set, async () => {
        const now = deps.clock.now()
        const snapshot = deps.calendars.snapshot()
        const resolutions = await Promise.all(mics.map((mic) => resolveStatus(deps, mic, now, snapshot)))
        const receipts = await signLiveReceipts(deps, resolutions, now, auditContextOf(access, '/v5/batch'))
        return { batch_id: randomUUID(), queried_at: new Date(now).toISOString(), receipts }
      })
    },
    {
      query: t.Object({ mics: t.Optional(t.String({ description: `comma-separated MICs; duplicates removed; at most ${MAX_BATCH}`, ...requiredByRoute })) }),
      detail: {
        tags: ['market'],
        summary: 'Batch of signed receipts (API key or x402 payment)',
        responses: responses({
          200: ['Batch', t.Object({ batch_id: t.String({ format: 'uuid' }), queried_at: t.String({ format: 'date-time' }), receipts: t.Array(SignedReceiptSchema) })],
          400: 'MICS_REQUIRED, UNKNOWN_MIC or TOO_MANY_MICS',
          401: 'unused (a missing key gets 402)',
          402: 'PAYMENT_REQUIRED, FREE_TIER_EXHAUSTED, SANDBOX_KEY_EXHAUSTED, ACCOUNT_INACTIVE (with status) or KEY_EXPIRED',
          403: 'INVALID_API_KEY',
          429: 'RATE_LIMITED: a paid key past its daily limit (Retry-After)',
          500: 'CRITICAL_FAILURE',
          503: 'AUDIT_LOG_UNAVAILABLE',
        }),
      },
    },
  )
}
