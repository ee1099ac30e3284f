// Storing a verified checkpoint: in one transaction, return the stored receipt for a known
// identity (spending nothing), else apply the cap, quota and storage ceiling, compute the fork
// flag, sign the receipt and insert the row. The answer leaves only after the commit. On
// PostgreSQL two nodes storing the same identity at once serialize: one stores it (201), the
// other's transaction runs again and finds it (200, the same receipt).
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
  return deps.transactor.run(function* (): Step<SubmitOutcome> {
    const { receiptJson: stored, fork } = yield* store.atCount(identity)
    if (stored !== null) return { kind: 'repeat', receiptJson: stored }
    const { maxRows, maxBytes } = deps.limits
    if ((maxRows > 0 && (yield* store.totalRows()) >= maxRows) || (maxBytes > 0 && (yield* store.databaseBytes()) >= maxBytes)) return { kind: 'storage_full' }
    const row: NewWitnessRow = { ...identity, received_at: receivedAt, utc_day: day, pool: submitter.pool, account_id: submitter.pool === 'account' ? submitter.accountId : null, fork: fork ? 1 : 0, receipt_json: '' }
    if (submitter.pool === 'anonymous') {
      if ((yield* store.rowsOn(day, poolKeyOf(row))) >= deps.limits.anonymousDailyCap) return { kind: 'anonymous_cap' }
    } else {
      const quota = ACCOUNT_DAILY_QUOTA[submitter.plan] ?? 0
      if ((yield* store.rowsOn(day, poolKeyOf(row))) >= quota) return { kind: 'quota_exceeded', quota }
    }
    row.receipt_json = JSON.stringify(signWitnessReceipt(deps.signer, deps.witness, submission, receivedAt, fork))
    if (yield* store.insert(row)) return { kind: 'stored', receiptJson: row.receipt_json }
    // Stored by another node since our read (PostgreSQL reports most such races as a
    // serialization failure instead, and the whole body runs again).
    const again = yield* store.atCount(identity)
    if (again.receiptJson === null) throw new Error('witness: the identity is stored but not visible to this transaction')
    return { kind: 'repeat', receiptJson: again.receiptJson }
  }, { name: 'witness submit' })
}
