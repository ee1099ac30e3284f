// GET /witness: look up a witness session's checkpoints (kid, session_id; after to page on) and
// show them with their receipts. A lookup counts against the same per-address limit as
// GET /v1/witness/checkpoints; a refused lookup answers the page with the reason and its status.
import { Elysia, t } from 'elysia'
import type { BoardDeps } from '../deps'
import { responses } from '../../http/openapi'
import { pageResponse } from '../layout'
import { witnessPageBody } from '../pages/witness-page'
import { lookupWitnessSession } from '../witness-lookup'

export function witnessPageRoutes(deps: BoardDeps) {
  return new Elysia({ name: 'board-witness-page' }).get(
    '/witness',
    async ({ request, server, query }) => {
      const lookup = await lookupWitnessSession(deps, request, server)
      const body = witnessPageBody(lookup, { kid: query.kid ?? '', sessionId: query.session_id ?? '' })
      const status = lookup.state === 'refused' ? lookup.status : 200
      const headers: Record<string, string> = lookup.state === 'refused' && lookup.retryAfterSeconds !== undefined ? { 'retry-after': String(lookup.retryAfterSeconds) } : {}
      return pageResponse({ page: 'witness', title: 'Witness checkpoints', body }, status, headers)
    },
    {
      query: t.Object({
        kid: t.Optional(t.String({ description: 'checkpoint key thumbprint: 43 characters [A-Za-z0-9_-]' })),
        session_id: t.Optional(t.String({ description: '1 to 128 characters' })),
        after: t.Optional(t.String({ description: '<count>:<last_entry_hash>: the page after this checkpoint' })),
      }, { additionalProperties: true }),
      detail: {
        tags: ['board'],
        summary: "A witness session's checkpoints with their receipts (HTML; the browser verifies each receipt)",
        description: 'Without kid and session_id: the lookup form. The read and its limit are those of GET /v1/witness/checkpoints; refusals are pages with the same status (400 malformed query, 429 with Retry-After, 503 store unavailable).',
        responses: responses({
          200: ['HTML page', t.String(), 'text/html'],
          400: 'the query is malformed (an HTML page naming the problem)',
          429: 'too many lookups from this address (an HTML page; Retry-After)',
          503: 'the witness store is unavailable (an HTML page)',
        }),
      },
    },
  )
}
