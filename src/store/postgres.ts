// Opening PostgreSQL (DATABASE_URL) with Bun's built-in client (`import { SQL } from 'bun'`: no
// dependency, a connection pool, tagged-template parameters, transactions, LISTEN/NOTIFY).
// Every message that names the database shows the URL with its password masked.
import { SQL } from 'bun'
import { maskUrlPassword } from '../config'

/** Connections per node: requests, the group-committed audit log and the jobs share them. */
export const POOL_SIZE = 10
export const CONNECT_TIMEOUT_S = 5

/** Could not reach or use the database named by DATABASE_URL (the message names it, masked). */
export class DatabaseUnavailable extends Error {
  constructor(url: string, detail: string) {
    super(`DATABASE_URL ${maskUrlPassword(url)}: ${detail}`)
    this.name = 'DatabaseUnavailable'
  }
}

/** The SQLSTATE of a server error (`23505` unique violation, `40001` serialization failure), or null. */
export function sqlState(error: unknown): string | null {
  const errno = (error as { errno?: unknown } | null)?.errno
  return typeof errno === 'string' && /^[0-9A-Z]{5}$/.test(errno) ? errno : null
}

/** Why a connection failed, without the URL (the caller names it masked). */
function reason(error: unknown): string {
  const { code, message } = error as { code?: string; message?: string }
  return code ? `${code}: ${message ?? ''}` : String(message ?? error)
}

/**
 * A pool on DATABASE_URL, checked with one query before it is handed out: an unreachable server,
 * a refused login or a missing database throws DatabaseUnavailable.
 */
export async function openPostgres(url: string, options: { max?: number } = {}): Promise<SQL> {
  const sql = new SQL({ url, max: options.max ?? POOL_SIZE, connectionTimeout: CONNECT_TIMEOUT_S, idleTimeout: 60 })
  try {
    await sql`SELECT 1`
  } catch (error) {
    await sql.close().catch(() => {})
    throw new DatabaseUnavailable(url, `cannot connect (${reason(error)})`)
  }
  return sql
}

export const WATCH_INTERVAL_MS = 1000
/** A probe still unanswered after this long counts as a failure (a database behind a network that drops packets never refuses). */
export const WATCH_STALL_MS = 5000

/**
 * Watches the database with one short query a second: 'degraded' from the first failure (or a
 * probe unanswered for WATCH_STALL_MS) until a query succeeds again (the pool reconnects by
 * itself when the server is back).
 */
export function watchPostgres(sql: SQL, log: { warn: (msg: string, fields?: Record<string, unknown>) => void; info: (msg: string, fields?: Record<string, unknown>) => void }) {
  let status: 'ok' | 'degraded' = 'ok'
  let since = 0
  let running = false
  let startedAt = 0
  const check = async () => {
    if (running) {
      if (status === 'ok' && Date.now() - startedAt >= WATCH_STALL_MS) {
        since = startedAt
        status = 'degraded'
        log.warn('database not answering: live answers are refused (503) until it does', { waited_ms: Date.now() - startedAt })
      }
      return
    }
    running = true
    startedAt = Date.now()
    try {
      await sql`SELECT 1`
      if (status === 'degraded') log.info('database reachable again', { unreachable_ms: Date.now() - since })
      status = 'ok'
    } catch (error) {
      if (status === 'ok') {
        since = Date.now()
        log.warn('database unreachable: live answers are refused (503) until it returns', { error: reason(error) })
      }
      status = 'degraded'
    } finally {
      running = false
    }
  }
  const timer = setInterval(() => void check(), WATCH_INTERVAL_MS)
  timer.unref()
  return { status: () => status, stop: () => clearInterval(timer) }
}
