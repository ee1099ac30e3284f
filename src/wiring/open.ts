// Opening the configured backend for the service: the SQLite file (default) or the PostgreSQL
// database of DATABASE_URL; migrating it; checking the signing key against the one the database
// records; and building the app's dependencies over it. main.ts turns the errors into exit codes.
import type { Database } from 'bun:sqlite'
import type { AppDeps, DepsParts } from '../deps'
import { maskUrlPassword } from '../config'
import { openDatabase, synchronousMode, type Durability } from '../store/database'
import { startCheckpoints } from '../store/checkpoints'
import { applyMigrations } from '../store/migrate'
import { MIGRATIONS } from '../store/migrations'
import { openPostgres } from '../store/postgres'
import { applyPostgresMigrations } from '../store/postgres-migrate'
import { checkSigningKey } from '../store/key-record'
import { assembleDeps, type AssembleOptions } from './assemble'
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

/**
 * The app's dependencies over the configured database. Throws DatabaseUnavailable (cannot reach
 * DATABASE_URL), MigrationError, SigningKeyMismatch, or an Error for a file SQLite cannot open.
 */
export async function openBackend(parts: DepsParts): Promise<OpenedBackend> {
  const { config, log, signer } = parts
  let stores: Stores
  let options: AssembleOptions = {}
  let close: () => Promise<void>
  let synchronous: string | null = null
  if (config.databaseUrl) {
    const sql = await openPostgres(config.databaseUrl)
    close = () => sql.close()
    try {
      const applied = await applyPostgresMigrations(sql, MIGRATIONS)
      if (applied.length) log.info('database migrated', { database: maskUrlPassword(config.databaseUrl), applied })
      stores = postgresStores(sql, config, log)
      close = async () => {
        await stores.close()
        await sql.close()
      }
    } catch (error) {
      await close().catch(() => {})
      throw error
    }
  } else {
    const db = openSqlite(config.databasePath, log, config.durability)
    synchronous = synchronousMode(db)
    const stopCheckpoints = startCheckpoints(db, config.databasePath, log)
    close = async () => {
      await stopCheckpoints()
      db.close()
    }
    stores = sqliteStores(db, config)
    options = SQLITE_OPTIONS
  }
  if (signer.online && signer.key) {
    try {
      await checkSigningKey(stores.keyRecord, stores.backend, { key_id: signer.key.keyId, public_key: signer.key.publicKeyHex, recorded_at: new Date(parts.clock.now()).toISOString(), recorded_by: config.nodeId })
    } catch (error) {
      await close().catch(() => {})
      throw error
    }
  }
  return { deps: assembleDeps(parts, stores, {}, options), close, synchronous }
}
