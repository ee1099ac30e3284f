// `openbell backup <file>`: a consistent copy of the live SQLite database (VACUUM INTO, safe while
// the service runs), written 0600 like the database itself. The signing key is a separate file.
// On PostgreSQL (DATABASE_URL) the database server owns backups: the command says how to take one
// with pg_dump (or the provider's point-in-time recovery) and copies nothing itself.
import { closeSync, existsSync, openSync } from 'node:fs'
import type { CliStores } from '../wiring/cli'

export function runBackupCommand(args: string[], target: Pick<CliStores, 'sqlite' | 'name'>, out: (line: string) => void): number {
  const [file] = args
  if (!file || args.length !== 1) {
    out('usage: openbell backup <new file>')
    return 2
  }
  if (!target.sqlite) {
    out('backup: this service stores its data in PostgreSQL (DATABASE_URL); this command copies only a SQLite database, and copied nothing.')
    out('Back PostgreSQL up with its own tools, for example a consistent dump of the database (password from PGPASSWORD or ~/.pgpass):')
    out(`  pg_dump --format=custom --file=${JSON.stringify(file)} '${target.name}'`)
    out('restored with pg_restore into an empty database; or use continuous archiving / point-in-time recovery (managed services call it PITR).')
    out('Back up the signing key file separately (docs/scale-out.md, backups).')
    return 2
  }
  if (existsSync(file)) {
    out(`error: ${file} exists; give a new file name`)
    return 1
  }
  // Create it empty with the final mode first: VACUUM INTO writes into an existing empty file.
  closeSync(openSync(file, 'wx', 0o600))
  target.sqlite.run('VACUUM INTO ?', [file])
  out(`backup written to ${file} (mode 0600); back up the signing key file separately`)
  return 0
}
