// GET /v5/conformance-vectors and /v5/card/{mic}
import { Elysia, t } from 'elysia'
import type { MarketRouteDeps } from '../deps'
import { criticalFailure } from '../../http/errors'
import { responses } from '../../http/openapi'
import { parseMic } from '../../calendar/mic-param'
import { identityOf } from '../../calendar/directory'
import { resolveStatus } from '../resolve'
import { conformanceVectors } from '../vectors'
import { statusCard } from '../card'

export function marketDiscoveryRoutes(deps: MarketRouteDeps) {
  return new Elysia({ name: 'market-discovery' })
    .get(
      '/v5/conformance-vectors',
      () => {
        if (!deps.signer.online) throw criticalFailure()
        try {
          return conformanceVectors(deps)
        } catch {
          throw criticalFailure()
        }
      },
      {
        detail: {
          tags: ['verification'],
          summary: 'Five freshly signed conformance vectors with their canonical bytes',
          responses: responses({ 200: ['Conformance vectors', t.Object({ generated_at: t.String(), public_key: t.String(), vectors: t.Array(t.Object({ name: t.String(), synthetic_time: t.Union([t.String({ description: 'unsigned: the instant the status was evaluated at (null for health)' }), t.Null()]), receipt: t.Object({}, { additionalProperties: true }), canonical_payload: t.String({ description: 'base64 of the exact signed bytes' }), public_key: t.String() }, { additionalProperties: true })) }, { additionalProperties: true })], 500: 'CRITICAL_FAILURE' }),
        },
      },
    )
    .get(
      '/v5/card/:mic',
      async ({ params }) => {
        const mic = parseMic(params.mic)
        const now = deps.clock.now()
        const resolution = await resolveStatus(deps, mic, now)
        return new Response(statusCard(resolution, identityOf(deps.calendars.snapshot(), mic).name, now), { headers: { 'content-type': 'image/svg+xml; charset=utf-8', 'cache-control': 'no-cache' } })
      },
      {
        params: t.Object({ mic: t.String() }),
        detail: { tags: ['market'], summary: 'SVG status card (unsigned)', responses: responses({ 200: ['SVG image', t.String(), 'image/svg+xml'], 400: 'UNKNOWN_MIC' }) },
      },
    )
}
