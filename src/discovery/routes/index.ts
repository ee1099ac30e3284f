// GET /: a short JSON index pointing at the API reference, health and key discovery; for a
// browser (Accept names text/html: board/negotiate.ts) the status board page instead. JSON
// clients, `*/*` (curl's default) and a missing Accept keep the index exactly as it was.
import { Elysia, t } from 'elysia'
import type { DiscoveryDeps } from '../deps'
import { responses } from '../../http/openapi'
import { prefersHtml } from '../../board/negotiate'
import { boardPage } from '../../board/pages/board-page'

export function indexRoutes(deps: DiscoveryDeps) {
  const base = deps.config.publicBaseUrl
  const body = {
    service: 'openbell',
    description: 'Signed market-state receipts (Ed25519) and a checkpoint witness. UNKNOWN means treat the market as CLOSED.',
    issuer: deps.config.issuer,
    links: {
      docs: `${base}/docs`,
      openapi: `${base}/openapi.json`,
      health: `${base}/v5/health`,
      keys: `${base}/v5/keys`,
      jwks: `${base}/.well-known/jwks.json`,
      exchanges: `${base}/v5/exchanges`,
      witness_spec: `${base}/v1/witness/spec`,
    },
  }
  return new Elysia({ name: 'discovery-index' }).get(
    '/',
    async ({ request, set }) => {
      // One URL, two representations: caches must key on Accept.
      set.headers.vary = set.headers.vary ? `${set.headers.vary}, Accept` : 'Accept'
      if (prefersHtml(request.headers.get('accept'))) return boardPage(deps, { vary: set.headers.vary })
      return body
    },
    {
      query: t.Object({}, { additionalProperties: true }),
      detail: {
        tags: ['discovery'],
        summary: 'Index of the service (JSON); the status board page for a browser (Accept: text/html)',
        responses: responses({ 200: ['Index (JSON); with Accept naming text/html above application/json, the board page (text/html)', t.Object({ service: t.String(), links: t.Record(t.String(), t.String()) }, { additionalProperties: true })] }),
      },
    },
  )
}
