// SQL for spent payment proofs. Each proof (a transaction hash, or an EIP-3009 authorization's
// (from, nonce) on its token) has one row under a UNIQUE reference, kept forever once settled or
// failed: a proof is usable once, for one purpose. A claim (a per-request payment held while its
// answer is made) moves to settled or failed, or is released (its row removed) when the payment
// was never taken, so that the same proof can pay again.
import type { Database } from 'bun:sqlite'
import type { Step } from '../store/transaction'
import { sqliteStep } from '../store/sqlite-transaction'
import { positional } from '../store/sql-text'

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
   * Claims a proof before the answer it pays for is made (state `claimed`); false when the
   * reference was used before, or when one of `conflicts` (the references of the signed
   * authorizations a transaction settled) is claimed or settled here. Run it in a unit of work:
   * two callers at once, on any nodes, and exactly one gets true.
   */
  claim(claim: ProofClaim, conflicts?: readonly string[]): Step<boolean>
  /**
   * Records a transaction proof as spent (state `settled` at once), for a purchase granted in the
   * same unit of work; false (grant nothing) on the same conditions as `claim`.
   */
  spend(claim: ProofClaim, conflicts?: readonly string[]): Step<boolean>
  settle(reference: string, settlementTx: string, at: string): Promise<void>
  fail(reference: string): Promise<void>
  /** Removes a claim whose payment was never taken (nothing answered), so the proof can pay again. */
  release(reference: string): Promise<void>
  stats(): Promise<PaymentStats>
}

// The statements both backends run ($n parameters; SQLite binds them as ?n).
export const INSERT_PROOF_SQL = `INSERT INTO payment_proofs (reference, kind, purpose, network, payer, amount_atomic, state, created_at, settled_at)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (reference) DO NOTHING RETURNING id`
export const SETTLE_SQL = `UPDATE payment_proofs SET state = 'settled', settlement_tx = $2, settled_at = $3 WHERE reference = $1 AND state = 'claimed'`
export const FAIL_SQL = `UPDATE payment_proofs SET state = 'failed' WHERE reference = $1 AND state = 'claimed'`
export const RELEASE_SQL = `DELETE FROM payment_proofs WHERE reference = $1 AND state = 'claimed'`
// A failed authorization was never served: its transfer, if it landed anyway, may still pay.
export const UNFAILED_SQL = `SELECT 1 AS used FROM payment_proofs WHERE reference = $1 AND state <> 'failed'`

/** The row values of INSERT_PROOF_SQL for a claim in `state`. */
export function proofValues(claim: ProofClaim, state: 'claimed' | 'settled') {
  return [claim.reference, claim.kind, claim.purpose, claim.network, claim.payer, claim.amount_atomic, state, claim.created_at, state === 'settled' ? claim.created_at : null] as const
}

export function sqlitePaymentStore(db: Database): PaymentStore {
  const insert = db.query(positional(INSERT_PROOF_SQL))
  const settle = db.query(positional(SETTLE_SQL))
  const fail = db.query(positional(FAIL_SQL))
  const release = db.query(positional(RELEASE_SQL))
  const unfailed = db.query(positional(UNFAILED_SQL))
  const stats = db.query(`SELECT count(*) AS settled, min(settled_at) AS first_settled_at, max(settled_at) AS last_settled_at FROM payment_proofs WHERE state = 'settled'`)
  const record = (claim: ProofClaim, state: 'claimed' | 'settled', conflicts: readonly string[]) =>
    sqliteStep(() => !conflicts.some((reference) => unfailed.get(reference) !== null) && insert.get(...proofValues(claim, state)) !== null)
  return {
    claim: (claim, conflicts = []) => record(claim, 'claimed', conflicts),
    spend: (claim, conflicts = []) => record(claim, 'settled', conflicts),
    async settle(reference, settlementTx, at) {
      settle.run(reference, settlementTx, at)
    },
    async fail(reference) {
      fail.run(reference)
    },
    async release(reference) {
      release.run(reference)
    },
    async stats() {
      return stats.get() as PaymentStats
    },
  }
}
