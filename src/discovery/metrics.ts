// /v5/metrics, /v5/metrics/public and /v5/traction: every figure read from its source when asked
// (docs/discovery.md names each one). A source that cannot be read gives zeros or null for its
// own figures (best effort, spec 2.7) and a line in the log, never a made-up number.
import type { MetricsDeps } from './deps'
import { RECEIPT_SCHEMA_VERSION, RECEIPT_TTL_SECONDS } from '../crypto/receipt-fields'
import { DEFAULT_PROTOCOL_VERSION, SERVED_PROTOCOL_VERSIONS } from '../mcp/protocol'
import { TOOLS } from '../mcp/tools'
import { DAY_MS } from '../calendar/zone'
import type { PaymentStats } from '../payments/store'
import { edgeCasesInYear, exchangesCovered } from './edge-cases'
import { readBuildInfo } from './build-info'
import type { ComplianceReport } from './compliance'

async function bestEffort<T>(deps: Pick<MetricsDeps, 'log'>, source: string, read: () => Promise<T>, fallback: T): Promise<T> {
  try {
    return await read()
  } catch (error) {
    deps.log.warn('metrics source unavailable; reporting its fallback', { source, error: (error as Error).message })
    return fallback
  }
}

const mcpToday = (deps: MetricsDeps) => bestEffort(deps, 'mcp usage', () => deps.mcpUsage.today(), { requests: 0, clients: 0 })

function calendarFigures(deps: MetricsDeps, now: number) {
  const snapshot = deps.calendars.snapshot()
  return { exchanges: exchangesCovered(snapshot, now), edgeCases: edgeCasesInYear(snapshot, new Date(now).getUTCFullYear()) }
}

async function firstStart(deps: MetricsDeps, now: number) {
  const at = await bestEffort(deps, 'installation', () => deps.installation.firstStartedAt(), null)
  const ms = at === null ? Number.NaN : Date.parse(at)
  return Number.isNaN(ms) ? { since: null, days: null } : { since: new Date(ms).toISOString(), days: Math.max(0, Math.floor((now - ms) / DAY_MS)) }
}

const uptimeStatus = (deps: MetricsDeps) => (deps.signer.online ? 'operational' : 'degraded')

export async function metrics(deps: MetricsDeps) {
  const now = deps.clock.now()
  const { exchanges, edgeCases } = calendarFigures(deps, now)
  const usage = await mcpToday(deps)
  return {
    total_mcp_requests_today: usage.requests,
    unique_mcp_clients_today: usage.clients,
    exchanges_covered: exchanges,
    edge_cases_per_year: edgeCases.total,
    edge_cases: edgeCases,
    uptime_status: uptimeStatus(deps),
    as_of: new Date(now).toISOString(),
  }
}

const NO_PAYMENTS: PaymentStats = { settled: 0, first_settled_at: null, last_settled_at: null }

export async function publicMetrics(deps: MetricsDeps, compliance: () => Promise<ComplianceReport>) {
  const now = deps.clock.now()
  const { exchanges } = calendarFigures(deps, now)
  const [uptime, payments, report] = await Promise.all([firstStart(deps, now), bestEffort(deps, 'payments', () => deps.payments.stats(), NO_PAYMENTS), compliance()])
  const build = readBuildInfo(deps.config.buildInfoFile)
  return {
    exchanges,
    mcp_tools: TOOLS.length,
    uptime_days: uptime.days,
    uptime_since: uptime.since,
    tests_passing: build.tests_passing,
    tests_recorded_at: build.recorded_at,
    signing_algorithm: 'Ed25519',
    receipt_ttl_seconds: RECEIPT_TTL_SECONDS,
    x402_enabled: deps.config.x402.payTo !== null,
    x402_network: deps.config.x402.network,
    x402_payment_count: payments.settled,
    last_payment_at: payments.last_settled_at,
    // Spec 9 names one tool-endpoint protocol version; the list says which others are answered.
    mcp_protocol_version: DEFAULT_PROTOCOL_VERSION,
    mcp_protocol_versions: [...SERVED_PROTOCOL_VERSIONS],
    fail_closed: true,
    preflight_score: report.passing,
    preflight_checks: report.total,
    preflight_definition: 'number of /v5/compliance checks passing at last_verified (out of preflight_checks)',
    as_of: new Date(now).toISOString(),
  }
}

export async function traction(deps: MetricsDeps) {
  const now = deps.clock.now()
  const { exchanges, edgeCases } = calendarFigures(deps, now)
  const [uptime, usage] = await Promise.all([firstStart(deps, now), mcpToday(deps)])
  return {
    exchanges_covered: exchanges,
    edge_cases_per_year: edgeCases.total,
    uptime_since: uptime.since,
    days_live: uptime.days,
    mcp_requests_today: usage.requests,
    unique_mcp_clients_today: usage.clients,
    // The signed market-attestation format this service speaks is its receipt schema.
    sma_spec_version: RECEIPT_SCHEMA_VERSION,
    // No verifiable-intent RFC is implemented; the field says so rather than naming one.
    verifiable_intent_rfc: null,
    x402_enabled: deps.config.x402.payTo !== null,
    halt_monitor: deps.halts.status(),
    as_of: new Date(now).toISOString(),
  }
}
