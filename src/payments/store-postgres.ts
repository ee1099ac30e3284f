// Spent payment proofs on PostgreSQL (src/payments/store.ts says what they are). The UNIQUE
// reference decides between nodes: two claims of one proof at once, on any nodes, insert one row;
// the other's INSERT … ON CONFLICT DO NOTHING returns nothing (inside a SERIALIZABLE unit of
// work it may instead fail to serialize and run again, when it then finds the row).
import type { SQL } from 'bun'
import { postgresStep } from '../store/postgres-transaction'
import { FAIL_SQL, INSERT_PROOF_SQL, proofValues, RELEASE_SQL, SETTLE_SQL, UNFAILED_SQL, type PaymentStats, type PaymentStore, type ProofClaim } from './store'

export function postgresPaymentStore(sql: SQL): PaymentStore {
  const record = (claim: ProofClaim, state: 'claimed' | 'settled', conflicts: readonly string[]) =>
    postgresStep(async (tx) => {
      for (const reference of conflicts) if ((await tx.unsafe(UNFAILED_SQL, [reference])).length) return false
      return (await tx.unsafe(INSERT_PROOF_SQL, [...proofValues(claim, state)])).length > 0
    })
  return {
    claim: (claim, conflicts = []) => record(claim, 'claimed', conflicts),
    spend: (claim, conflicts = []) => record(claim, 'settled', conflicts),
    async settle(reference, settlementTx, at) {
      await sql.unsafe(SETTLE_SQL, [reference, settlementTx, at])
    },
    async fail(reference) {
      await sql.unsafe(FAIL_SQL, [reference])
    },
    async release(reference) {
      await sql.unsafe(RELEASE_SQL, [reference])
    },
    async stats() {
      const [row] = (await sql`SELECT count(*)::int AS settled, min(settled_at) AS first_settled_at, max(settled_at) AS last_settled_at FROM payment_proofs WHERE state = 'settled'`) as PaymentStats[]
      return row!
    },
  }
}
