// The SQLite backend (the default: `bun start` with no DATABASE_URL): every store over one
// bun:sqlite database in WAL mode. main.ts opens and migrates the file and passes it in.
import type { Database } from 'bun:sqlite'
import type { Config } from '../config'
import type { AppDeps } from '../app'
import type { Stores } from './stores'
import { assembleDeps, type AssembleOptions, type DepsParts } from './assemble'
import { sqliteAccountStore } from '../accounts/store'
import { sqliteMeterWrites, sqliteUsageStore } from '../accounts/usage-store'
import { sqliteTokenStore } from '../accounts/tokens'
import { sqliteAccountWrites } from '../accounts/account-writes'
import { sqliteSelfServiceStore } from '../accounts/self-service-store'
import { sqliteMailOutbox } from '../accounts/mail/outbox'
import { sqliteOverrideStore } from '../market/overrides/store'
import { sqliteHaltStore } from '../market/halts/store'
import { sqliteAuditStore } from '../audit/store'
import { sqliteWitnessStore } from '../witness/store'
import { sqliteTlogWitnessStore } from '../witness/tlog/store'
import { sqliteTileStore } from '../transparency/store'
import { sqliteInstallationStore } from '../discovery/installation'
import { sqliteMcpStore } from '../mcp/store'
import { sqlitePaymentStore } from '../payments/store'
import { sqliteCreditLedger } from '../payments/credits'
import { sqlitePaddleStore } from '../payments/paddle/store'
import { sqliteWebhookStore } from '../delivery/webhooks/store'
import { sqliteDeliveryQueue } from '../delivery/webhooks/queue'
import { sqliteDispatcherRecords } from '../delivery/webhooks/health'
import { sqliteStreamRegistry } from '../delivery/stream/registry'
import { sqliteTransactor } from '../store/sqlite-transaction'
import { sqliteLeaseStore } from '../store/lease-store'
import { sqliteKeyRecordStore } from '../store/key-record'
import { localHolderIsDead } from '../store/node'
import { sqlitePublicationStore, sqliteUpstreamStore } from '../calendar/updates/store'
import { sqliteCalendarChangeStore } from '../calendar/changes/store'

export function sqliteStores(db: Database, config: Config): Stores {
  const outbox = sqliteMailOutbox(db)
  // override_events is append-only: its last id changes with every set or clear, from any process.
  const lastOverrideEvent = db.query('SELECT coalesce(max(id), 0) AS id FROM override_events')
  return {
    backend: 'sqlite',
    transactor: sqliteTransactor(db),
    leases: sqliteLeaseStore(db),
    keyRecord: sqliteKeyRecordStore(db),
    accounts: sqliteAccountStore(db),
    usage: sqliteUsageStore(db),
    meterWrites: sqliteMeterWrites(db),
    tokens: sqliteTokenStore(db),
    accountWrites: sqliteAccountWrites(db),
    selfService: sqliteSelfServiceStore(db),
    mailOutbox: outbox,
    enqueueMail: outbox.enqueue,
    overrides: sqliteOverrideStore(db),
    halts: sqliteHaltStore(db),
    audit: sqliteAuditStore(db),
    witness: sqliteWitnessStore(db),
    tlogWitness: sqliteTlogWitnessStore(db),
    tiles: sqliteTileStore(db),
    installation: sqliteInstallationStore(db),
    mcp: sqliteMcpStore(db),
    payments: sqlitePaymentStore(db),
    creditLedger: sqliteCreditLedger(db),
    paddleEvents: sqlitePaddleStore(db),
    webhooks: sqliteWebhookStore(db),
    deliveryQueue: sqliteDeliveryQueue(db),
    dispatcherRecords: sqliteDispatcherRecords(db),
    streams: sqliteStreamRegistry(db),
    calendarPublications: sqlitePublicationStore(db),
    calendarUpstream: sqliteUpstreamStore(db),
    calendarChanges: sqliteCalendarChangeStore(db),
    overrideMark: () => (lastOverrideEvent.get() as { id: number }).id,
    status: () => 'ok',
    // main.ts closes the file after the WAL checkpoint worker has stopped.
    close: async () => {},
  }
}

/** SQLite's processes all run on this machine: a lease of a process that is gone is taken at once. */
export const SQLITE_OPTIONS: AssembleOptions = { isDeadHolder: localHolderIsDead }

/** The app's collaborators over one SQLite database; `replace` swaps any of them (tests, benchmarks). */
export function sqliteDeps({ db, ...parts }: DepsParts & { db: Database }, replace: Partial<AppDeps> = {}): AppDeps {
  return assembleDeps(parts, sqliteStores(db, parts.config), replace, SQLITE_OPTIONS)
}
