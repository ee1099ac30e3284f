// Credit packs (spec 8): 0.80 USDC → 1,000 credits, 0.09 → 100, 0.001 → 1. What was actually paid
// on chain buys packs greedily, largest first: 0.89 USDC buys 1,100. A remainder below 0.001
// USDC buys nothing (documented in docs/payments.md).
import type { Database } from 'bun:sqlite'

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

export const CREDIT_LEDGER_SCHEMA_V1 = `
CREATE TABLE credit_ledger (
  id INTEGER PRIMARY KEY,
  account_id INTEGER NOT NULL REFERENCES api_keys (id),
  delta INTEGER NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('grant', 'debit')),
  reference TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX credit_ledger_account ON credit_ledger (account_id, id);
CREATE TRIGGER credit_ledger_no_update BEFORE UPDATE ON credit_ledger BEGIN SELECT RAISE(ABORT, 'credit_ledger is append-only'); END;
CREATE TRIGGER credit_ledger_no_delete BEFORE DELETE ON credit_ledger BEGIN SELECT RAISE(ABORT, 'credit_ledger is append-only'); END;
`

export function creditLedger(db: Database) {
  const insert = db.query('INSERT INTO credit_ledger (account_id, delta, kind, reference, created_at) VALUES (?, ?, ?, ?, ?)')
  // A credit given back after a failed request (reference `refund:…`) is not a purchase.
  const lastGrant = db.query(`SELECT max(created_at) AS at FROM credit_ledger WHERE account_id = ? AND kind = 'grant' AND (reference IS NULL OR reference NOT LIKE 'refund:%')`)
  return {
    /** Synchronous: joins the caller's transaction. */
    record(accountId: number, delta: number, kind: 'grant' | 'debit', reference: string | null, at: string): void {
      insert.run(accountId, delta, kind, reference, at)
    },
    lastGrantAt(accountId: number): string | null {
      return (lastGrant.get(accountId) as { at: string | null }).at
    },
  }
}

export type CreditLedger = ReturnType<typeof creditLedger>
