// This installation's first start, for uptime_days (/v5/metrics/public) and uptime_since
// (/v5/traction). Migration 20 records it once: an existing database keeps the time its first
// migration ran (its first start), a new one the time of this migration. Never updated.
import type { Database } from 'bun:sqlite'

export interface InstallationStore {
  /** ISO instant of this installation's first start (null when the row is missing). */
  firstStartedAt(): Promise<string | null>
}

export function sqliteInstallationStore(db: Database): InstallationStore {
  const read = db.query(`SELECT value FROM installation WHERE name = 'first_started_at'`)
  return {
    async firstStartedAt() {
      return (read.get() as { value: string } | null)?.value ?? null
    },
  }
}
