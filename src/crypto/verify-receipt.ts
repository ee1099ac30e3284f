// Verifying a receipt the service (or an earlier key of it) signed: recognise its type by its
// fields, take exactly that type's signed fields, and check the signature strictly.
import type { Signer, KeyDescription } from './signer'
import { receiptExpires, receiptType, signedFieldsOf, type SignedFieldList } from './signed-fields'
import { canonicalPayload } from './canonical'
import { verifyStrict } from './ed25519'
import { hexToBytes, utf8 } from './encoding'

export interface VerificationResult {
  valid: boolean
  expired: boolean
  reason: string
  receipt_type: string | null
  /**
   * Top-level members of the receipt that its signature does not cover (besides `signature`),
   * in the receipt's order; null when its type is not recognised. The service vouches for signed
   * members only: anything listed here (an unsigned wrapper, or a member someone added) is not
   * attested, whatever `valid` says.
   */
  unsigned_members: string[] | null
  mic: string | null
  status: string | null
  expires_at: string | null
}

// Recognising the type is shared with the browser pages' verifier (crypto/signed-fields.ts).
export { receiptType }

const str = (value: unknown) => (typeof value === 'string' ? value : null)

export function verifyReceipt(keys: readonly KeyDescription[], input: unknown, now: number): VerificationResult {
  const result = (valid: boolean, expired: boolean, reason: string, receipt: Record<string, unknown> | null, type: SignedFieldList | null): VerificationResult => ({
    valid,
    expired,
    reason,
    receipt_type: type,
    unsigned_members: receipt && type ? Object.keys(receipt).filter((name) => name !== 'signature' && !signedFieldsOf(type, receipt).includes(name)) : null,
    mic: str(receipt?.mic) ?? str(receipt?.venue),
    status: str(receipt?.status) ?? str(receipt?.venue_status),
    expires_at: str(receipt?.expires_at),
  })
  if (!input || typeof input !== 'object' || Array.isArray(input)) return result(false, false, 'MALFORMED_RECEIPT', null, null)
  const receipt = input as Record<string, unknown>
  const type = receiptType(receipt)
  if (!type) return result(false, false, 'MALFORMED_RECEIPT', receipt, null)
  const fields: Record<string, string> = {}
  // The type's fixed members, and its optional ones the receipt has (a digest's log_tree_size).
  for (const name of signedFieldsOf(type, receipt)) {
    const value = receipt[name]
    if (typeof value !== 'string') return result(false, false, 'MALFORMED_RECEIPT', receipt, type)
    fields[name] = value
  }
  const signature = typeof receipt.signature === 'string' && /^[0-9a-f]{128}$/.test(receipt.signature) ? hexToBytes(receipt.signature) : null
  if (!signature) return result(false, false, 'MALFORMED_RECEIPT', receipt, type)
  const expiresAt = receiptExpires(type) ? Date.parse(fields.expires_at ?? '') : Number.NaN
  const expired = Number.isFinite(expiresAt) ? now > expiresAt : false
  if (!keys.length) return result(false, expired, 'ORACLE_NOT_CONFIGURED', receipt, type)
  // An unknown key id is invalid: the receipt names the key it claims, and we only vouch for ours.
  const key = keys.find((candidate) => candidate.keyId === fields.public_key_id)
  if (!key || !verifyStrict(key.publicKey, utf8(canonicalPayload(fields)), signature)) return result(false, expired, 'INVALID_SIGNATURE', receipt, type)
  if (expired) return result(true, true, `RECEIPT_EXPIRED: the signature is valid but the receipt expired at ${fields.expires_at}; fetch a fresh receipt before acting`, receipt, type)
  return result(true, false, 'SIGNATURE_VALID', receipt, type)
}

/** Keys a receipt may be verified with: the current key (retired keys would be listed here too). */
export function verificationKeys(signer: Signer): KeyDescription[] {
  return signer.key ? [signer.key] : []
}
