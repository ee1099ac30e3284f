// Storing a verified checkpoint: in one IMMEDIATE transaction, return the stored receipt for a
// known identity (spending nothing), else apply the cap, quota and storage ceiling, compute the
// fork flag, sign the receipt and insert the row. The answer leaves only after the commit.
import type { Signer } from '../crypto/signer'
import type { VerifiedSubmission } from './checks'
import type { Identity, WitnessStore } from './store'
import { signWitnessReceipt } from './receipt'

export interface WitnessLimits {
  anonymousDailyCap: number
  maxRows: number
  maxBytes: number
}

export const ACCOUNT_DAILY_QUOTA: Record<string, number> = { evidence_starter: 1000, evidence: 3000 }

export type Submitter = { pool: 'anonymous' } | { pool: 'account'; accountId: number; plan: string }

export type SubmitOutcome =
  | { kind: 'stored'; receiptJson: string }
  | { kind: 'repeat'; receiptJson: string }
  | { kind: 'anonymous_cap' }
  | { kind: 'quota_exceeded'; quota: number }
  | { kind: 'storage_full' }

export async function submitCheckpoint(
  deps: { store: WitnessStore; signer: Signer; witness: string; limits: WitnessLimits },
  submission: VerifiedSubmission,
  submitter: Submitter,
  now: number,
): Promise<SubmitOutcome> {
  const { checkpoint } = submission
  const identity: Identity = { kid: checkpoint.kid, session_id: checkpoint.session_id, count: checkpoint.count, last_entry_hash: checkpoint.last_entry_hash }
  const receivedAt = new Date(now).toISOString()
  const day = receivedAt.slice(0, 10)
  return deps.store.submit((tx): SubmitOutcome => {
    const { receiptJson: stored, fork } = tx.atCount(identity)
    if (stored !== null) return { kind: 'repeat', receiptJson: stored }
    const { maxRows, maxBytes } = deps.limits
    if ((maxRows > 0 && tx.totalRows() >= maxRows) || (maxBytes > 0 && tx.databaseBytes() >= maxBytes)) return { kind: 'storage_full' }
    if (submitter.pool === 'anonymous') {
      if (tx.anonymousRowsOn(day) >= deps.limits.anonymousDailyCap) return { kind: 'anonymous_cap' }
    } else {
      const quota = ACCOUNT_DAILY_QUOTA[submitter.plan] ?? 0
      if (tx.accountRowsOn(submitter.accountId, day) >= quota) return { kind: 'quota_exceeded', quota }
    }
    const receiptJson = JSON.stringify(signWitnessReceipt(deps.signer, deps.witness, submission, receivedAt, fork))
    tx.insert({ ...identity, received_at: receivedAt, utc_day: day, pool: submitter.pool, account_id: submitter.pool === 'account' ? submitter.accountId : null, fork: fork ? 1 : 0, receipt_json: receiptJson })
    return { kind: 'stored', receiptJson }
  })
}
