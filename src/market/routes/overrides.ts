// Operator overrides: POST/GET /v5/admin/overrides, DELETE /v5/admin/overrides/{mic}
import { Elysia, t } from 'elysia'
import type { MarketRouteDeps } from '../deps'
import { authPlugin } from '../../http/auth'
import { ApiError } from '../../http/errors'
import { jsonBody, responses } from '../../http/openapi'
import { parseMic } from '../../calendar/mic-param'
import { readBodyText } from '../../http/body'
import { MAX_OVERRIDE_BODY_BYTES, parseOverrideBody } from '../overrides/body'

const OverrideSchema = t.Object({ mic: t.String(), status: t.String(), reason: t.String(), expires_at: t.String(), created_at: t.String(), created_by: t.String() })

export function overrideRoutes(deps: MarketRouteDeps) {
  return new Elysia({ name: 'market-overrides' })
    .use(authPlugin(deps))
    .post(
      '/v5/admin/overrides',
      async ({ request, set }) => {
        const input = parseOverrideBody(await readBodyText(request, MAX_OVERRIDE_BODY_BYTES, deps))
        if (input.operator !== undefined && (typeof input.operator !== 'string' || input.operator.length > 64)) throw new ApiError(400, 'BAD_REQUEST', 'operator must be a string of at most 64 characters')
        const row = await deps.overrides.set({ mic: input.mic, status: input.status, reason: input.reason, expires_at: input.expires_at }, `admin-api${input.operator ? `:${input.operator}` : ''}`)
        set.status = 201
        return { override: row }
      },
      {
        admin: true,
        parse: 'none',
        detail: {
          tags: ['operator'],
          summary: 'Set an override (circuit breaker) for a MIC',
          requestBody: jsonBody(t.Object({ mic: t.String(), status: t.Union([t.Literal('OPEN'), t.Literal('CLOSED'), t.Literal('HALTED'), t.Literal('UNKNOWN')]), reason: t.String({ maxLength: 500 }), expires_at: t.String({ format: 'date-time', description: 'in the future, at most 7 days ahead' }), operator: t.Optional(t.String({ maxLength: 64 })) })),
          responses: responses({ 201: ['Override in force', t.Object({ override: OverrideSchema })], 400: 'UNKNOWN_MIC, INVALID_STATUS, REASON_REQUIRED, REASON_TOO_LONG, EXPIRES_AT_REQUIRED, EXPIRES_AT_INVALID, INVALID_BODY (duplicate member or lone surrogate; names the field) or BAD_REQUEST', 401: 'ADMIN_KEY_REQUIRED', 403: 'INVALID_ADMIN_KEY or ADMIN_DISABLED', 408: 'REQUEST_TIMEOUT', 413: 'PAYLOAD_TOO_LARGE', 503: 'STORAGE_FULL: the disk is full; nothing was saved' }),
        },
      },
    )
    .get('/v5/admin/overrides', async () => ({ overrides: [...(await deps.overrides.active()).values()] }), {
      admin: true,
      detail: { tags: ['operator'], summary: 'Overrides in force', responses: responses({ 200: ['Overrides in force', t.Object({ overrides: t.Array(OverrideSchema) })], 401: 'ADMIN_KEY_REQUIRED', 403: 'INVALID_ADMIN_KEY' }) },
    })
    .delete(
      '/v5/admin/overrides/:mic',
      async ({ params, set }) => {
        const mic = parseMic(params.mic)
        if (!(await deps.overrides.clear(mic, 'admin-api'))) throw new ApiError(404, 'OVERRIDE_NOT_FOUND', `no override is set for ${mic}`)
        set.status = 204
        return ''
      },
      {
        admin: true,
        params: t.Object({ mic: t.String() }),
        detail: { tags: ['operator'], summary: 'Clear the override of a MIC', responses: responses({ 204: 'Cleared', 400: 'UNKNOWN_MIC', 401: 'ADMIN_KEY_REQUIRED', 403: 'INVALID_ADMIN_KEY', 404: 'OVERRIDE_NOT_FOUND' }) },
      },
    )
}
