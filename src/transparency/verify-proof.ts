// A receipt's tlog-proof checked by the service for a client (/v5/verify, the tool endpoint's
// verify_receipt): with the verifier package, under this log's published policy, the entry being
// the receipt as given (its JSON text, or the object serialised again in its own member order).
import { verifyReceiptProof } from '@openbell/verify'

/** A tlog-proof with ML-DSA-44 lines of the log, the own witness and a few others stays well below this. */
export const MAX_PROOF_BYTES = 48 * 1024

export interface ProofReport {
  valid: boolean
  reason: string | null
  message: string
  index: number | null
  tree_size: number | null
  origin: string | null
  log_keys: string[]
  cosigned_by: { witness: string; key: string; cosigned_at: string | null }[]
}

export function proofReport(policy: string | null, receipt: unknown, proofText: string): ProofReport {
  if (policy === null) return { valid: false, reason: 'LOG_KEYS_OFFLINE', message: 'no signing key is loaded: the service has no policy to check the proof under', index: null, tree_size: null, origin: null, log_keys: [], cosigned_by: [] }
  const verdict = verifyReceiptProof(receipt, proofText, policy)
  const { proof } = verdict
  return {
    valid: verdict.valid,
    reason: verdict.reason ?? null,
    message: verdict.message,
    index: proof.index ?? null,
    tree_size: proof.treeSize ?? null,
    origin: proof.origin ?? null,
    log_keys: proof.logKeys ?? [],
    cosigned_by: (proof.cosignatures ?? []).map((entry) => ({ witness: entry.witness, key: entry.key, cosigned_at: entry.timestamp ? new Date(entry.timestamp * 1000).toISOString() : null })),
  }
}
