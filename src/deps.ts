// What the app is built from. main.ts makes the real ones; tests make them with a fake clock,
// a temp database and a fixed key, in one call (test/helpers/app.ts).
import type { Config } from './config'
import type { Clock } from './clock'
import type { Logger } from './log'
import type { Signer } from './crypto/signer'
import type { AccountStore } from './accounts/store'
import type { CalendarRegistry } from './calendar/registry'
import type { WitnessStore } from './witness/store'
import type { WitnessLimiters } from './witness/limits'
import type { Database } from 'bun:sqlite'
import { sqliteAccountStore } from './accounts/store'
import { cachedAccountStore } from './accounts/cache'
import { OverrideService } from './market/overrides/service'
import { sqliteOverrideStore } from './market/overrides/store'
import { HaltMonitor } from './market/halts/monitor'
import { SAMPLE_DOOR_PER_MINUTE } from './market/routes/safe-to-trade-shared'
import { AuditLog } from './audit/log'
import { sqliteAuditStore } from './audit/store'
import { auditTrail, type AuditTrail } from './audit/trail'
import { RateLimiter } from './http/rate-limit'
import { sqliteWitnessStore } from './witness/store'
import { witnessLimiters } from './witness/limits'
import { sqliteMcpStore, type McpStore } from './mcp/store'
import { McpUsage } from './mcp/usage'
import { AnonymousAllowance } from './mcp/allowance'
import { sqlitePaymentStore, type PaymentStore } from './payments/store'
import { sqliteSyncAccountWrites, type SyncAccountWrites } from './accounts/sync-writes'
import { creditLedger, type CreditLedger } from './payments/credits'
import { paddleEventHandler } from './payments/paddle/handler'
import type { PaddleProduct } from './config'
import { sqliteInstallationStore, type InstallationStore } from './discovery/installation'
import { selfServiceKeys, type SelfServiceKeys } from './accounts/self-service'
import { enqueueMail, mailOutbox } from './accounts/mail/outbox'
import { MailWorker } from './accounts/mail/worker'
import { mailConfigured, smtpTransport } from './accounts/mail/transport'
import { boughtKeyMail } from './accounts/offers'
import { Meter } from './accounts/metering'
import { sqliteMeterWrites, sqliteUsageStore } from './accounts/usage-store'
import { deliveryServices, type DeliveryServices } from './delivery/services'
import { sqliteTokenStore, type TokenStore } from './accounts/tokens'
import { CHECKOUT_PER_MINUTE } from './payments/routes/checkout'

export interface AppDeps {
  config: Config
  clock: Clock
  log: Logger
  signer: Signer
  accounts: AccountStore
  calendars: CalendarRegistry
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
  /** Tool endpoint: anonymous allowance and usage counts (written behind once a second). */
  mcpStore: McpStore
  mcpUsage: McpUsage
  mcpAllowance: AnonymousAllowance
  /** Spent payment proofs (x402, transaction hashes). */
  payments: PaymentStore
  /** Synchronous account writes that join a payment's transaction. */
  accountWrites: SyncAccountWrites
  creditLedger: CreditLedger
  /** Applies one verified Paddle notification (once per event id). */
  paddleEvents: ReturnType<typeof paddleEventHandler>
  /** Stores the e-mail that carries a newly bought key (synchronous: joins the caller's transaction). */
  keyMail: (mail: { to: string; key: string; product: PaddleProduct | 'builder' | 'pro'; now: number }) => void
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
  /** Streams (one coordinator per MIC), webhook subscriptions and their dispatcher. */
  delivery: DeliveryServices
}

// Wiring over one SQLite database: the caller opens the files and passes the handles in.

export type DepsParts = Pick<AppDeps, 'config' | 'clock' | 'log' | 'signer' | 'calendars'> & { db: Database }

/** The app's collaborators over one database; `replace` swaps any of them (tests, benchmarks). */
export function sqliteDeps({ db, ...parts }: DepsParts, replace: Partial<AppDeps> = {}): AppDeps {
  const audit = replace.audit ?? new AuditLog(sqliteAuditStore(db), parts.log)
  const deps = {
    ...parts,
    accounts: cachedAccountStore(sqliteAccountStore(db), parts.clock),
    overrides: new OverrideService(sqliteOverrideStore(db), parts.clock, parts.log),
    halts: new HaltMonitor(parts.config.haltFeed, { clock: parts.clock, log: parts.log, calendars: parts.calendars }),
    audit,
    auditTrail: auditTrail({ audit, signer: parts.signer, issuer: parts.config.issuer, clock: parts.clock, log: parts.log, retentionDays: parts.config.receiptRetentionDays }),
    sampleDoorLimiter: new RateLimiter(SAMPLE_DOOR_PER_MINUTE),
    checkoutLimiter: new RateLimiter(CHECKOUT_PER_MINUTE),
    witness: { store: sqliteWitnessStore(db), limiters: witnessLimiters() },
    healthExtras: [],
    installation: sqliteInstallationStore(db),
    tokens: sqliteTokenStore(db),
    meter: new Meter(sqliteUsageStore(db), sqliteMeterWrites(db), parts.clock, parts.log, { daily: parts.config.metering.freeDailyLimit, monthly: parts.config.metering.freeMonthlyLimit }, parts.config.reusePort),
    ...mcpParts(db, parts),
    ...paymentParts(db, parts),
    ...accountParts(db, parts),
    ...replace,
  } satisfies Omit<AppDeps, 'delivery'> as AppDeps
  deps.delivery = replace.delivery ?? deliveryServices(db, deps)
  return deps
}

function mcpParts(db: Database, parts: Pick<AppDeps, 'clock' | 'log'>) {
  const mcpStore = sqliteMcpStore(db)
  return { mcpStore, mcpUsage: new McpUsage(mcpStore, parts.clock, parts.log), mcpAllowance: new AnonymousAllowance(mcpStore, parts.clock, parts.log) }
}

function paymentParts(db: Database, parts: Pick<AppDeps, 'config' | 'log'>) {
  const accountWrites = sqliteSyncAccountWrites(db)
  const keyMail: AppDeps['keyMail'] = (mail) => void enqueueMail(db, { to: mail.to, ...boughtKeyMail(parts.config, mail.key, mail.product) }, mail.now)
  return {
    payments: sqlitePaymentStore(db),
    accountWrites,
    creditLedger: creditLedger(db),
    keyMail,
    paddleEvents: paddleEventHandler(db, { ...accountWrites, enqueueKeyMail: (mail) => keyMail(mail), issueKey: (options) => accountWrites.issueKey(options) }, parts.config.paddle.prices),
  }
}

function accountParts(db: Database, parts: Pick<AppDeps, 'config' | 'clock' | 'log'>) {
  const settings = parts.config.mail
  return {
    selfService: selfServiceKeys(db, parts.config),
    mail: new MailWorker(mailOutbox(db), mailConfigured(settings) ? smtpTransport(settings) : null, parts.clock, parts.log),
  }
}
