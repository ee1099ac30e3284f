// GET /v1/safe-to-trade: the paid door of the safe-to-trade receipt. The same signed content as
// the sample door (same key, TTL, override merge, cross-venue scan, reason taxonomy; spec 2.5)
// without the door/note wrapper, for a builder or pro key or an x402 payment of the status price.
// Not rate-limited per address; every answered receipt is audit-logged before it is sent.
import { Elysia, t } from 'elysia'
import type { MarketRouteDeps } from '../deps'
import { ApiError, jsonResponse } from '../../http/errors'
import { responses } from '../../http/openapi'
import type { Plan } from '../../catalogue/plans'
import { parseSampleQuery, type SampleQuery } from '../safe-to-trade'
import { abandonAccess, answerAdmitted, requireKeyOrPayment } from '../access'
import { API_KEY_HEADER } from '../../http/auth'
import { checkApiKey } from '../../accounts/key-check'
import { auditContextOf, logLiveReceipts } from '../issue'
import { headOfPaidRoute, isHead } from '../head'
import { resolveAndSign, safeToTradeQuery, signingOfflineBody } from './safe-to-trade-shared'

export const PAID_DOOR_PLANS: readonly Plan[] = ['builder', 'pro']
const DESCRIPTION = 'Signed safe-to-trade receipt'
const SURFACE = '/v1/safe-to-trade'

/** venue is required here (the sample door defaults it); the rest is the sample door's parsing. */
export function parsePaidQuery(query: SampleQuery) {
  if (query.venue === undefined || query.venue === '') throw new ApiError(400, 'VENUE_REQUIRED', 'venue (a MIC such as XNYS) is required')
  return parseSampleQuery(query)
}

export function paidSafeToTradeRoutes(deps: MarketRouteDeps) {
  return new Elysia({ name: 'market-safe-to-trade-paid' }).get(
    SURFACE,
    async ({ query, request, set }) => {
      // Input first: a payment is never taken for a request that cannot be answered.
      const input = parsePaidQuery(query)
      // The plan is checked before the key is metered or a payment taken: another plan's key is refused outright.
      const presented = await checkApiKey(deps, request.headers.get(API_KEY_HEADER))
      if (presented.kind === 'ok' && !PAID_DOOR_PLANS.includes(presented.account.plan)) {
        throw new ApiError(403, 'PLAN_NOT_ALLOWED', `the paid safe-to-trade door needs a builder or pro key (this key's plan is ${presented.account.plan}); use /v1/safe-to-trade/sample, or send no key and pay per request with x402`)
      }
      const price = deps.config.x402.statusPrice
      if (isHead(request)) return headOfPaidRoute(deps, request, price, DESCRIPTION, 'safe-to-trade')
      const access = await requireKeyOrPayment(deps, request, price, DESCRIPTION, 'safe-to-trade')
      const signed = await resolveAndSign(deps, input, deps.clock.now())
      if (!signed) {
        // Nothing signed: the request is not counted against the key, and no payment is taken.
        await abandonAccess(access)
        return jsonResponse(signingOfflineBody(input.venue), 500)
      }
      return answerAdmitted(access, set, async () => {
        await logLiveReceipts(deps, [signed], auditContextOf(access, SURFACE))
        return { ...signed, receipt: { ...signed }, discovery_url: `${deps.config.publicBaseUrl}/v5/keys` }
      })
    },
    {
      query: safeToTradeQuery('required: MIC of the venue'),
      detail: {
        tags: ['market'],
        summary: 'Safe-to-trade receipt, paid door (builder or pro key, or x402 payment of the status price)',
        responses: responses({
          200: ['Safe-to-trade receipt (signed fields: safe_to_trade_fields of /v5/keys) with the receipt mirror and discovery_url', t.Object({ safe: t.Union([t.Literal('true'), t.Literal('false')]), reasons: t.String(), venue: t.String(), signature: t.String({ pattern: '^[0-9a-f]{128}$' }), receipt: t.Object({}, { additionalProperties: true }), discovery_url: t.String() }, { additionalProperties: true })],
          400: 'VENUE_REQUIRED, UNKNOWN_VENUE, MAX_AGE_REQUIRED, MAX_AGE_INVALID or INSTRUMENT_TOO_LONG',
          402: 'PAYMENT_REQUIRED (x402 requirements, PAYMENT-REQUIRED header), an invalid payment, or ACCOUNT_INACTIVE',
          403: 'INVALID_API_KEY, or PLAN_NOT_ALLOWED (a key other than builder or pro)',
          500: 'CRITICAL_FAILURE: unsigned UNKNOWN/SYSTEM, safe false',
          503: 'AUDIT_LOG_UNAVAILABLE, or payment verification unavailable',
        }),
      },
    },
  )
}
