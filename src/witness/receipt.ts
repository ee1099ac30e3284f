// The witness receipt (witness.md 2.3): all strings, signed like every other receipt.
import type { Signer } from '../crypto/signer'
import { sha256Hex } from '../crypto/hash'
import type { VerifiedSubmission } from './checks'

export const WITNESS_RECEIPT_TYPE = 'witness.checkpoint/1'

export function signWitnessReceipt(signer: Signer, witness: string, submission: VerifiedSubmission, receivedAt: string, fork: boolean) {
  const { checkpoint } = submission
  return signer.signFields({
    type: WITNESS_RECEIPT_TYPE,
    witness,
    received_at: receivedAt,
    kid: checkpoint.kid,
    session_id: checkpoint.session_id,
    count: String(checkpoint.count),
    last_entry_hash: checkpoint.last_entry_hash,
    checkpoint_ts: checkpoint.ts,
    checkpoint_sha256: `sha256:${sha256Hex(submission.checkpointJcs)}`,
    fork: fork ? 'true' : 'false',
    public_key_id: signer.keyId,
  })
}
