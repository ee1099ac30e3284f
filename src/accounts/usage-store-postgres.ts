// Per-key request counts and the metering's account writes on PostgreSQL (usage-store.ts says
// what each does). Every write that decides (a credit, a sandbox call, a claim of quota) is one
// conditional statement: its row lock orders concurrent writers from any number of nodes, and
// each sees what the one before it left, so none of them can spend past the limit.
import type { SQL } from 'bun'
import { CLAIM_SQL, REFUND_SANDBOX_CALL_SQL, SPEND_SANDBOX_CALL_SQL, type MeterWrites, type UsageRow, type UsageStore } from './usage-store'

const ADD_REQUESTS_SQL = `INSERT INTO key_usage (account_id, day, requests) VALUES ($1, $2, greatest(0, $3::int))
ON CONFLICT (account_id, day) DO UPDATE SET requests = greatest(0, key_usage.requests + $3::int)`

export function postgresUsageStore(sql: SQL): UsageStore {
  return {
    async counts(accountId, today) {
      const prefix = today.slice(0, 8)
      const [row] = (await sql`
        SELECT coalesce(sum(requests) FILTER (WHERE day = ${today}), 0)::int AS day, coalesce(sum(requests), 0)::int AS month
        FROM key_usage WHERE account_id = ${accountId} AND day >= ${`${prefix}01`} AND day <= ${`${prefix}31`}`) as { day: number; month: number }[]
      return { day: row!.day, month: row!.month }
    },
    async add(rows) {
      // One row per key and day (ON CONFLICT may touch a row once per statement).
      const sums = new Map<string, UsageRow>()
      for (const row of rows) {
        const id = `${row.accountId}|${row.day}`
        const known = sums.get(id)
        if (known) known.requests += row.requests
        else sums.set(id, { ...row })
      }
      const added = [...sums.values()].filter((row) => row.requests > 0)
      const taken = [...sums.values()].filter((row) => row.requests < 0)
      const columns = (batch: UsageRow[]) => [sql.array(batch.map((row) => row.accountId), 'int4'), sql.array(batch.map((row) => row.day), 'text'), sql.array(batch.map((row) => row.requests), 'int4')]
      await sql.begin(async (tx) => {
        if (added.length) {
          const [ids, days, requests] = columns(added)
          await tx`INSERT INTO key_usage (account_id, day, requests)
            SELECT * FROM unnest(${ids}::int4[], ${days}::text[], ${requests}::int4[])
            ON CONFLICT (account_id, day) DO UPDATE SET requests = key_usage.requests + excluded.requests`
        }
        if (taken.length) {
          const [ids, days, requests] = columns(taken)
          await tx`UPDATE key_usage SET requests = greatest(0, key_usage.requests + b.requests)
            FROM unnest(${ids}::int4[], ${days}::text[], ${requests}::int4[]) AS b (account_id, day, requests)
            WHERE key_usage.account_id = b.account_id AND key_usage.day = b.day`
        }
      })
    },
    async onDay(today) {
      const rows = (await sql`SELECT account_id, requests FROM key_usage WHERE day = ${today}`) as { account_id: number; requests: number }[]
      return new Map(rows.map((row) => [row.account_id, row.requests]))
    },
  }
}

export function postgresMeterWrites(sql: SQL): MeterWrites {
  return {
    async debitCredit(accountId, reference, at) {
      // The debit and its ledger row in one statement.
      const [row] = (await sql`
        WITH debited AS (UPDATE api_keys SET credit_balance = credit_balance - 1 WHERE id = ${accountId} AND credit_balance > 0 RETURNING id, credit_balance),
        logged AS (INSERT INTO credit_ledger (account_id, delta, kind, reference, created_at) SELECT id, -1, 'debit', ${reference}, ${at} FROM debited)
        SELECT credit_balance FROM debited`) as { credit_balance: number }[]
      return row?.credit_balance ?? null
    },
    async spendSandboxCall(accountId, allowance) {
      return ((await sql.unsafe(SPEND_SANDBOX_CALL_SQL, [accountId, allowance])) as { calls_remaining: number }[])[0]?.calls_remaining ?? null
    },
    async claim(accountId, day, limit, want) {
      return ((await sql.unsafe(CLAIM_SQL, [accountId, day, limit, want])) as { requests: number }[])[0]?.requests ?? null
    },
    async addRequests(accountId, day, requests) {
      await sql.unsafe(ADD_REQUESTS_SQL, [accountId, day, requests])
    },
    async refundCredit(accountId, reference, at) {
      await sql`
        WITH credited AS (UPDATE api_keys SET credit_balance = credit_balance + 1 WHERE id = ${accountId} RETURNING id)
        INSERT INTO credit_ledger (account_id, delta, kind, reference, created_at) SELECT id, 1, 'grant', ${`refund:${reference}`}, ${at} FROM credited`
    },
    async refundSandboxCall(accountId) {
      await sql.unsafe(REFUND_SANDBOX_CALL_SQL, [accountId])
    },
    async creditBalance(accountId) {
      return ((await sql`SELECT credit_balance FROM api_keys WHERE id = ${accountId}`) as { credit_balance: number }[])[0]?.credit_balance ?? 0
    },
    async sandboxCallsLeft(accountId, allowance) {
      return ((await sql`SELECT coalesce(calls_remaining, ${allowance}::int) AS n FROM api_keys WHERE id = ${accountId}`) as { n: number }[])[0]?.n ?? 0
    },
  }
}
