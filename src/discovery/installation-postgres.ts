// This installation's first start on PostgreSQL (migration 20): the time the first migration ran.
import type { SQL } from 'bun'
import type { InstallationStore } from './installation'

export function postgresInstallationStore(sql: SQL): InstallationStore {
  return {
    async firstStartedAt() {
      const [row] = await sql`SELECT value FROM installation WHERE name = 'first_started_at'`
      return (row as { value: string } | undefined)?.value ?? null
    },
  }
}
