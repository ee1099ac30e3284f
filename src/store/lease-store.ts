// Leases of jobs that must run on one node at a time (sealing, retention, webhook detection,
// halt polling, mail, housekeeping): one row per job naming its holder and when the lease ends.
// The holder renews it well before then; when it stops renewing (its node died or lost the
// database), any node takes the job once the lease has ended. Times are the nodes' clocks (epoch
// ms): a node whose clock runs ahead by d sees leases end d early, so keep clocks synchronised
// (NTP) to well under the lease's margin (LEASE_TTL_MS − LEASE_RENEW_MS).
import type { Database } from 'bun:sqlite'

export interface LeaseRow {
  name: string
  holder: string
  acquired_at: number
  expires_at: number
}

export interface LeaseStore {
  /**
   * Takes the lease `name` for `holder` until `until` when it is free, ended at `now`, or held by
   * `holder` already (a renewal). True when `holder` holds it now.
   */
  acquire(name: string, holder: string, now: number, until: number): Promise<boolean>
  /** Gives the lease up at once (a clean shutdown), if `holder` holds it. */
  release(name: string, holder: string): Promise<void>
  /** Moves the lease from `from` (known dead) to `holder`; true when it did. */
  takeOver(name: string, from: string, holder: string, now: number, until: number): Promise<boolean>
  all(): Promise<LeaseRow[]>
}

export const TAKE_OVER_SQL = 'UPDATE job_leases SET holder = $3, acquired_at = $4, expires_at = $5 WHERE name = $1 AND holder = $2 RETURNING holder'

export const ACQUIRE_SQL = `INSERT INTO job_leases (name, holder, acquired_at, expires_at) VALUES ($1, $2, $3, $4)
ON CONFLICT (name) DO UPDATE SET
  holder = excluded.holder,
  expires_at = excluded.expires_at,
  acquired_at = CASE WHEN job_leases.holder = excluded.holder THEN job_leases.acquired_at ELSE excluded.acquired_at END
WHERE job_leases.holder = excluded.holder OR job_leases.expires_at <= excluded.acquired_at
RETURNING holder`

export function sqliteLeaseStore(db: Database): LeaseStore {
  // bun:sqlite binds $1… by name: ?1… is the same statement text with positional parameters.
  const acquire = db.query(ACQUIRE_SQL.replace(/\$(\d)/g, '?$1'))
  const release = db.query('DELETE FROM job_leases WHERE name = ? AND holder = ?')
  const takeOver = db.query(TAKE_OVER_SQL.replace(/\$(\d)/g, '?$1'))
  const all = db.query('SELECT * FROM job_leases ORDER BY name')
  return {
    async acquire(name, holder, now, until) {
      return acquire.get(name, holder, now, until) !== null
    },
    async release(name, holder) {
      release.run(name, holder)
    },
    async takeOver(name, from, holder, now, until) {
      return takeOver.get(name, from, holder, now, until) !== null
    },
    async all() {
      return all.all() as LeaseRow[]
    },
  }
}
