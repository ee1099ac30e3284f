// How the operator commands open the service's database: resolved exactly as the service does
// (config.ts), named on the first line of output (on stderr, so that stdout stays what the
// command prints: `KEY=$(openbell keys create … | head -1)` still gets the key), and never
// created by a command that only makes sense on the database a running service uses, unless the
// operator passes --init.
import { existsSync } from 'node:fs'
import type { Database } from 'bun:sqlite'
import type { Config } from '../config'

export const INIT_FLAG = '--init'

export type CliDatabase = { ok: true; db: Database } | { ok: false; code: number }

/** Takes --init out of the arguments (it may appear anywhere). */
export function takeInitFlag(args: string[]): { args: string[]; init: boolean } {
  return { args: args.filter((arg) => arg !== INIT_FLAG), init: args.includes(INIT_FLAG) }
}

export function openCliDatabase(config: Pick<Config, 'databasePath' | 'dataDir'>, init: boolean, open: (path: string) => Database, err: (line: string) => void): CliDatabase {
  err(`database: ${config.databasePath}`)
  if (!existsSync(config.databasePath) && !init) {
    err(`error: there is no database at ${config.databasePath}.`)
    err('The service creates it on its first start; point DATA_DIR (or DATABASE_PATH) at the directory the service uses,')
    err(`or pass ${INIT_FLAG} to create a new, empty database here.`)
    return { ok: false, code: 1 }
  }
  return { ok: true, db: open(config.databasePath) }
}
