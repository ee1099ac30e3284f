// What the domains are built from (everything but the delivery services, which are built over
// it): the type only. Modules that the delivery services import take this type, so that no type
// import leads from the delivery domain back to src/deps.ts (which names the delivery services).
import type { Config, PaddleProduct } from './config'
import type { Clock } from './clock'
import type { Logger } from './log'
import type { Signer } from './crypto/signer'
import type { AccountStore } from './accounts/store'
import type { CalendarRegistry } from './calendar/registry'
import type { WitnessStore } from './witness/store'
import type { WitnessLimiters } from './witness/limits'
import type { OverrideService } from './market/overrides/service'
import type { HaltMonitor } from './market/halts/monitor'
import type { AuditLog } from './audit/log'
import type { AuditTrail } from './audit/trail'
import type { RateLimiter } from './http/rate-limit'
import type { McpStore } from './mcp/store'
import type { McpUsage } from './mcp/usage'
import type { AnonymousAllowance } from './mcp/allowance'
import type { PaymentStore } from './payments/store'
import type { AccountWrites } from './accounts/account-writes'
import type { CreditLedger } from './payments/credits'
import type { PaddleEventHandler } from './payments/paddle/handler'
import type { InstallationStore } from './discovery/installation'
import type { SelfServiceKeys } from './accounts/self-service'
import type { MailWorker } from './accounts/mail/worker'
import type { Meter } from './accounts/metering'
import type { TokenStore } from './accounts/tokens'
import type { NodeInfo } from './store/node'
import type { Step, Transactor } from './store/transaction'
import type { TransparencyLog } from './transparency/services'
import type { TlogWitness } from './witness/tlog/services'
import type { CalendarUpdates } from './calendar/updates/services'

export interface DomainDeps {
  /** Runs a unit of work over several stores as one transaction, on either backend (store/transaction.ts). */
  transactor: Transactor
  config: Config
  clock: Clock
  log: Logger
  signer: Signer
  accounts: AccountStore
  calendars: CalendarRegistry
  /** Calendar manifests this instance publishes, the upstream it follows, the durable list of calendar changes. */
  calendarUpdates: CalendarUpdates
  overrides: OverrideService
  halts: HaltMonitor
  /** The durable receipt log (group commit); surfaces log through market/issue.ts. */
  audit: AuditLog
  /** Day trees, the sealing job and the retention job of the audit trail. */
  auditTrail: AuditTrail
  /** Per-address limiter of the public safe-to-trade sample door (SAMPLE_DOOR_PER_MINUTE). */
  sampleDoorLimiter: RateLimiter
  /** POST /v5/checkout per client address: each call creates a transaction at the billing provider. */
  checkoutLimiter: RateLimiter
  witness: { store: WitnessStore; limiters: WitnessLimiters }
  /** The C2SP witness (POST /add-checkpoint): witnessed logs, their heads, the cosigning key. */
  tlogWitness: TlogWitness
  /** The tiled transparency log of every live receipt: keys, read path, integrator job. */
  transparency: TransparencyLog
  /** Tool endpoint: anonymous allowance and usage counts (written behind once a second). */
  mcpStore: McpStore
  mcpUsage: McpUsage
  mcpAllowance: AnonymousAllowance
  /** Spent payment proofs (x402, transaction hashes). */
  payments: PaymentStore
  /** Account writes that join a payment's unit of work (steps). */
  accountWrites: AccountWrites
  creditLedger: CreditLedger
  /** Applies one verified Paddle notification (once per event id). */
  paddleEvents: PaddleEventHandler
  /** Stores the e-mail that carries a newly bought key (a step: joins the caller's unit of work); the outbox row id. */
  keyMail: (mail: { to: string; key: string; product: PaddleProduct | 'builder' | 'pro'; now: number }) => Step<number>
  /** This installation's first start (uptime figures). */
  installation: InstallationStore
  /** Instant, e-mailed and sandbox keys; per-address allowances; funnel events. */
  selfService: SelfServiceKeys
  /** The mail job over the durable outbox (sends only when SMTP_URL is set). */
  mail: MailWorker
  /** Per-key request metering and limits of /v5/status, /v5/batch and the tool endpoint (written behind once a second). */
  meter: Meter
  /** Hashed OAuth client-credentials tokens (POST /oauth/token, resolveBearer). */
  tokens: TokenStore
  /** Unsigned extra fields for /v5/health (warnings from background jobs). */
  healthExtras: Array<() => Record<string, unknown>>
  /** Which backend this node runs on, its id and the jobs it leads (/v5/health `storage`). */
  node: NodeInfo
}

/** The parts every backend's wiring takes from main.ts (or a test). */
export type DepsParts = Pick<DomainDeps, 'config' | 'clock' | 'log' | 'signer' | 'calendars'>
