// SQL for the tool endpoint: daily request counts, distinct clients (salted hashes only, never
// addresses) and the anonymous status allowance per client and UTC day.
import type { Database } from 'bun:sqlite'
import { randomBytes } from 'node:crypto'
import { positional } from '../store/sql-text'

export interface McpStore {
  /** The installation's random salt for client hashes, made on first use. */
  salt(): Promise<string>
  /** Adds counted requests and newly seen clients for a day (write-behind from memory). */
  addUsage(day: string, requests: number, clients: readonly string[]): Promise<void>
  usage(day: string): Promise<{ requests: number; clients: number }>
  /** Anonymous status calls a client has made on a day (0 when none). */
  anonymousCalls(day: string, clientHash: string): Promise<number>
  /** Raises stored anonymous call counts to the given figures (write-behind; never lowers one). */
  saveAnonymousCalls(day: string, counts: ReadonlyMap<string, number>): Promise<void>
  /**
   * Counts one anonymous call when the client has made fewer than `limit` today, in one
   * conditional statement (exact across nodes: the row is locked while it is counted); false at
   * the limit.
   */
  takeAnonymousCall(day: string, clientHash: string, limit: number): Promise<boolean>
  /** Gives back one call counted today (never below zero). */
  giveBackAnonymousCall(day: string, clientHash: string): Promise<void>
}

// The statements both backends run ($n parameters; SQLite binds them as ?n).
export const MCP_SQL = {
  addRequests: `INSERT INTO mcp_daily_requests (day, requests) VALUES ($1, $2) ON CONFLICT (day) DO UPDATE SET requests = mcp_daily_requests.requests + excluded.requests`,
  addClient: `INSERT INTO mcp_daily_clients (day, client_hash) VALUES ($1, $2) ON CONFLICT (day, client_hash) DO NOTHING`,
  readRequests: `SELECT requests FROM mcp_daily_requests WHERE day = $1`,
  readCalls: `SELECT anonymous_status_calls AS n FROM mcp_daily_clients WHERE day = $1 AND client_hash = $2`,
  takeCall: `INSERT INTO mcp_daily_clients (day, client_hash, anonymous_status_calls) VALUES ($1, $2, 1)
ON CONFLICT (day, client_hash) DO UPDATE SET anonymous_status_calls = mcp_daily_clients.anonymous_status_calls + 1
WHERE mcp_daily_clients.anonymous_status_calls < $3 RETURNING anonymous_status_calls`,
  giveBack: `UPDATE mcp_daily_clients SET anonymous_status_calls = anonymous_status_calls - 1 WHERE day = $1 AND client_hash = $2 AND anonymous_status_calls > 0`,
} as const

export function sqliteMcpStore(db: Database): McpStore {
  const readSalt = db.query(`SELECT value FROM mcp_settings WHERE name = 'client_salt'`)
  const writeSalt = db.query(`INSERT OR IGNORE INTO mcp_settings (name, value) VALUES ('client_salt', ?)`)
  const addRequests = db.query(positional(MCP_SQL.addRequests))
  const addClient = db.query(positional(MCP_SQL.addClient))
  const readRequests = db.query(positional(MCP_SQL.readRequests))
  const readClients = db.query(`SELECT count(*) AS n FROM mcp_daily_clients WHERE day = ?`)
  const readCalls = db.query(positional(MCP_SQL.readCalls))
  const raiseCalls = db.query(
    `INSERT INTO mcp_daily_clients (day, client_hash, anonymous_status_calls) VALUES (?1, ?2, ?3)
     ON CONFLICT (day, client_hash) DO UPDATE SET anonymous_status_calls = max(anonymous_status_calls, ?3)`,
  )
  const takeCall = db.query(positional(MCP_SQL.takeCall))
  const giveBack = db.query(positional(MCP_SQL.giveBack))
  const raiseAll = db.transaction((day: string, counts: ReadonlyMap<string, number>) => {
    for (const [client, n] of counts) raiseCalls.run(day, client, n)
  })
  const addAll = db.transaction((day: string, requests: number, clients: readonly string[]) => {
    if (requests) addRequests.run(day, requests)
    for (const client of clients) addClient.run(day, client)
  })
  return {
    async salt() {
      writeSalt.run(randomBytes(32).toString('hex'))
      return (readSalt.get() as { value: string }).value
    },
    async addUsage(day, requests, clients) {
      addAll(day, requests, clients)
    },
    async usage(day) {
      const requests = (readRequests.get(day) as { requests: number } | null)?.requests ?? 0
      const clients = (readClients.get(day) as { n: number }).n
      return { requests, clients }
    },
    async anonymousCalls(day, clientHash) {
      return (readCalls.get(day, clientHash) as { n: number } | null)?.n ?? 0
    },
    async saveAnonymousCalls(day, counts) {
      raiseAll(day, counts)
    },
    async takeAnonymousCall(day, clientHash, limit) {
      return limit > 0 && takeCall.get(day, clientHash, limit) !== null
    },
    async giveBackAnonymousCall(day, clientHash) {
      giveBack.run(day, clientHash)
    },
  }
}
