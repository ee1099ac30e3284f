// The PostgreSQL backend (DATABASE_URL): every store over one connection pool of Bun's SQL
// client, shared by the requests, the group-committed audit log and the jobs of this node.
import type { SQL } from 'bun'
import type { Config } from '../config'
import type { Logger } from '../log'
import type { AppDeps } from '../app'
import type { Stores } from './stores'
import { assembleDeps, type DepsParts } from './assemble'
import { postgresTransactor } from '../store/postgres-transaction'
import { postgresLeaseStore } from '../store/lease-store-postgres'
import { postgresKeyRecordStore } from '../store/key-record-postgres'
import { watchPostgres } from '../store/postgres'
import { postgresInstallationStore } from '../discovery/installation-postgres'
import { postgresWitnessStore } from '../witness/store-postgres'
import { postgresAccountStore } from '../accounts/store-postgres'
import { postgresMeterWrites, postgresUsageStore } from '../accounts/usage-store-postgres'
import { postgresTokenStore } from '../accounts/tokens-postgres'
import { postgresAccountWrites } from '../accounts/account-writes-postgres'
import { postgresSelfServiceStore } from '../accounts/self-service-store-postgres'
import { postgresMailOutbox } from '../accounts/mail/outbox-postgres'
import { postgresTlogWitnessStore } from '../witness/tlog/store-postgres'
import { postgresTileStore } from '../transparency/store-postgres'
import { postgresWebhookStore } from '../delivery/webhooks/store-postgres'
import { postgresDeliveryQueue } from '../delivery/webhooks/queue-postgres'
import { postgresDispatcherRecords } from '../delivery/webhooks/health-postgres'
import { postgresStreamRegistry } from '../delivery/stream/registry-postgres'
import { postgresMcpStore } from '../mcp/store-postgres'
import { postgresPaymentStore } from '../payments/store-postgres'
import { postgresCreditLedger } from '../payments/credits-postgres'
import { postgresPaddleStore } from '../payments/paddle/store-postgres'
import { postgresOverrideStore } from '../market/overrides/store-postgres'
import { postgresAuditStore } from '../audit/store-postgres'
import { postgresHaltStore } from '../market/halts/store-postgres'
import { postgresPublicationStore, postgresUpstreamStore } from '../calendar/updates/store-postgres'
import { postgresCalendarChangeStore } from '../calendar/changes/store-postgres'

/** Every store over one pool, and the probe behind `/v5/health` `storage.status`. */
export function postgresStores(sql: SQL, _config: Config, log: Pick<Logger, 'warn' | 'info'>): Stores {
  const watch = watchPostgres(sql, log)
  const outbox = postgresMailOutbox(sql)
  return {
    backend: 'postgres',
    transactor: postgresTransactor(sql),
    leases: postgresLeaseStore(sql),
    keyRecord: postgresKeyRecordStore(sql),
    installation: postgresInstallationStore(sql),
    witness: postgresWitnessStore(sql),
    accounts: postgresAccountStore(sql),
    usage: postgresUsageStore(sql),
    meterWrites: postgresMeterWrites(sql),
    tokens: postgresTokenStore(sql),
    accountWrites: postgresAccountWrites(sql),
    selfService: postgresSelfServiceStore(sql),
    mailOutbox: outbox,
    enqueueMail: outbox.enqueue,
    tlogWitness: postgresTlogWitnessStore(sql),
    tiles: postgresTileStore(sql),
    mcp: postgresMcpStore(sql),
    webhooks: postgresWebhookStore(sql),
    deliveryQueue: postgresDeliveryQueue(sql),
    dispatcherRecords: postgresDispatcherRecords(sql),
    streams: postgresStreamRegistry(sql),
    payments: postgresPaymentStore(sql),
    creditLedger: postgresCreditLedger(sql),
    paddleEvents: postgresPaddleStore(sql),
    overrides: postgresOverrideStore(sql),
    audit: postgresAuditStore(sql),
    halts: postgresHaltStore(sql),
    calendarPublications: postgresPublicationStore(sql),
    calendarUpstream: postgresUpstreamStore(sql),
    calendarChanges: postgresCalendarChangeStore(sql),
    status: watch.status,
    close: async () => watch.stop(),
  }
}

/** The app's collaborators over one PostgreSQL pool; `replace` swaps any of them (tests). */
export function postgresDeps({ sql, ...parts }: DepsParts & { sql: SQL }, replace: Partial<AppDeps> = {}): AppDeps {
  return assembleDeps(parts, postgresStores(sql, parts.config, parts.log), replace)
}
