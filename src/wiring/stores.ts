// Everything a backend provides: one implementation of each store interface the domains own.
// src/wiring/sqlite.ts and src/wiring/postgres.ts each make one; assemble.ts builds the app's
// services over either. Each member is one store interface a backend implements (the list the
// PostgreSQL work is tracked by; see docs/architecture.md, "Storage").
import type { AccountStore } from '../accounts/store'
import type { UsageStore, MeterWrites } from '../accounts/usage-store'
import type { TokenStore } from '../accounts/tokens'
import type { AccountWrites } from '../accounts/account-writes'
import type { SelfServiceStore } from '../accounts/self-service-store'
import type { MailOutbox, OutgoingMail } from '../accounts/mail/outbox'
import type { OverrideStore } from '../market/overrides/store'
import type { HaltStore } from '../market/halts/store'
import type { AuditStore } from '../audit/store'
import type { WitnessStore } from '../witness/store'
import type { TlogWitnessStore } from '../witness/tlog/store'
import type { TileStore } from '../transparency/store'
import type { InstallationStore } from '../discovery/installation'
import type { McpStore } from '../mcp/store'
import type { PaymentStore } from '../payments/store'
import type { CreditLedger } from '../payments/credits'
import type { PaddleStore } from '../payments/paddle/store'
import type { WebhookStore } from '../delivery/webhooks/store'
import type { DeliveryQueue } from '../delivery/webhooks/queue'
import type { DispatcherRecords } from '../delivery/webhooks/health'
import type { StreamRegistry } from '../delivery/stream/registry'
import type { Step, Transactor } from '../store/transaction'
import type { LeaseStore } from '../store/lease-store'
import type { KeyRecordStore } from '../store/key-record'
import type { PublicationStore, UpstreamStore } from '../calendar/updates/store'
import type { CalendarChangeStore } from '../calendar/changes/store'

export interface Stores {
  backend: 'sqlite' | 'postgres'
  /** Runs a domain's multi-statement unit of work as one transaction (src/store/transaction.ts). */
  transactor: Transactor
  /** Leases of the jobs that must run on one node at a time. */
  leases: LeaseStore
  /** The public key every node of this database signs with. */
  keyRecord: KeyRecordStore
  accounts: AccountStore
  usage: UsageStore
  meterWrites: MeterWrites
  tokens: TokenStore
  accountWrites: AccountWrites
  selfService: SelfServiceStore
  mailOutbox: MailOutbox
  /** Stores one outgoing mail in the outbox (a step: joins the caller's unit of work). */
  enqueueMail: (mail: OutgoingMail, now: number) => Step<number>
  overrides: OverrideStore
  /** The halt view the polling node shares with the others. */
  halts: HaltStore
  audit: AuditStore
  witness: WitnessStore
  /** The C2SP witness: logs added by the operator and the latest cosigned checkpoint of each. */
  tlogWitness: TlogWitnessStore
  /** The tiled transparency log: state, full tiles, the edge. */
  tiles: TileStore
  installation: InstallationStore
  mcp: McpStore
  payments: PaymentStore
  creditLedger: CreditLedger
  /** Billing-provider events, transactions and subscriptions (the handler in payments/paddle joins them with account writes). */
  paddleEvents: PaddleStore
  webhooks: WebhookStore
  deliveryQueue: DeliveryQueue
  dispatcherRecords: DispatcherRecords
  /** Every open /v5/stream of every node (per-key stream limits across nodes). */
  streams: StreamRegistry
  /** The serial of each set of calendar files this installation published. */
  calendarPublications: PublicationStore
  /** Calendar manifests and files accepted from the upstream, and the follower's status. */
  calendarUpstream: UpstreamStore
  /** The durable list of calendar changes. */
  calendarChanges: CalendarChangeStore
  /**
   * A number that changes whenever any process sets or clears an override (the dispatcher polls
   * it); absent where the override store pushes changes (PostgreSQL).
   */
  overrideMark?: () => number
  /** 'degraded' while the database cannot be reached (PostgreSQL); SQLite is a local file. */
  status(): 'ok' | 'degraded'
  /** Closes the backend's connections (after every job has stopped). */
  close(): Promise<void>
}
