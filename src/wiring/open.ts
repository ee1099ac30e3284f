// Opening the configured backend for the service: the SQLite file (default) or the PostgreSQL
// database of DATABASE_URL; migrating it; checking the signing key against the one the database
// records; and building the app's dependencies over it. main.ts turns the errors into exit codes.
import type { Database } from 'bun:sqlite'
import type { AppDeps } from '../app'
import { maskUrlPassword } from '../config'
import { openDatabase, synchronousMode, type Durability } from '../store/database'
import { startCheckpoints } from '../store/checkpoints'
import { applyMigrations } from '../store/migrate'
import { MIGRATIONS } from './migrations'
import { openPostgres } from '../store/postgres'
import { applyPostgresMigrations } from '../store/postgres-migrate'
import { checkSigningKey, sqliteKeyRecordStore, type KeyRecordStore } from '../store/key-record'
import { postgresKeyRecordStore } from '../store/key-record-postgres'
import { assembleDeps, type DepsParts } from './assemble'
import { sqliteStores, SQLITE_OPTIONS } from './sqlite'
import { postgresStores } from './postgres'
import type { Stores } from './stores'

export interface OpenedBackend {
  deps: AppDeps
  /** Closes the database (after every job has stopped). */
  close(): Promise<void>
  /** SQLite's synchronous mode as the connection reports it (what DURABILITY turned into); null on PostgreSQL. */
  synchronous: string | null
}

/** Opens the SQLite file with the configured durability and applies pending migrations (also used by the CLI). */
export function openSqlite(path: string, log: DepsParts['log'], durability: Durability = 'process'): Database {
  const db = openDatabase(path, durability)
  const applied = applyMigrations(db, MIGRATIONS)
  if (applied.length) log.info('database migrated', { path, applied })
  return db
}

/** Throws SigningKeyMismatch when the database records another key than the signer's. */
async function checkKey(parts: Omit<DepsParts, 'calendars'>, store: KeyRecordStore, backend: Stores['backend']): Promise<void> {
  const { signer, config } = parts
  if (!signer.online || !signer.key) return
  const key = signer.key
  await checkSigningKey(store, backend, { key_id: key.keyId, public_key: key.publicKeyHex, valid_from: key.validFrom, valid_until: key.validUntil, recorded_at: new Date(parts.clock.now()).toISOString(), recorded_by: config.nodeId })
}

/** A PostgreSQL database brought to this build's schema, and this node's key checked against it. */
async function migrateAndCheckKey(parts: Omit<DepsParts, 'calendars'>, sql: Awaited<ReturnType<typeof openPostgres>>, url: string): Promise<void> {
  const applied = await applyPostgresMigrations(sql, MIGRATIONS)
  if (applied.length) parts.log.info('database migrated', { database: maskUrlPassword(url), applied })
  await checkKey(parts, postgresKeyRecordStore(sql), 'postgres')
}

/**
 * What a supervisor does once before its workers start (WORKERS > 1): migrates the configured
 * database and checks (or records) the signing key, then closes it, so that the workers find the
 * store ready and a start that cannot succeed fails once, with its exit code, before any worker.
 */
export async function prepareBackend(parts: Omit<DepsParts, 'calendars'>): Promise<void> {
  const { config, log } = parts
  if (config.databaseUrl) {
    const sql = await openPostgres(config.databaseUrl)
    try {
      await migrateAndCheckKey(parts, sql, config.databaseUrl)
    } finally {
      await sql.close().catch(() => {})
    }
    return
  }
  const db = openSqlite(config.databasePath, log, config.durability)
  try {
    await checkKey(parts, sqliteKeyRecordStore(db), 'sqlite')
  } finally {
    db.close()
  }
}

/**
 * The app's dependencies over the configured database. Throws DatabaseUnavailable (cannot reach
 * DATABASE_URL), MigrationError, SigningKeyMismatch, or an Error for a file SQLite cannot open.
 */
export async function openBackend(parts: DepsParts): Promise<OpenedBackend> {
  const { config, log } = parts
  // Before anything else is built: a node with another key must not start at all.
  if (config.databaseUrl) {
    const sql = await openPostgres(config.databaseUrl)
    try {
      await migrateAndCheckKey(parts, sql, config.databaseUrl)
      const stores = postgresStores(sql, config, log)
      const close = async () => {
        await stores.close()
        await sql.close()
      }
      return { deps: assembleDeps(parts, stores), close, synchronous: null }
    } catch (error) {
      await sql.close().catch(() => {})
      throw error
    }
  }
  const db = openSqlite(config.databasePath, log, config.durability)
  try {
    await checkKey(parts, sqliteKeyRecordStore(db), 'sqlite')
  } catch (error) {
    db.close()
    throw error
  }
  const synchronous = synchronousMode(db)
  const stopCheckpoints = startCheckpoints(db, config.databasePath, log)
  const close = async () => {
    await stopCheckpoints()
    db.close()
  }
  return { deps: assembleDeps(parts, sqliteStores(db, config), {}, SQLITE_OPTIONS), close, synchronous }
}
