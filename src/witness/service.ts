// Storing a verified checkpoint: in one transaction, return the stored receipt for a known
// identity (spending nothing), else apply the storage ceiling, compute the fork flag, sign the
// receipt, insert the row and count it against the cap or quota. The answer leaves only after
// the commit.
//
// Every decision is one conditional statement (the insert's ON CONFLICT on the identity index,
// the count's `rows < limit` under the counter row's lock), so on PostgreSQL the body runs at
// READ COMMITTED: concurrent submissions wait for the day's counter row in turn. At SERIALIZABLE
// every new anonymous row read and wrote that one row, so concurrent ones failed each other with
// serialization errors until the retries ran out and the witness answered 503 under load
// (docs/witness.md, "Several nodes"). The count comes last, so its lock is held only until the
// commit; at the limit the body throws and the row it inserted is rolled back.
import type { Signer } from '../crypto/signer'
import type { VerifiedSubmission } from './checks'
import { poolKeyOf, type Identity, type NewWitnessRow, type WitnessStore } from './store'
import type { Step, Transactor } from '../store/transaction'
import { signWitnessReceipt } from './receipt'
import { ACCOUNT_DAILY_QUOTA } from '../catalogue/limits'

export interface WitnessLimits {
  anonymousDailyCap: number
  maxRows: number
  maxBytes: number
}

export type Submitter = { pool: 'anonymous' } | { pool: 'account'; accountId: number; plan: string }

export type SubmitOutcome =
  | { kind: 'stored'; receiptJson: string }
  | { kind: 'repeat'; receiptJson: string }
  | { kind: 'anonymous_cap' }
  | { kind: 'quota_exceeded'; quota: number }
  | { kind: 'storage_full' }

export async function submitCheckpoint(
  deps: { store: WitnessStore; transactor: Transactor; signer: Signer; witness: string; limits: WitnessLimits },
  submission: VerifiedSubmission,
  submitter: Submitter,
  now: number,
): Promise<SubmitOutcome> {
  const { checkpoint } = submission
  const identity: Identity = { kid: checkpoint.kid, session_id: checkpoint.session_id, count: checkpoint.count, last_entry_hash: checkpoint.last_entry_hash }
  const receivedAt = new Date(now).toISOString()
  const day = receivedAt.slice(0, 10)
  const { store } = deps
  const limit = submitter.pool === 'anonymous' ? deps.limits.anonymousDailyCap : (ACCOUNT_DAILY_QUOTA[submitter.plan] ?? 0)
  const overLimit: SubmitOutcome = submitter.pool === 'anonymous' ? { kind: 'anonymous_cap' } : { kind: 'quota_exceeded', quota: limit }
  try {
    return await deps.transactor.run(function* (): Step<SubmitOutcome> {
      const { receiptJson: stored, fork } = yield* store.atCount(identity)
      if (stored !== null) return { kind: 'repeat', receiptJson: stored }
      const { maxRows, maxBytes } = deps.limits
      if ((maxRows > 0 && (yield* store.totalRows()) >= maxRows) || (maxBytes > 0 && (yield* store.databaseBytes()) >= maxBytes)) return { kind: 'storage_full' }
      const row: NewWitnessRow = { ...identity, received_at: receivedAt, utc_day: day, pool: submitter.pool, account_id: submitter.pool === 'account' ? submitter.accountId : null, fork: fork ? 1 : 0, receipt_json: '' }
      // A cheap early answer past the limit (no signature, no insert); the count below decides.
      if ((yield* store.rowsOn(day, poolKeyOf(row))) >= limit) return overLimit
      row.receipt_json = JSON.stringify(signWitnessReceipt(deps.signer, deps.witness, submission, receivedAt, fork))
      if (!(yield* store.insert(row))) {
        // Stored by another submission since our read: the insert waited for it to commit, so
        // this statement sees it.
        const again = yield* store.atCount(identity)
        if (again.receiptJson === null) throw new Error('witness: the identity is stored but not visible to this transaction')
        return { kind: 'repeat', receiptJson: again.receiptJson }
      }
      if (!(yield* store.countNewRow(day, poolKeyOf(row), limit))) throw new LimitReached()
      return { kind: 'stored', receiptJson: row.receipt_json }
    }, { name: 'witness submit', isolation: 'read committed' })
  } catch (error) {
    if (error instanceof LimitReached) return overLimit
    throw error
  }
}

/** Thrown inside the unit of work at the cap or quota, so that the row it inserted is rolled back. */
class LimitReached extends Error {}
