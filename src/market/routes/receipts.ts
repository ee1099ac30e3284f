// GET /v5/demo, /v5/status, /v5/status/realtime: single signed market-state receipts.
import { Elysia, t } from 'elysia'
import type { MarketRouteDeps } from '../deps'
import { API_KEY_HEADER } from '../../http/auth'
import { requireAccount } from '../../accounts/key-check'
import { responses } from '../../http/openapi'
import { parseMic } from '../../calendar/mic-param'
import { auditContextOf, issueDemoReceipt, issueLiveReceipt, issueLiveReceiptJson } from '../issue'
import { answerAdmitted, requireKeyOrPayment } from '../access'
import { SignedReceiptSchema } from './schemas'
import { headOfPaidRoute, isHead } from '../head'
import { JSON_CONTENT_TYPE } from '../../http/json-text'

const MicQuery = t.Object({ mic: t.Optional(t.String({ description: 'MIC, default XNYS' })) })

export function receiptRoutes(deps: MarketRouteDeps) {
  return new Elysia({ name: 'market-receipts' })
    .get('/v5/demo', ({ query }) => issueDemoReceipt(deps, parseMic(query.mic)), {
      query: MicQuery,
      detail: { tags: ['market'], summary: 'Signed receipt, demo mode (no key)', responses: responses({ 200: ['Signed receipt (receipt_mode demo)', SignedReceiptSchema], 400: 'UNKNOWN_MIC', 500: 'CRITICAL_FAILURE: signing offline (unsigned, status UNKNOWN)' }) },
    })
    .get(
      '/v5/status',
      async ({ query, request, set }) => {
        // Input first: a payment is never taken for a request that cannot be answered.
        const mic = parseMic(query.mic)
        if (isHead(request)) return headOfPaidRoute(deps, request, deps.config.x402.statusPrice, 'Signed market-state receipt', 'status')
        const access = await requireKeyOrPayment(deps, request, deps.config.x402.statusPrice, 'Signed market-state receipt', 'status')
        return answerAdmitted(access, set, async () => {
          const json = await issueLiveReceiptJson(deps, mic, auditContextOf(access, '/v5/status'))
          // The logged text is the answer (the content type Elysia gives a returned object).
          set.headers['content-type'] = JSON_CONTENT_TYPE
          return json
        })
      },
      {
        query: MicQuery,
        detail: {
          tags: ['market'],
          summary: 'Signed market-state receipt (API key or x402 payment)',
          responses: responses({ 200: ['Signed receipt (live)', SignedReceiptSchema], 400: 'UNKNOWN_MIC', 401: 'unused (a missing key gets 402 with payment requirements)', 402: 'PAYMENT_REQUIRED (x402 requirements, PAYMENT-REQUIRED header), FREE_TIER_EXHAUSTED (the same requirements, Retry-After), SANDBOX_KEY_EXHAUSTED, ACCOUNT_INACTIVE (with status) or KEY_EXPIRED', 403: 'INVALID_API_KEY', 429: 'RATE_LIMITED: a paid key past its daily limit (Retry-After)', 500: 'CRITICAL_FAILURE', 503: 'AUDIT_LOG_UNAVAILABLE (the receipt could not be logged, so it is not answered)' }),
        },
      },
    )
    .get(
      '/v5/status/realtime',
      async ({ query, request }) => {
        const account = await requireAccount(deps, request.headers.get(API_KEY_HEADER))
        const mic = parseMic(query.mic)
        if (isHead(request)) return headOfPaidRoute(deps, request, '0', '', 'realtime')
        const receipt = await issueLiveReceipt(deps, mic, { surface: '/v5/status/realtime', keyHash: account.key_hash })
        const monitor = deps.halts.status()
        return { mic, signed_receipt: receipt, halt_monitor: { ...monitor, applies_to_mic: monitor.venues.includes(mic) } }
      },
      {
        query: MicQuery,
        detail: {
          tags: ['market'],
          summary: 'Signed receipt with the real-time halt monitor state (API key)',
          responses: responses({ 200: ['Realtime status', t.Object({ mic: t.String(), signed_receipt: SignedReceiptSchema, halt_monitor: t.Object({}, { additionalProperties: true }) })], 400: 'UNKNOWN_MIC', 401: 'API_KEY_REQUIRED', 402: 'ACCOUNT_INACTIVE', 403: 'INVALID_API_KEY', 500: 'CRITICAL_FAILURE', 503: 'AUDIT_LOG_UNAVAILABLE' }),
        },
      },
    )
}
