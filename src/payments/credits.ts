// The credits ledger: every grant (a purchase, a refund of a failed request) and debit of an
// account's credits, append-only. This store writes the purchases; metering writes its debits and
// refunds in its own statements (accounts/usage-store.ts). The packs are catalogue/credit-packs.ts.
import type { Database } from 'bun:sqlite'
import type { Step } from '../store/transaction'
import { sqliteStep } from '../store/sqlite-transaction'
import { positional } from '../store/sql-text'


export interface CreditLedger {
  /** Appends a grant or debit (a step: it joins the purchase, key or event that caused it). */
  record(accountId: number, delta: number, kind: 'grant' | 'debit', reference: string | null, at: string): Step<void>
  /** When credits were last bought for the account (refunds of failed requests are not purchases). */
  lastGrantAt(accountId: number): Promise<string | null>
}

export const RECORD_CREDIT_SQL = 'INSERT INTO credit_ledger (account_id, delta, kind, reference, created_at) VALUES ($1, $2, $3, $4, $5)'
// A credit given back after a failed request (reference `refund:…`) is not a purchase.
export const LAST_GRANT_SQL = `SELECT max(created_at) AS at FROM credit_ledger WHERE account_id = $1 AND kind = 'grant' AND (reference IS NULL OR reference NOT LIKE 'refund:%')`

export function sqliteCreditLedger(db: Database): CreditLedger {
  const insert = db.query(positional(RECORD_CREDIT_SQL))
  const lastGrant = db.query(positional(LAST_GRANT_SQL))
  return {
    record: (accountId, delta, kind, reference, at) => sqliteStep(() => void insert.run(accountId, delta, kind, reference, at)),
    async lastGrantAt(accountId) {
      return (lastGrant.get(accountId) as { at: string | null }).at
    },
  }
}
