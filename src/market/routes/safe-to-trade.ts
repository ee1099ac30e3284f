// GET /v1/safe-to-trade/sample: the public sample door of the safe-to-trade receipt (the paid
// door, /v1/safe-to-trade, is in safe-to-trade-paid.ts).
import { Elysia, t } from 'elysia'
import type { MarketRouteDeps } from '../deps'
import { ApiError, jsonResponse } from '../../http/errors'
import { responses } from '../../http/openapi'
import { clientAddress } from '../../http/client-address'
import { rateLimitHeaders } from '../../http/rate-limit'
import { parseSampleQuery } from '../safe-to-trade'
import { paidSafeToTradeRoutes } from './safe-to-trade-paid'
import { resolveAndSign, SAMPLE_DOOR_PER_MINUTE, safeToTradeQuery, signingOfflineBody } from './safe-to-trade-shared'

const NOTE = `Public sample of the safe-to-trade receipt: ${SAMPLE_DOOR_PER_MINUTE} requests per minute per address. Treat safe "false" as do-not-trade; verify the signature with /v5/keys and do not act after expires_at.`

export function safeToTradeRoutes(deps: MarketRouteDeps) {
  return new Elysia({ name: 'market-safe-to-trade' }).use(paidSafeToTradeRoutes(deps)).get(
    '/v1/safe-to-trade/sample',
    async ({ query, request, server }) => {
      const now = deps.clock.now()
      const decision = deps.sampleDoorLimiter.hit(clientAddress(request, deps.config.clientIpHeader, server), now)
      const limitHeaders = rateLimitHeaders(decision)
      if (!decision.allowed) throw new ApiError(429, 'RATE_LIMITED', `over ${SAMPLE_DOOR_PER_MINUTE} requests per minute; retry in ${decision.retryAfterSeconds} s`, {}, limitHeaders)
      let input
      try {
        input = parseSampleQuery(query)
      } catch (error) {
        if (error instanceof ApiError) throw new ApiError(error.status, error.errorCode, error.message, error.extra, limitHeaders)
        throw error
      }
      const signed = await resolveAndSign(deps, input, now)
      if (!signed) {
        return jsonResponse(
          { ...signingOfflineBody(input.venue), door: 'public-sample' },
          500,
          limitHeaders,
        )
      }
      return jsonResponse({ ...signed, receipt: { ...signed }, discovery_url: `${deps.config.publicBaseUrl}/v5/keys`, door: 'public-sample', note: NOTE }, 200, limitHeaders)
    },
    {
      query: safeToTradeQuery('MIC, default XNYS'),
      detail: {
        tags: ['market'],
        summary: 'Safe-to-trade receipt, public sample door',
        responses: responses({
          200: ['Safe-to-trade receipt (signed fields: safe_to_trade_fields of /v5/keys) with unsigned wrapper fields', t.Object({ safe: t.Union([t.Literal('true'), t.Literal('false')]), reasons: t.String(), signature: t.String(), receipt: t.Object({}, { additionalProperties: true }), discovery_url: t.String(), door: t.Literal('public-sample'), note: t.String() }, { additionalProperties: true })],
          400: 'UNKNOWN_VENUE, MAX_AGE_REQUIRED, MAX_AGE_INVALID or INSTRUMENT_TOO_LONG',
          429: 'RATE_LIMITED (Retry-After = seconds to the next minute)',
          500: 'CRITICAL_FAILURE: unsigned UNKNOWN/SYSTEM, safe false',
        }),
      },
    },
  )
}
