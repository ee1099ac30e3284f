// The installation row is write-once; tests that need a known first start rewrite it as an
// operator with database access could.
import type { TestApp } from './app'

export function setFirstStart(t: TestApp, iso: string) {
  t.db.run('DROP TRIGGER IF EXISTS installation_no_update')
  t.db.run(`UPDATE installation SET value = ? WHERE name = 'first_started_at'`, [iso])
}
