// The account writes that join other domains' units of work, on PostgreSQL (account-writes.ts
// says what each does). Each runs on the unit of work's connection.
import type { SQL } from 'bun'
import { postgresStep } from '../store/postgres-transaction'
import { GRANT_CREDITS_SQL, INSERT_KEY_SQL, newKeyRow, type AccountWrites } from './account-writes'

export function postgresAccountWrites(_pool?: SQL): AccountWrites {
  return {
    issueKey: (options) =>
      postgresStep(async (sql) => {
        const { key, values } = newKeyRow(options)
        const [row] = (await sql.unsafe(INSERT_KEY_SQL, [...values])) as { id: number }[]
        return { accountId: row!.id, key }
      }),
    setStatus: (accountId, status) =>
      postgresStep(async (sql) => {
        await sql`UPDATE api_keys SET status = ${status} WHERE id = ${accountId}`
        if (status !== 'active') await sql`DELETE FROM oauth_tokens WHERE account_id = ${accountId}`
      }),
    setPlan: (accountId, plan) => postgresStep(async (sql) => void (await sql`UPDATE api_keys SET plan = ${plan} WHERE id = ${accountId}`)),
    grantCredits: (accountId, credits) => postgresStep(async (sql) => ((await sql.unsafe(GRANT_CREDITS_SQL, [accountId, credits])) as { credit_balance: number }[])[0]!.credit_balance),
  }
}
