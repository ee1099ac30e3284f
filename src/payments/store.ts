// SQL for spent payment proofs. Each proof (a transaction hash, or an EIP-3009 authorization's
// (from, nonce) on its token) has one row under a UNIQUE reference, kept forever once settled or
// failed: a proof is usable once, for one purpose. A claim (a per-request payment held while its
// answer is made) moves to settled or failed, or is released (its row removed) when the payment
// was never taken, so that the same proof can pay again.
import type { Database } from 'bun:sqlite'
import type { Step } from '../store/transaction'
import { runSync } from '../store/sqlite-transaction'

export const PAYMENTS_SCHEMA_V1 = `
CREATE TABLE payment_proofs (
  id INTEGER PRIMARY KEY,
  reference TEXT NOT NULL UNIQUE,
  kind TEXT NOT NULL CHECK (kind IN ('transaction', 'authorization')),
  purpose TEXT NOT NULL,
  network TEXT NOT NULL,
  payer TEXT,
  amount_atomic TEXT NOT NULL,
  settlement_tx TEXT,
  state TEXT NOT NULL CHECK (state IN ('claimed', 'settled', 'failed')),
  created_at TEXT NOT NULL,
  settled_at TEXT
);
CREATE INDEX payment_proofs_settled ON payment_proofs (settled_at) WHERE state = 'settled';
CREATE TRIGGER payment_proofs_no_delete BEFORE DELETE ON payment_proofs BEGIN SELECT RAISE(ABORT, 'payment_proofs is append-only'); END;
CREATE TRIGGER payment_proofs_settle_once BEFORE UPDATE ON payment_proofs WHEN OLD.state <> 'claimed' OR NEW.reference <> OLD.reference
BEGIN SELECT RAISE(ABORT, 'a settled or failed payment proof never changes'); END;
`

/** Migration 28: a claim may be released (deleted); settled and failed proofs still never are. */
export const PAYMENTS_SCHEMA_V28 = `
DROP TRIGGER payment_proofs_no_delete;
CREATE TRIGGER payment_proofs_no_delete BEFORE DELETE ON payment_proofs WHEN OLD.state <> 'claimed'
BEGIN SELECT RAISE(ABORT, 'payment_proofs is append-only'); END;
`

export interface ProofClaim {
  reference: string
  kind: 'transaction' | 'authorization'
  purpose: string
  network: string
  payer: string | null
  amount_atomic: string
  created_at: string
}

export interface PaymentStats {
  settled: number
  first_settled_at: string | null
  last_settled_at: string | null
}

export interface PaymentStore {
  /**
   * Claims a proof before the answer it pays for is made; false when the reference was used
   * before, or when one of `conflicts` (see spendTransaction) is claimed or settled here.
   */
  claim(claim: ProofClaim, conflicts?: readonly string[]): Promise<boolean>
  settle(reference: string, settlementTx: string, at: string): Promise<void>
  fail(reference: string): Promise<void>
  /** Removes a claim whose payment was never taken (nothing answered), so the proof can pay again. */
  release(reference: string): Promise<void>
  /**
   * Records a transaction proof as settled and runs the steps of `grant` in the same transaction; false (and
   * nothing granted) when the hash was used before, or when one of `conflicts` (the references
   * of the signed authorizations the transaction settled) is claimed or settled here. Two
   * concurrent callers: exactly one wins.
   */
  spendTransaction<T>(claim: ProofClaim, grant: () => Step<T>, conflicts?: readonly string[]): Promise<{ spent: true; granted: T } | { spent: false }>
  stats(): Promise<PaymentStats>
}

export function sqlitePaymentStore(db: Database): PaymentStore {
  const insert = db.query(
    `INSERT INTO payment_proofs (reference, kind, purpose, network, payer, amount_atomic, state, created_at, settled_at)
     VALUES ($reference, $kind, $purpose, $network, $payer, $amount_atomic, $state, $created_at, $settled_at)
     ON CONFLICT (reference) DO NOTHING RETURNING id`,
  )
  const settle = db.query(`UPDATE payment_proofs SET state = 'settled', settlement_tx = ?, settled_at = ? WHERE reference = ? AND state = 'claimed'`)
  const fail = db.query(`UPDATE payment_proofs SET state = 'failed' WHERE reference = ? AND state = 'claimed'`)
  const release = db.query(`DELETE FROM payment_proofs WHERE reference = ? AND state = 'claimed'`)
  // A failed authorization was never served: its transfer, if it landed anyway, may still pay.
  const unfailed = db.query(`SELECT 1 AS used FROM payment_proofs WHERE reference = ? AND state <> 'failed'`)
  const stats = db.query(`SELECT count(*) AS settled, min(settled_at) AS first_settled_at, max(settled_at) AS last_settled_at FROM payment_proofs WHERE state = 'settled'`)
  const row = (claim: ProofClaim, state: 'claimed' | 'settled') => ({ ...claim, state, settled_at: state === 'settled' ? claim.created_at : null })
  const conflicting = (conflicts: readonly string[]) => conflicts.some((reference) => unfailed.get(reference) !== null)
  return {
    async claim(claim, conflicts = []) {
      if (!conflicts.length) return insert.get(row(claim, 'claimed')) !== null
      return db.transaction(() => !conflicting(conflicts) && insert.get(row(claim, 'claimed')) !== null).immediate()
    },
    async settle(reference, settlementTx, at) {
      settle.run(settlementTx, at, reference)
    },
    async fail(reference) {
      fail.run(reference)
    },
    async release(reference) {
      release.run(reference)
    },
    async spendTransaction(claim, grant, conflicts = []) {
      return db.transaction(() => {
        if (conflicting(conflicts)) return { spent: false as const }
        if (insert.get(row(claim, 'settled')) === null) return { spent: false as const }
        return { spent: true as const, granted: runSync(grant()) }
      }).immediate()
    },
    async stats() {
      return stats.get() as PaymentStats
    },
  }
}
