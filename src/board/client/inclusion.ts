// Checking in the browser that a receipt is logged: in its day's audit tree (the RFC 6962 leaf
// hash of its id, the audit path folded up to the Merkle root of the day's signed digest, whose
// signature is verified like any receipt) or, with a C2SP tlog-proof, in the continuous log under
// /log/policy. Both with the verifier package (@openbell/verify).
import { leafHash, rootFromInclusionProof, toHex, utf8, verifyReceiptProof, TLOG_PROOF_HEADER } from '@openbell/verify'
import { hexToBytes, verifyReceipt, type KeyRegistry } from './verify-core'

const HASH_HEX = /^[0-9a-f]{64}$/

export interface Proof {
  receipt_id: string
  date: string
  leaf_index: number
  tree_size: number
  audit_path: string[]
  merkle_root: string
  sealed: boolean
}

export type InclusionOutcome = 'included' | 'pending' | 'failed'

export interface InclusionVerdict {
  outcome: InclusionOutcome
  detail: string
  facts: [string, string][]
}

/** The root a proof leads to from the receipt id, or null when the path is malformed or of the wrong length. */
export function rootFromProof(receiptId: string, proof: Proof): string | null {
  if (!Array.isArray(proof.audit_path) || !proof.audit_path.every((item) => typeof item === 'string' && HASH_HEX.test(item))) return null
  const root = rootFromInclusionProof(leafHash(utf8(receiptId)), proof.leaf_index, proof.tree_size, proof.audit_path.map((item) => hexToBytes(item)!))
  return root && toHex(root)
}

type FetchJson = (path: string) => Promise<{ status: number; body: unknown }>

export async function checkInclusion(registry: KeyRegistry, receipt: Record<string, unknown>, pasted: Proof | null, fetchJson: FetchJson): Promise<InclusionVerdict> {
  const failed = (detail: string, facts: [string, string][] = []): InclusionVerdict => ({ outcome: 'failed', detail, facts })
  const receiptId = typeof receipt.receipt_id === 'string' ? receipt.receipt_id : null
  if (!receiptId) return failed('Paste a live receipt (one with a receipt_id) in the box above first.')
  // Known without asking (a 404 would only add an error to the browser's console).
  if (receipt.receipt_mode === 'demo') return failed('A demo receipt is never logged, so it is in no audit root: only live receipts are.')
  let proof = pasted
  if (!proof) {
    const answer = await fetchJson(`/v5/audit/proof?receipt_id=${encodeURIComponent(receiptId)}`)
    if (answer.status === 404) return failed('The audit log has no receipt with this id: demo receipts, the public sample door and unknown ids are not logged.')
    if (answer.status !== 200) return failed(`The proof could not be fetched (HTTP ${answer.status}).`)
    proof = answer.body as Proof
  }
  if (proof.receipt_id !== receiptId) return failed(`The proof is for receipt ${proof.receipt_id}, not ${receiptId}.`)
  const computed = rootFromProof(receiptId, proof)
  const facts: [string, string][] = [
    ['date', proof.date],
    ['leaf', `${proof.leaf_index} of ${proof.tree_size}`],
    ['root from the path', computed ?? '—'],
  ]
  if (!computed) return failed('The audit path is malformed or does not have the length this tree size needs.', facts)
  if (!proof.sealed) {
    if (computed !== proof.merkle_root) return failed("The path does not lead to the root the proof names for today's tree.", facts)
    return { outcome: 'pending', detail: `The path leads to today's tree as it stands (${proof.merkle_root}), which is not signed until the day is sealed after midnight UTC. Check again tomorrow against the signed digest.`, facts }
  }
  const digest = await fetchJson(`/v5/audit/digest?date=${encodeURIComponent(proof.date)}`)
  const signed = (digest.body as { receipt?: Record<string, unknown> } | null)?.receipt
  if (digest.status !== 200 || !signed) return failed(`The signed digest of ${proof.date} could not be fetched (HTTP ${digest.status}).`, facts)
  const verdict = await verifyReceipt(registry, signed, Date.now())
  facts.push(['signed root', String(signed.merkle_root)], ['digest key', String(signed.public_key_id)])
  if (!verdict.valid || verdict.type !== 'digest_fields') return failed(`The digest of ${proof.date} does not verify: ${verdict.detail}`, facts)
  if (signed.date !== proof.date) return failed(`The digest is of ${String(signed.date)}, the proof of ${proof.date}.`, facts)
  if (signed.total_receipts_issued !== String(proof.tree_size)) return failed(`The proof's tree has ${proof.tree_size} leaves; the signed digest counts ${String(signed.total_receipts_issued)}.`, facts)
  if (computed !== signed.merkle_root) return failed('The receipt is not in the signed root of its day.', facts)
  return { outcome: 'included', detail: `Included: leaf ${proof.leaf_index} of ${proof.tree_size} in the signed digest of ${proof.date}.`, facts }
}

export const isTlogProof = (text: string) => text.startsWith(`${TLOG_PROOF_HEADER}\n`)

/** A C2SP tlog-proof of the pasted receipt, checked under the policy the service publishes. */
export async function checkTlogProof(receiptText: string, proofText: string, fetchText: (path: string) => Promise<{ status: number; text: string }>): Promise<InclusionVerdict> {
  const policy = await fetchText('/log/policy')
  if (policy.status !== 200) return { outcome: 'failed', detail: `The log's policy could not be fetched (HTTP ${policy.status}).`, facts: [] }
  const verdict = verifyReceiptProof(receiptText, proofText, policy.text)
  const { proof } = verdict
  const facts: [string, string][] = [
    ['log', proof.origin ?? '—'],
    ['entry', proof.index === undefined ? '—' : `${proof.index} of ${proof.treeSize}`],
    ['signed by', proof.logKeys?.join(', ') || '—'],
    ['cosigned by', proof.cosignatures?.map((entry) => `${entry.witness}${entry.timestamp ? ` at ${new Date(entry.timestamp * 1000).toISOString()}` : ''}`).join(', ') || '—'],
  ]
  if (!verdict.valid) return { outcome: 'failed', detail: `The tlog-proof does not hold (${verdict.reason}): ${verdict.message}.`, facts }
  return { outcome: 'included', detail: `Logged and witnessed: entry ${proof.index} of the log ${proof.origin}, under its published policy (checked here, in this page).`, facts }
}
