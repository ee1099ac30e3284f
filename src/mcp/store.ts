// SQL for the tool endpoint: daily request counts, distinct clients (salted hashes only, never
// addresses) and the anonymous status allowance per client and UTC day.
import type { Database } from 'bun:sqlite'
import { randomBytes } from 'node:crypto'

export const MCP_SCHEMA_V1 = `
CREATE TABLE mcp_settings (name TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE mcp_daily_requests (day TEXT PRIMARY KEY, requests INTEGER NOT NULL CHECK (requests >= 0)) WITHOUT ROWID;
CREATE TABLE mcp_daily_clients (
  day TEXT NOT NULL,
  client_hash TEXT NOT NULL,
  anonymous_status_calls INTEGER NOT NULL DEFAULT 0 CHECK (anonymous_status_calls >= 0),
  PRIMARY KEY (day, client_hash)
) WITHOUT ROWID;
`

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
}

export function sqliteMcpStore(db: Database): McpStore {
  const readSalt = db.query(`SELECT value FROM mcp_settings WHERE name = 'client_salt'`)
  const writeSalt = db.query(`INSERT OR IGNORE INTO mcp_settings (name, value) VALUES ('client_salt', ?)`)
  const addRequests = db.query(`INSERT INTO mcp_daily_requests (day, requests) VALUES (?1, ?2) ON CONFLICT (day) DO UPDATE SET requests = requests + ?2`)
  const addClient = db.query(`INSERT OR IGNORE INTO mcp_daily_clients (day, client_hash) VALUES (?, ?)`)
  const readRequests = db.query(`SELECT requests FROM mcp_daily_requests WHERE day = ?`)
  const readClients = db.query(`SELECT count(*) AS n FROM mcp_daily_clients WHERE day = ?`)
  const readCalls = db.query(`SELECT anonymous_status_calls AS n FROM mcp_daily_clients WHERE day = ? AND client_hash = ?`)
  const raiseCalls = db.query(
    `INSERT INTO mcp_daily_clients (day, client_hash, anonymous_status_calls) VALUES (?1, ?2, ?3)
     ON CONFLICT (day, client_hash) DO UPDATE SET anonymous_status_calls = max(anonymous_status_calls, ?3)`,
  )
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
  }
}
