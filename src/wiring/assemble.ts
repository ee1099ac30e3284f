// The app's services over one backend's stores: what sqliteDeps and postgresDeps share. Domain
// objects get their stores passed in here; nothing below this layer knows the backend.
import type { AppDeps } from '../app'
import type { Stores } from './stores'
import { cachedAccountStore } from '../accounts/cache'
import { OverrideService } from '../market/overrides/service'
import { HaltMonitor } from '../market/halts/monitor'
import { SAMPLE_DOOR_PER_MINUTE } from '../market/safe-to-trade'
import { AuditLog } from '../audit/log'
import { auditTrail } from '../audit/trail'
import { RateLimiter } from '../http/rate-limit'
import { AnswerCache } from '../calendar/answer-cache'
import { witnessLimiters } from '../witness/limits'
import { McpUsage } from '../mcp/usage'
import { AnonymousAllowance } from '../mcp/allowance'
import { MailWorker } from '../accounts/mail/worker'
import { mailConfigured, smtpTransport } from '../accounts/mail/transport'
import { boughtKeyMail } from '../accounts/offers'
import { Meter } from '../accounts/metering'
import { MAX_SLICE } from '../accounts/quota-slices'
import { selfServiceKeys } from '../accounts/self-service'
import { paddleEventHandler } from '../payments/paddle/handler'
import { deliveryServices } from '../delivery/services'
import { CHECKOUT_PER_MINUTE } from '../payments/routes/checkout'
import { Leadership } from '../store/leadership'
import { leaseHolder, storageHealth, type NodeInfo } from '../store/node'
import { transparencyServices } from './transparency'
import { calendarUpdateServices } from '../calendar/updates/services'

/** The parts every backend's wiring takes from main.ts (or a test). */
export type DepsParts = Pick<AppDeps, 'config' | 'clock' | 'log' | 'signer' | 'calendars'>

export interface AssembleOptions {
  /** A lease holder known to be dead, whose jobs are taken at once (SQLite: localHolderIsDead). */
  isDeadHolder?: (holder: string) => boolean
}

/** The app's collaborators over `stores`; `replace` swaps any of them (tests, benchmarks). */
export function assembleDeps(parts: DepsParts, stores: Stores, replace: Partial<AppDeps> = {}, options: AssembleOptions = {}): AppDeps {
  const { config, clock, log } = parts
  const audit = replace.audit ?? new AuditLog(stores.audit, log)
  const accountWrites = stores.accountWrites
  const keyMail: AppDeps['keyMail'] = (mail) => stores.enqueueMail({ to: mail.to, ...boughtKeyMail(config, mail.key, mail.product) }, mail.now)
  // Nodes sharing the database claim quota in slices (accounts/quota-slices.ts), and so do several
  // SQLite processes on one file (workers, REUSE_PORT); one process alone counts in memory.
  const sharing = stores.backend === 'postgres' || config.reusePort ? { maxSlice: MAX_SLICE } : null
  const leadership = new Leadership(stores.leases, leaseHolder(config.nodeId), clock, log, { isDeadHolder: options.isDeadHolder })
  const node: NodeInfo = { backend: stores.backend, id: config.nodeId, leadership, databaseStatus: () => stores.status() }
  const deps = {
    ...parts,
    transactor: stores.transactor,
    node,
    accounts: cachedAccountStore(stores.accounts, clock),
    overrides: new OverrideService(stores.overrides, clock, log),
    halts: new HaltMonitor(config.haltFeed, { clock, log, calendars: parts.calendars, shared: { store: stores.halts, publisher: leadership.holder } }),
    audit,
    auditTrail: auditTrail({
      audit, signer: parts.signer, issuer: config.issuer, clock, log, retentionDays: config.receiptRetentionDays,
      // The transparency log: digests name its size; retention keeps bodies it has not stored yet.
      logBase: async () => (await stores.tiles.state()).baseSeq,
      logOrigin: config.transparency.origin,
      integratedThrough: async () => { const state = await stores.tiles.state(); return state.baseSeq + state.size - 1 },
    }),
    sampleDoorLimiter: new RateLimiter(SAMPLE_DOOR_PER_MINUTE),
    checkoutLimiter: new RateLimiter(CHECKOUT_PER_MINUTE),
    calendarLimiter: new RateLimiter(config.calendarRatePerMinute),
    calendarAnswers: new AnswerCache(),
    witness: { store: stores.witness, limiters: witnessLimiters() },
    ...transparencyServices({ config, clock, log, signer: parts.signer, transactor: stores.transactor, audit: stores.audit, tiles: stores.tiles, tlogWitness: stores.tlogWitness }),
    healthExtras: [() => storageHealth(node)],
    installation: stores.installation,
    calendarUpdates: calendarUpdateServices({ ...parts, transactor: stores.transactor }, { publications: stores.calendarPublications, upstream: stores.calendarUpstream, changes: stores.calendarChanges }),
    tokens: stores.tokens,
    meter: new Meter(stores.usage, stores.meterWrites, clock, log, { daily: config.metering.freeDailyLimit, monthly: config.metering.freeMonthlyLimit }, sharing),
    mcpStore: stores.mcp,
    mcpUsage: new McpUsage(stores.mcp, clock, log),
    mcpAllowance: new AnonymousAllowance(stores.mcp, clock, log, sharing !== null),
    payments: stores.payments,
    accountWrites,
    creditLedger: stores.creditLedger,
    keyMail,
    paddleEvents: paddleEventHandler({ store: stores.paddleEvents, ledger: stores.creditLedger, writes: accountWrites, keyMail, transactor: stores.transactor }, config.paddle.prices),
    selfService: selfServiceKeys({ store: stores.selfService, outbox: stores.mailOutbox, transactor: stores.transactor, config }),
    mail: new MailWorker(stores.mailOutbox, mailConfigured(config.mail) ? smtpTransport(config.mail) : null, clock, log),
    ...replace,
  } satisfies Omit<AppDeps, 'delivery'> as AppDeps
  deps.delivery = replace.delivery ?? deliveryServices(stores, deps, { isDeadHolder: options.isDeadHolder })
  return deps
}
