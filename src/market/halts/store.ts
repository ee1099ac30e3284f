// The halt monitor's view shared by the nodes of one database (migration 50): the node holding
// the `halt-poller` lease polls the feed and publishes what it saw here after every poll; the
// other nodes adopt it (pushed on PostgreSQL, read every second on SQLite), so a halt detected
// by one node applies on every node within a second.
import type { Database } from 'bun:sqlite'
import type { Step } from '../../store/transaction'
import { sqliteStep } from '../../store/sqlite-transaction'

export interface ActiveHalt {
  code: string
  reason: string
  since: string
}

/** What the polling node knows, as it publishes it for the others. */
export interface HaltSnapshot {
  halts: Record<string, ActiveHalt>
  lastPollAt: number | null
  lastSuccessAt: number | null
  lastError: string | null
  failures: number
  inSessionSince: number | null
}

/** The notification channel of published halt views (no payload: read the row). */
export const HALTS_CHANNEL = 'openbell_halts'

export interface PublishedHalts {
  /** JSON of the monitor's HaltSnapshot. */
  snapshot: string
  published_at: number
  publisher: string
}

export interface HaltStore {
  publish(row: PublishedHalts): Promise<void>
  read(): Promise<PublishedHalts | null>
  /** The published view read inside a unit of work (a detector comparing against it in the transaction that records a change). */
  current(): Step<PublishedHalts | null>
  /** Calls `changed` when any node publishes (PostgreSQL); absent on SQLite (read every second). */
  watch?(changed: () => void): Promise<() => Promise<void>>
}

export const PUBLISH_SQL = `INSERT INTO halt_state (id, snapshot, published_at, publisher) VALUES (1, $1, $2, $3)
ON CONFLICT (id) DO UPDATE SET snapshot = excluded.snapshot, published_at = excluded.published_at, publisher = excluded.publisher`

export function sqliteHaltStore(db: Database): HaltStore {
  const publish = db.query(PUBLISH_SQL.replace(/\$(\d)/g, '?$1'))
  const read = db.query('SELECT snapshot, published_at, publisher FROM halt_state WHERE id = 1')
  return {
    async publish(row) {
      publish.run(row.snapshot, row.published_at, row.publisher)
    },
    async read() {
      return (read.get() as PublishedHalts | null) ?? null
    },
    current: () => sqliteStep(() => (read.get() as PublishedHalts | null) ?? null),
  }
}
