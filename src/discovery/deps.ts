// What the discovery domain's functions take (types only: a full set of the app's dependencies
// satisfies each). The figures and checks read many domains' services, so their types list them.
import type { Config } from '../config'
import type { Clock } from '../clock'
import type { Signer } from '../crypto/signer'
import type { Transactor } from '../store/transaction'
import type { MarketDeps } from '../market/resolve'
import type { AuditLog } from '../audit/log'
import type { AuditTrail } from '../audit/trail'
import type { WitnessParts } from '../witness/deps'
import type { TransparencyLog } from '../transparency/services'
import type { McpUsage } from '../mcp/usage'
import type { PaymentStore } from '../payments/store'
import type { InstallationStore } from './installation'
import type { NodeInfo } from '../store/node'
import type { CalendarRegistry } from '../calendar/registry'
import type { CalendarUpdates } from '../calendar/updates/services'

/** The discovery surfaces (routes/): keys, health, the index (the board page for a browser), documents, descriptions, figures. */
export interface DiscoveryDeps extends MarketDeps {
  config: Config
  clock: Clock
  signer: Signer
  transactor: Transactor
  audit: AuditLog
  auditTrail: AuditTrail
  witness: WitnessParts
  transparency: TransparencyLog
  mcpUsage: McpUsage
  /** Spent payment proofs (x402, transaction hashes): their counts. */
  payments: PaymentStore
  /** This installation's first start (uptime figures). */
  installation: InstallationStore
  /** Unsigned extra fields for /v5/health (warnings from background jobs). */
  healthExtras: Array<() => Record<string, unknown>>
  /** The calendar-publisher key /v5/keys publishes. */
  calendarUpdates: CalendarUpdates
}

/** The operational checks (compliance.ts): the key, the calendars, the halt monitor, the digests, a witness write rolled back, the clock. */
export type ComplianceDeps = Pick<DiscoveryDeps, 'config' | 'clock' | 'signer' | 'calendars' | 'halts' | 'audit' | 'auditTrail' | 'witness' | 'transactor' | 'installation'>

/** The figures (metrics.ts): coverage, tool-endpoint usage, payments, uptime, the halt monitor. */
export type MetricsDeps = Pick<DiscoveryDeps, 'config' | 'clock' | 'log' | 'signer' | 'calendars' | 'halts' | 'installation' | 'mcpUsage' | 'payments'>

/** Readiness (readiness.ts, GET /v5/ready): the signer, the calendars, the audit log and this node's storage probe. */
export interface ReadinessDeps {
  signer: Signer
  calendars: CalendarRegistry
  audit: AuditLog
  node: NodeInfo
}
