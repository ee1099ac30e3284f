// GET /v5/briefing, /v5/pre-trade-stack, /v5/stack (deprecated alias), /v5/implementations,
// /v5/showcase: public descriptions computed from calendars, configuration and the route table.
import { Elysia, t } from 'elysia'
import type { DiscoveryDeps } from '../deps'
import { badRequest, jsonResponse } from '../../http/errors'
import { responses } from '../../http/openapi'
import { briefing } from '../briefing'
import { SUPPORTED_RANGE, parseUtcDate } from '../../utc'
import { STACK_DEPRECATION, implementations, stackDeprecationHeader, preTradeStack, showcase } from '../catalogue'
import { figureRoutes } from './figures'
import { openApiDocument, type RegisteredRoute } from '../../http/openapi-document'

const anyObject = t.Object({}, { additionalProperties: true })
/** A real calendar date (else 400 INVALID_DATE) in the years the calendars can speak of (else 400 DATE_OUT_OF_RANGE). */
export function parseBriefingDate(raw: string | undefined, now: number): string {
  if (raw === undefined || raw === '') return new Date(now).toISOString().slice(0, 10)
  const parsed = parseUtcDate(raw)
  if (!parsed.ok && parsed.reason === 'out_of_range') throw badRequest('DATE_OUT_OF_RANGE', 'date must be from 1970-01-01 to 9999-12-31', { supported_range: SUPPORTED_RANGE })
  if (!parsed.ok) throw badRequest('INVALID_DATE', 'date must be a real calendar date YYYY-MM-DD')
  return raw
}

export function descriptionRoutes(deps: DiscoveryDeps, routeTable: () => readonly RegisteredRoute[]) {
  let document: { routes: number; body: string } | null = null
  return new Elysia({ name: 'discovery-descriptions' })
    .use(figureRoutes(deps))
    // Generated from the registered routes (http/openapi-document.ts). Built once per route count.
    .get(
      '/openapi.json',
      () => {
        const routes = routeTable()
        if (document?.routes !== routes.length) document = { routes: routes.length, body: JSON.stringify(openApiDocument(routes, { baseUrl: deps.config.publicBaseUrl })) }
        return new Response(document.body, { headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'public, max-age=300' } })
      },
      { detail: { tags: ['discovery'], summary: 'This API description (OpenAPI 3.1)', responses: responses({ 200: ['OpenAPI 3.1 document', t.Object({ openapi: t.String(), info: anyObject, paths: anyObject, components: anyObject }, { additionalProperties: true })] }) } },
    )
    .get('/v5/briefing', ({ query }) => briefing(deps, parseBriefingDate(query.date, deps.clock.now())), {
      query: t.Object({ date: t.Optional(t.String({ description: 'YYYY-MM-DD (UTC), default today' })) }),
      detail: {
        tags: ['discovery'],
        summary: 'The day for an agent: sessions in UTC, closures and why, DST changes within 7 days, warnings; overrides and halts for today',
        responses: responses({ 200: ['Briefing', t.Object({ date: t.String(), venues: t.Array(anyObject), trading: t.Array(t.String()), closed: t.Array(anyObject), unknown: t.Array(t.String()), dst_changes_next_7_days: t.Array(anyObject), calendar_warnings: t.Array(anyObject), live: t.Union([anyObject, t.Null()]), note: t.String() })], 400: 'INVALID_DATE or DATE_OUT_OF_RANGE (before 1970)' }),
      },
    })
    .get('/v5/pre-trade-stack', () => preTradeStack(deps), {
      detail: { tags: ['discovery'], summary: 'The pre-trade check sequence: status → safe-to-trade → verify', responses: responses({ 200: ['Pre-trade stack', t.Object({ version: t.String(), steps: t.Array(anyObject) }, { additionalProperties: true })] }) },
    })
    .get(
      '/v5/stack',
      () =>
        jsonResponse({ _deprecated: STACK_DEPRECATION, ...preTradeStack(deps) }, 200, {
          // RFC 9745: a structured-field date; the drafts' `true` is not a valid value.
          deprecation: stackDeprecationHeader(),
          link: `<${deps.config.publicBaseUrl}/v5/pre-trade-stack>; rel="successor-version"`,
        }),
      { detail: { tags: ['discovery'], deprecated: true, summary: 'Deprecated alias of /v5/pre-trade-stack (Deprecation and Link headers)', responses: responses({ 200: ['Pre-trade stack inside a _deprecated envelope', t.Object({ _deprecated: t.Object({ note: t.String(), replacement: t.String(), replacement_path: t.String() }) }, { additionalProperties: true })] }) } },
    )
    .get('/v5/implementations', () => implementations(deps, new Set(routeTable().map((route) => route.path))), {
      detail: { tags: ['discovery'], summary: 'Standards implemented, each with the endpoint that exercises it', responses: responses({ 200: ['Implementations', t.Object({ standards: anyObject, total_implementations: t.Integer(), last_updated: t.String() })] }) },
    })
    .get('/v5/showcase', () => showcase(deps), {
      detail: { tags: ['discovery'], summary: 'Integrations listed by the operator (SHOWCASE_FILE)', responses: responses({ 200: ['Showcase', t.Object({ entries: t.Array(anyObject), submit_url: t.Union([t.String(), t.Null()]), note: t.String() })] }) },
    })
}
