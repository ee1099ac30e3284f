// GET /v5/metrics, /v5/metrics/public, /v5/traction, /v5/compliance: figures computed from the
// running service (see docs/discovery.md for the source of each).
import { Elysia, t } from 'elysia'
import type { DiscoveryDeps } from '../deps'
import { responses } from '../../http/openapi'
import { metrics, publicMetrics, traction } from '../metrics'
import { complianceRunner } from '../compliance'

const Count = t.Integer({ minimum: 0 })
const Instant = t.String({ format: 'date-time' })
const NullableInstant = t.Union([Instant, t.Null()])
const NullableCount = t.Union([Count, t.Null()])
const Open = t.Object({}, { additionalProperties: true })

const EdgeCasesSchema = t.Object({ year: t.Integer(), total: Count, holidays: Count, early_closes: Count, late_opens: Count, dst_transitions: Count })

export const MetricsSchema = t.Object({
  total_mcp_requests_today: Count,
  unique_mcp_clients_today: Count,
  exchanges_covered: Count,
  edge_cases_per_year: Count,
  edge_cases: EdgeCasesSchema,
  uptime_status: t.Union([t.Literal('operational'), t.Literal('degraded')]),
  as_of: Instant,
})

export const PublicMetricsSchema = t.Object({
  exchanges: Count,
  mcp_tools: Count,
  uptime_days: NullableCount,
  uptime_since: NullableInstant,
  tests_passing: NullableCount,
  tests_recorded_at: NullableInstant,
  signing_algorithm: t.Literal('Ed25519'),
  receipt_ttl_seconds: Count,
  x402_enabled: t.Boolean(),
  x402_network: t.String(),
  x402_payment_count: Count,
  last_payment_at: NullableInstant,
  mcp_protocol_version: t.String(),
  mcp_protocol_versions: t.Array(t.String()),
  fail_closed: t.Literal(true),
  preflight_score: Count,
  preflight_checks: Count,
  preflight_definition: t.String(),
  as_of: Instant,
})

export const TractionSchema = t.Object({
  exchanges_covered: Count,
  edge_cases_per_year: Count,
  uptime_since: NullableInstant,
  days_live: NullableCount,
  mcp_requests_today: Count,
  unique_mcp_clients_today: Count,
  sma_spec_version: t.String(),
  verifiable_intent_rfc: t.Null(),
  x402_enabled: t.Boolean(),
  halt_monitor: Open,
  as_of: Instant,
})

export const ComplianceSchema = t.Object({
  standard: t.String(),
  oracle: t.String(),
  version: t.String(),
  last_verified: Instant,
  checks: t.Array(t.Object({ check: t.String(), name: t.String(), status: t.Union([t.Literal('pass'), t.Literal('fail')]), evidence: t.String() })),
  passing: Count,
  total: Count,
})

export function figureRoutes(deps: DiscoveryDeps) {
  const compliance = complianceRunner(deps)
  return new Elysia({ name: 'discovery-figures' })
    .get('/v5/metrics', () => metrics(deps), {
      detail: { tags: ['discovery'], summary: 'Tool-endpoint usage today, exchanges covered, calendar edge cases this year (best effort: zeros when a store is unavailable)', responses: responses({ 200: ['Metrics', MetricsSchema] }) },
    })
    .get('/v5/metrics/public', () => publicMetrics(deps, compliance), {
      detail: { tags: ['discovery'], summary: 'Public figures: exchanges, tools, uptime, recorded test count, payments, protocol versions and the preflight score', responses: responses({ 200: ['Public metrics', PublicMetricsSchema] }) },
    })
    .get('/v5/traction', () => traction(deps), {
      detail: { tags: ['discovery'], summary: 'Traction figures from the same sources as the metrics', responses: responses({ 200: ['Traction', TractionSchema] }) },
    })
    .get('/v5/compliance', () => compliance(), {
      detail: { tags: ['discovery'], summary: 'Operational checks run against the live service (cached at most 60 s), each pass or fail with evidence', responses: responses({ 200: ['Compliance', ComplianceSchema] }) },
    })
}
