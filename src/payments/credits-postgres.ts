// The credits ledger on PostgreSQL (credits.ts says what it holds).
import type { SQL } from 'bun'
import { postgresStep } from '../store/postgres-transaction'
import { LAST_GRANT_SQL, RECORD_CREDIT_SQL, type CreditLedger } from './credits'

export function postgresCreditLedger(sql: SQL): CreditLedger {
  return {
    record: (accountId, delta, kind, reference, at) => postgresStep(async (tx) => void (await tx.unsafe(RECORD_CREDIT_SQL, [accountId, delta, kind, reference, at]))),
    async lastGrantAt(accountId) {
      const [row] = (await sql.unsafe(LAST_GRANT_SQL, [accountId])) as { at: string | null }[]
      return row?.at ?? null
    },
  }
}
