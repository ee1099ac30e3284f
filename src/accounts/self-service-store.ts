// The statements behind the self-service keys (self-service.ts): a key per agent_id, the stored
// per-address allowances (limits.ts), the key-issued events (events.ts). Steps join the unit of
// work that issues a key; the PostgreSQL store is in self-service-store-postgres.ts.
import type { Database } from 'bun:sqlite'
import type { Step } from '../store/transaction'
import { sqliteStep } from '../store/sqlite-transaction'
import type { KeyClass, Plan } from '../catalogue/plans'
import { TAKE_ALLOWANCE_SQL, takeAllowanceValues, type Allowance, type AllowanceResult } from './limits'
import type { KeyChannel, KeyEventReads } from './events'

export interface SelfServiceKeyRow {
  keyHash: string
  keyPrefix: string
  keyClass: KeyClass
  plan: Plan
  createdAt: string
  expiresAt: string | null
  callsRemaining: number | null
  agentId: string | null
  email: string | null
}

export interface SelfServiceStore extends KeyEventReads {
  /** The key that holds an agent_id, if any. */
  keyOfAgent(agentId: string): Step<{ key_prefix: string; plan: Plan } | null>
  /** Inserts a key; its id, or null when its agent_id belongs to another key already. */
  insertKey(row: SelfServiceKeyRow): Step<number | null>
  /** Takes one unit of an allowance (one statement), or says when its window ends. */
  takeAllowance(allowance: Allowance, now: number): Step<AllowanceResult>
  recordEvent(accountId: number, channel: KeyChannel, at: string, useCase: string | null): Step<void>
  /** Removes allowance windows that started before `before` (every self-service limit lasts at most 7 days). */
  pruneAllowances(before: number): Promise<number>
}

export const INSERT_SELF_SERVICE_KEY_SQL = `INSERT INTO api_keys (key_hash, key_prefix, class, plan, created_at, expires_at, calls_remaining, agent_id, email)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
ON CONFLICT (agent_id) WHERE agent_id IS NOT NULL DO NOTHING
RETURNING id`

export const selfServiceKeyValues = (row: SelfServiceKeyRow) => [row.keyHash, row.keyPrefix, row.keyClass, row.plan, row.createdAt, row.expiresAt, row.callsRemaining, row.agentId, row.email]

export const INSERT_EVENT_SQL = 'INSERT INTO key_events (account_id, channel, day, created_at, use_case) VALUES ($1, $2, $3, $4, $5)'
export const eventValues = (accountId: number, channel: KeyChannel, at: string, useCase: string | null) => [accountId, channel, at.slice(0, 10), at, useCase]
export const EVENTS_OF_DAY_SQL = 'SELECT e.channel, e.account_id, k.key_hash FROM key_events e JOIN api_keys k ON k.id = e.account_id WHERE e.day = $1 ORDER BY e.id'

const positional = (text: string) => text.replace(/\$(\d)/g, '?$1')

export function sqliteSelfServiceStore(db: Database): SelfServiceStore {
  const byAgent = db.query('SELECT key_prefix, plan FROM api_keys WHERE agent_id = ?')
  const insertKey = db.query(positional(INSERT_SELF_SERVICE_KEY_SQL))
  const take = db.query(positional(TAKE_ALLOWANCE_SQL))
  const windowOf = db.query('SELECT window_start FROM address_limits WHERE scope = ? AND subject = ?')
  const insertEvent = db.query(positional(INSERT_EVENT_SQL))
  const prune = db.query('DELETE FROM address_limits WHERE window_start < ?')
  const ofDay = db.query(positional(EVENTS_OF_DAY_SQL))
  const metered = db.query('SELECT EXISTS (SELECT 1 FROM key_usage WHERE account_id = ? AND requests > 0) AS used')
  return {
    keyOfAgent: (agentId) => sqliteStep(() => (byAgent.get(agentId) as { key_prefix: string; plan: Plan } | null) ?? null),
    insertKey: (row) => sqliteStep(() => (insertKey.get(...selfServiceKeyValues(row)) as { id: number } | null)?.id ?? null),
    takeAllowance: (allowance, now) =>
      sqliteStep((): AllowanceResult => {
        const row = take.get(...takeAllowanceValues(allowance, now)) as { count: number } | null
        if (row) return { ok: true, count: row.count }
        const current = windowOf.get(allowance.scope, allowance.subject) as { window_start: number }
        return { ok: false, resetAt: current.window_start + allowance.windowMs }
      }),
    recordEvent: (accountId, channel, at, useCase) => sqliteStep(() => void insertEvent.run(...eventValues(accountId, channel, at, useCase))),
    async pruneAllowances(before) {
      return prune.run(before).changes
    },
    async eventsOfDay(day) {
      return ofDay.all(day) as { channel: KeyChannel; account_id: number; key_hash: string }[]
    },
    async hasMeteredUse(accountId) {
      return (metered.get(accountId) as { used: number }).used === 1
    },
  }
}
