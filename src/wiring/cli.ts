// The stores the operator commands (`keys`, `overrides`, `mail`, `backup`) work on, opened exactly
// as the service opens its backend: DATABASE_URL selects PostgreSQL, else the SQLite file of
// DATA_DIR. The database is named on the first line (on stderr, so that stdout stays what the
// command prints), migrated as the service would, and never created (SQLite: a new file;
// PostgreSQL: the tables in an empty database) unless the operator passes --init.
import { existsSync } from 'node:fs'
import type { Database } from 'bun:sqlite'
import type { Config } from '../config'
import { maskUrlPassword } from '../config'
import type { Logger } from '../log'
import type { AccountStore } from '../accounts/store'
import type { UsageStore } from '../accounts/usage-store'
import type { MailOutbox } from '../accounts/mail/outbox'
import type { OverrideStore } from '../market/overrides/store'
import type { Transactor } from '../store/transaction'
import type { PublicationStore, UpstreamStore } from '../calendar/updates/store'
import { MIGRATIONS } from './migrations'
import { DatabaseUnavailable, openPostgres } from '../store/postgres'
import { applyPostgresMigrations } from '../store/postgres-migrate'
import { openSqlite } from './open'
import { sqliteStores } from './sqlite'
import { postgresStores } from './postgres'

export const INIT_FLAG = '--init'

export interface CliStores {
  backend: 'sqlite' | 'postgres'
  /** The SQLite file's path, or DATABASE_URL with its password masked. */
  name: string
  accounts: AccountStore
  usage: UsageStore
  mailOutbox: MailOutbox
  overrides: OverrideStore
  /** `calendars publish` and `calendars status`: the manifest serials and the follower's record. */
  transactor: Transactor
  calendarPublications: PublicationStore
  calendarUpstream: UpstreamStore
  /** The SQLite database (backup copies it); null on PostgreSQL. */
  sqlite: Database | null
  close(): Promise<void>
}

export type OpenedCliStores = { ok: true; stores: CliStores } | { ok: false; code: number }

/** Takes --init out of the arguments (it may appear anywhere). */
export function takeInitFlag(args: string[]): { args: string[]; init: boolean } {
  return { args: args.filter((arg) => arg !== INIT_FLAG), init: args.includes(INIT_FLAG) }
}

/** Opens the configured backend for a command; errors are written with `err` and give the exit code. */
export async function openCliStores(config: Config, init: boolean, log: Logger, err: (line: string) => void): Promise<OpenedCliStores> {
  return config.databaseUrl ? openPostgresCli(config, config.databaseUrl, init, log, err) : openSqliteCli(config, init, log, err)
}

function openSqliteCli(config: Config, init: boolean, log: Logger, err: (line: string) => void): OpenedCliStores {
  err(`database: ${config.databasePath}`)
  if (!existsSync(config.databasePath) && !init) {
    err(`error: there is no database at ${config.databasePath}.`)
    err('The service creates it on its first start; point DATA_DIR (or DATABASE_PATH) at the directory the service uses,')
    err(`or DATABASE_URL at its PostgreSQL database, or pass ${INIT_FLAG} to create a new, empty database here.`)
    return { ok: false, code: 1 }
  }
  const db = openSqlite(config.databasePath, log, config.durability)
  const stores = sqliteStores(db, config)
  return {
    ok: true,
    stores: { backend: 'sqlite', name: config.databasePath, accounts: stores.accounts, usage: stores.usage, mailOutbox: stores.mailOutbox, overrides: stores.overrides, transactor: stores.transactor, calendarPublications: stores.calendarPublications, calendarUpstream: stores.calendarUpstream, sqlite: db, close: async () => db.close() },
  }
}

async function openPostgresCli(config: Config, url: string, init: boolean, log: Logger, err: (line: string) => void): Promise<OpenedCliStores> {
  const name = maskUrlPassword(url)
  err(`database: ${name}`)
  let sql
  try {
    sql = await openPostgres(url, { max: 2 })
  } catch (error) {
    if (!(error instanceof DatabaseUnavailable)) throw error
    err(`error: ${error.message}`)
    return { ok: false, code: 1 }
  }
  try {
    const [known] = (await sql`SELECT to_regclass('schema_migrations') IS NOT NULL AS migrated`) as { migrated: boolean }[]
    if (!known!.migrated && !init) {
      err(`error: the database of DATABASE_URL (${name}) has no openbell tables.`)
      err('The service creates them on its first start; point DATABASE_URL at the database the service uses,')
      err(`or pass ${INIT_FLAG} to create the tables in this empty database.`)
      await sql.close()
      return { ok: false, code: 1 }
    }
    const applied = await applyPostgresMigrations(sql, MIGRATIONS)
    if (applied.length) log.info('database migrated', { database: name, applied })
  } catch (error) {
    await sql.close()
    throw error
  }
  const stores = postgresStores(sql, config, log)
  const close = async () => {
    await stores.close()
    await sql.close()
  }
  return {
    ok: true,
    stores: { backend: 'postgres', name, accounts: stores.accounts, usage: stores.usage, mailOutbox: stores.mailOutbox, overrides: stores.overrides, transactor: stores.transactor, calendarPublications: stores.calendarPublications, calendarUpstream: stores.calendarUpstream, sqlite: null, close },
  }
}
