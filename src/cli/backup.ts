// `openbell backup <file>`: a consistent copy of the live database (VACUUM INTO, safe while the
// service runs), written 0600 like the database itself. The signing key is a separate file.
import { closeSync, existsSync, openSync } from 'node:fs'
import type { Database } from 'bun:sqlite'

export function runBackupCommand(args: string[], db: Database, out: (line: string) => void): number {
  const [target] = args
  if (!target || args.length !== 1) {
    out('usage: openbell backup <new file>')
    return 2
  }
  if (existsSync(target)) {
    out(`error: ${target} exists; give a new file name`)
    return 1
  }
  // Create it empty with the final mode first: VACUUM INTO writes into an existing empty file.
  closeSync(openSync(target, 'wx', 0o600))
  db.run('VACUUM INTO ?', [target])
  out(`backup written to ${target} (mode 0600); back up the signing key file separately`)
  return 0
}
