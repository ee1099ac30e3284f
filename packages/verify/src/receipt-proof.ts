// A receipt and its tlog-proof together: the log entry is the receipt's exact logged bytes
// (JSON.stringify of the receipt as the service answered it), so the proof is bound to the
// receipt by those bytes; the proof's `extra` line (unauthenticated) must name the same receipt.
import { fromUtf8, utf8 } from './bytes.js'
import { verifySigned, type KeysDocument, type SignedVerdict, type VerifyOptions } from './signed.js'
import { verifyTlogProof, type ProofVerdict } from './tlog-proof.js'

export interface ReceiptProofVerdict {
  valid: boolean
  reason?: string
  message: string
  proof: ProofVerdict
  /** The receipt's own signature, when a keys document was given. */
  signature?: SignedVerdict
}

/** The log entry of a receipt: its JSON text as answered (a parsed object is serialised again in its own member order). */
export function receiptEntry(receipt: unknown): Uint8Array | null {
  if (typeof receipt === 'string') {
    try {
      return utf8(JSON.stringify(JSON.parse(receipt)))
    } catch {
      return null
    }
  }
  return receipt && typeof receipt === 'object' && !Array.isArray(receipt) ? utf8(JSON.stringify(receipt)) : null
}

/**
 * Checks that `receipt` was logged and witnessed: the tlog-proof under the policy, with the
 * receipt's bytes as the entry; a proof whose extra line names another receipt is refused. With
 * `keys` (a /v5/keys document), the receipt's signature is checked too; give `now` as the time
 * the receipt was acted on to judge its 60-second window then (a proof is for later audits).
 */
export function verifyReceiptProof(receipt: unknown, proofText: string, policyText: string, options: VerifyOptions & { keys?: KeysDocument } = {}): ReceiptProofVerdict {
  const entry = receiptEntry(receipt)
  const object = typeof receipt === 'string' ? safeParse(receipt) : receipt
  const receiptId = object && typeof object === 'object' ? (object as Record<string, unknown>).receipt_id : undefined
  const proof = verifyTlogProof(proofText, policyText, entry ?? new Uint8Array())
  if (!entry || typeof receiptId !== 'string') return { valid: false, reason: 'malformed_receipt', message: 'the receipt must be the JSON object the service answered, with its receipt_id', proof }
  if (proof.extra) {
    const named = fromUtf8(proof.extra)
    if (named !== receiptId) return { valid: false, reason: 'extra_mismatch', message: `the proof's extra line names ${named === null ? 'something that is not a receipt id' : `receipt ${named}`}, not ${receiptId}`, proof }
  }
  const signature = options.keys ? verifySigned(object, options.keys, options) : undefined
  if (!proof.valid) return { valid: false, reason: proof.reason, message: proof.message, proof, ...(signature ? { signature } : {}) }
  if (signature && !signature.valid) return { valid: false, reason: signature.reason, message: `logged and witnessed, but ${signature.message}`, proof, signature }
  return { valid: true, message: `receipt ${receiptId} ${proof.message.replace(/^entry \d+ /, `is entry ${proof.index} `)}`, proof, ...(signature ? { signature } : {}) }
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}
