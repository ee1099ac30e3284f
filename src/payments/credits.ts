// Credit packs (spec 8): 0.80 USDC → 1,000 credits, 0.09 → 100, 0.001 → 1. What was actually paid
// on chain buys packs greedily, largest first: 0.89 USDC buys 1,100. A remainder below 0.001
// USDC buys nothing (documented in docs/payments.md).
import type { Database } from 'bun:sqlite'
import type { Step } from '../store/transaction'
import { sqliteStep } from '../store/sqlite-transaction'
import { positional } from '../store/sql-text'

export const CREDIT_PACKS: readonly { atomic: bigint; credits: number }[] = [
  { atomic: 800_000n, credits: 1000 },
  { atomic: 90_000n, credits: 100 },
  { atomic: 1_000n, credits: 1 },
]

export function creditsFor(paidAtomic: bigint): number {
  let rest = paidAtomic
  let credits = 0
  for (const pack of CREDIT_PACKS) {
    const count = rest / pack.atomic
    credits += Number(count) * pack.credits
    rest -= count * pack.atomic
  }
  return credits
}

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
