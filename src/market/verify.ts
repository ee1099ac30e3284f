// Verifying a receipt the service (or an earlier key of it) signed: recognise its type by its
// fields, take exactly that type's signed fields, and check the signature strictly.
import type { Signer, KeyDescription } from '../crypto/signer'
import { OPTIONAL_SIGNED_FIELDS, SIGNED_FIELDS } from '../crypto/receipt-fields'
import { canonicalPayload } from '../crypto/canonical'
import { verifyStrict } from '../crypto/ed25519'
import { hexToBytes, utf8 } from '../crypto/encoding'

export interface VerificationResult {
  valid: boolean
  expired: boolean
  reason: string
  receipt_type: string | null
  mic: string | null
  status: string | null
  expires_at: string | null
}

type FieldList = keyof typeof SIGNED_FIELDS

/** Which signed field list a receipt uses, judged by the fields it carries. */
export function receiptType(receipt: Record<string, unknown>): FieldList | null {
  if (receipt.type === 'witness.checkpoint/1') return 'witness_fields'
  if ('merkle_root' in receipt && 'date' in receipt) return 'digest_fields'
  if ('venue' in receipt && 'safe' in receipt) return 'safe_to_trade_fields'
  if ('mic' in receipt && 'halt_detection' in receipt) return 'reason' in receipt ? 'override_fields' : 'receipt_fields'
  if (receipt.status === 'OK' && receipt.source === 'SYSTEM' && !('mic' in receipt)) return 'health_fields'
  return null
}

const str = (value: unknown) => (typeof value === 'string' ? value : null)

export function verifyReceipt(keys: readonly KeyDescription[], input: unknown, now: number): VerificationResult {
  const result = (valid: boolean, expired: boolean, reason: string, receipt: Record<string, unknown> | null, type: FieldList | null): VerificationResult => ({
    valid,
    expired,
    reason,
    receipt_type: type,
    mic: str(receipt?.mic) ?? str(receipt?.venue),
    status: str(receipt?.status) ?? str(receipt?.venue_status),
    expires_at: str(receipt?.expires_at),
  })
  if (!input || typeof input !== 'object' || Array.isArray(input)) return result(false, false, 'MALFORMED_RECEIPT', null, null)
  const receipt = input as Record<string, unknown>
  const type = receiptType(receipt)
  if (!type) return result(false, false, 'MALFORMED_RECEIPT', receipt, null)
  const fields: Record<string, string> = {}
  for (const name of SIGNED_FIELDS[type]) {
    const value = receipt[name]
    if (typeof value !== 'string') return result(false, false, 'MALFORMED_RECEIPT', receipt, type)
    fields[name] = value
  }
  for (const name of OPTIONAL_SIGNED_FIELDS[type] ?? []) {
    if (!(name in receipt)) continue
    const value = receipt[name]
    if (typeof value !== 'string') return result(false, false, 'MALFORMED_RECEIPT', receipt, type)
    fields[name] = value
  }
  const signature = typeof receipt.signature === 'string' && /^[0-9a-f]{128}$/.test(receipt.signature) ? hexToBytes(receipt.signature) : null
  if (!signature) return result(false, false, 'MALFORMED_RECEIPT', receipt, type)
  // Witness receipts and sealed digests are records, not answers: they do not expire.
  const expiresAt = type === 'witness_fields' || type === 'digest_fields' ? Number.NaN : Date.parse(fields.expires_at ?? '')
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
