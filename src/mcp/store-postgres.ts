// The tool endpoint's counts on PostgreSQL (store.ts says what they are). Usage figures are
// added (write-behind from every node: sums are exact whatever the order); the anonymous
// allowance is taken per call with one conditional statement, exact across nodes.
import type { SQL } from 'bun'
import { randomBytes } from 'node:crypto'
import { MCP_SQL, type McpStore } from './store'

export function postgresMcpStore(sql: SQL): McpStore {
  return {
    async salt() {
      await sql`INSERT INTO mcp_settings (name, value) VALUES ('client_salt', ${randomBytes(32).toString('hex')}) ON CONFLICT (name) DO NOTHING`
      const [row] = (await sql`SELECT value FROM mcp_settings WHERE name = 'client_salt'`) as { value: string }[]
      return row!.value
    },
    async addUsage(day, requests, clients) {
      await sql.begin(async (tx) => {
        if (requests) await tx.unsafe(MCP_SQL.addRequests, [day, requests])
        if (clients.length) await tx`INSERT INTO mcp_daily_clients (day, client_hash) SELECT ${day}, unnest(${sql.array([...clients], 'text')}::text[]) ON CONFLICT (day, client_hash) DO NOTHING`
      })
    },
    async usage(day) {
      const [requests] = (await sql.unsafe(MCP_SQL.readRequests, [day])) as { requests: number }[]
      const [clients] = (await sql`SELECT count(*)::int AS n FROM mcp_daily_clients WHERE day = ${day}`) as { n: number }[]
      return { requests: requests?.requests ?? 0, clients: clients!.n }
    },
    async anonymousCalls(day, clientHash) {
      const [row] = (await sql.unsafe(MCP_SQL.readCalls, [day, clientHash])) as { n: number }[]
      return row?.n ?? 0
    },
    async saveAnonymousCalls(day, counts) {
      if (!counts.size) return
      await sql`INSERT INTO mcp_daily_clients (day, client_hash, anonymous_status_calls)
        SELECT ${day}, client, n FROM unnest(${sql.array([...counts.keys()], 'text')}::text[], ${sql.array([...counts.values()], 'int4')}::int[]) AS given (client, n)
        ON CONFLICT (day, client_hash) DO UPDATE SET anonymous_status_calls = GREATEST(mcp_daily_clients.anonymous_status_calls, excluded.anonymous_status_calls)`
    },
    async takeAnonymousCall(day, clientHash, limit) {
      return limit > 0 && (await sql.unsafe(MCP_SQL.takeCall, [day, clientHash, limit])).length > 0
    },
    async giveBackAnonymousCall(day, clientHash) {
      await sql.unsafe(MCP_SQL.giveBack, [day, clientHash])
    },
  }
}
