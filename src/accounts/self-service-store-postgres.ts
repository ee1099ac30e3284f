// The self-service statements on PostgreSQL (self-service-store.ts says what each does). The
// allowance take is one conditional upsert: its row lock makes concurrent takes from any number
// of nodes wait in turn, and each sees the count the one before it left.
import type { SQL } from 'bun'
import { postgresStep } from '../store/postgres-transaction'
import type { Plan } from '../catalogue/plans'
import { TAKE_ALLOWANCE_SQL, takeAllowanceValues, type AllowanceResult } from './limits'
import type { KeyChannel } from './events'
import { EVENTS_OF_DAY_SQL, eventValues, INSERT_EVENT_SQL, INSERT_SELF_SERVICE_KEY_SQL, selfServiceKeyValues, type SelfServiceStore } from './self-service-store'

export function postgresSelfServiceStore(sql: SQL): SelfServiceStore {
  return {
    keyOfAgent: (agentId) =>
      postgresStep(async (tx) => {
        const [row] = (await tx`SELECT key_prefix, plan FROM api_keys WHERE agent_id = ${agentId}`) as { key_prefix: string; plan: Plan }[]
        return row ? { key_prefix: row.key_prefix, plan: row.plan } : null
      }),
    insertKey: (row) => postgresStep(async (tx) => ((await tx.unsafe(INSERT_SELF_SERVICE_KEY_SQL, selfServiceKeyValues(row))) as { id: number }[])[0]?.id ?? null),
    takeAllowance: (allowance, now) =>
      postgresStep(async (tx): Promise<AllowanceResult> => {
        const [row] = (await tx.unsafe(TAKE_ALLOWANCE_SQL, takeAllowanceValues(allowance, now))) as { count: number }[]
        if (row) return { ok: true, count: row.count }
        const [current] = (await tx`SELECT window_start::float8 AS window_start FROM address_limits WHERE scope = ${allowance.scope} AND subject = ${allowance.subject}`) as { window_start: number }[]
        return { ok: false, resetAt: current!.window_start + allowance.windowMs }
      }),
    recordEvent: (accountId, channel, at, useCase) => postgresStep(async (tx) => void (await tx.unsafe(INSERT_EVENT_SQL, eventValues(accountId, channel, at, useCase)))),
    async pruneAllowances(before) {
      return (await sql`DELETE FROM address_limits WHERE window_start < ${before}`).count
    },
    async eventsOfDay(day) {
      return [...((await sql.unsafe(EVENTS_OF_DAY_SQL, [day])) as { channel: KeyChannel; account_id: number; key_hash: string }[])]
    },
    async hasMeteredUse(accountId) {
      const [row] = (await sql`SELECT EXISTS (SELECT 1 FROM key_usage WHERE account_id = ${accountId} AND requests > 0) AS used`) as { used: boolean }[]
      return row!.used
    },
  }
}
