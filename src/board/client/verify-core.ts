// Verifying a receipt in the browser: the verifier package (@openbell/verify, the one client-side
// verifier: the signed field lists and canonical payload of /v5/keys, strict RFC 8032 Ed25519 in
// @noble, the 60-second window) against the keys /v5/keys publishes. This file only turns its
// verdict into what the page shows.
import { verifySigned, type KeysDocument, type PublishedKey as PackageKey } from '@openbell/verify'

export interface PublishedKey extends PackageKey {
  valid_from?: string | null
  valid_until?: string | null
}

export interface KeyRegistry extends KeysDocument {
  keys: PublishedKey[]
}

export type SignedFieldList = 'receipt_fields' | 'override_fields' | 'health_fields' | 'safe_to_trade_fields' | 'digest_fields' | 'digest_log_fields' | 'witness_fields'

export type VerdictReason = 'SIGNATURE_VALID' | 'RECEIPT_EXPIRED' | 'OUTSIDE_VALIDITY' | 'INVALID_SIGNATURE' | 'UNKNOWN_KEY' | 'MALFORMED_RECEIPT' | 'NO_KEYS'

export interface Verdict {
  /** The signature holds (an expired receipt still has a valid signature: see expired). */
  valid: boolean
  reason: VerdictReason
  /** A sentence for people. */
  detail: string
  type: SignedFieldList | null
  key: PublishedKey | null
  keyId: string | null
  /** The signed members in canonical order, with their values as given. */
  signed: [string, string][]
  /** Members the receipt carries that the signature does not cover. */
  unsigned: string[]
  /** Signed members beyond the fixed list (a digest's receipt as first published: log_tree_size). */
  optional: string[]
  expiresAt: string | null
  expired: boolean
  canonical: string | null
}

export const TYPE_WORDS: Record<SignedFieldList, string> = {
  receipt_fields: 'market-state receipt',
  override_fields: 'market-state receipt with a reason (override or halt)',
  health_fields: 'health receipt',
  safe_to_trade_fields: 'safe-to-trade receipt',
  digest_fields: 'signed daily audit digest',
  digest_log_fields: "daily digest's transparency log size",
  witness_fields: 'witness receipt',
}

const REASONS: Record<string, VerdictReason> = {
  expired: 'RECEIPT_EXPIRED',
  not_yet_valid: 'OUTSIDE_VALIDITY',
  validity_too_long: 'OUTSIDE_VALIDITY',
  invalid_signature: 'INVALID_SIGNATURE',
  unknown_key: 'UNKNOWN_KEY',
  no_keys: 'NO_KEYS',
  malformed: 'MALFORMED_RECEIPT',
  unknown_kind: 'MALFORMED_RECEIPT',
}

export function hexToBytes(hex: string): Uint8Array | null {
  if (!/^(?:[0-9a-f]{2})*$/.test(hex)) return null
  const bytes = new Uint8Array(hex.length / 2)
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16)
  return bytes
}

export async function verifyReceipt(registry: KeyRegistry, input: unknown, now: number): Promise<Verdict> {
  if (typeof input === 'string') return { valid: false, reason: 'MALFORMED_RECEIPT', detail: 'A receipt is a JSON object.', type: null, key: null, keyId: null, signed: [], unsigned: [], optional: [], expiresAt: null, expired: false, canonical: null }
  const verdict = verifySigned(input, registry, { now })
  const keyId = verdict.keyId ?? null
  const valid = verdict.valid || verdict.signatureValid === true
  const reason = verdict.valid ? 'SIGNATURE_VALID' : REASONS[verdict.reason ?? 'malformed']!
  const detail = verdict.valid
    ? `Signed by this service with key ${keyId}.`
    : reason === 'RECEIPT_EXPIRED'
      ? `The signature is valid, but the receipt expired at ${verdict.expiresAt}: do not act on it; fetch a fresh one.`
      : reason === 'UNKNOWN_KEY'
        ? `No key with id ${keyId} is published at /v5/keys (after a rotation only the new key is listed: an older receipt verifies only against a key you pinned).`
        : reason === 'INVALID_SIGNATURE'
          ? `The signature does not match these members under key ${keyId}: a signed member was changed, or the receipt was not signed by this service.`
          : `${verdict.message[0]!.toUpperCase()}${verdict.message.slice(1)}.`
  return {
    valid,
    reason,
    detail,
    type: (verdict.fieldList as SignedFieldList | undefined) ?? null,
    key: registry.keys.find((candidate) => candidate.key_id === keyId) ?? null,
    keyId,
    signed: verdict.signedMembers ?? [],
    unsigned: verdict.unsignedMembers ?? [],
    optional: verdict.optionalMembers ?? [],
    expiresAt: verdict.expiresAt ?? null,
    expired: verdict.reason === 'expired',
    canonical: verdict.canonical ?? null,
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** The signed objects a sealed digest answers with, in this order (docs/audit.md, "Signed digest"). */
const DIGEST_SIGNED_MEMBERS = ['receipt', 'log_receipt', 'receipt_with_log_tree_size'] as const

const signedOfDigest = (digest: Record<string, unknown>) => DIGEST_SIGNED_MEMBERS.filter((name) => isObject(digest[name])).map((name) => digest[name])

/**
 * The receipts in what was pasted: one receipt; a sealed digest (its receipt, log receipt and,
 * for a digest first signed with its log size, that first receipt) or the chain's digests; a
 * wrapper with a signed `receipt` (the safe-to-trade sample door); a list under `receipts` (a
 * witness page, a batch); or an array. A digest of a day not sealed yet has nothing signed: said so.
 */
export function receiptsIn(input: unknown): { receipts: unknown[]; note: string | null } {
  if (Array.isArray(input)) return { receipts: input, note: null }
  if (!isObject(input)) return { receipts: [input], note: null }
  const object: Record<string, unknown> = input
  if (Array.isArray(object.receipts)) return { receipts: object.receipts, note: `${object.receipts.length} receipts in the list` }
  if (Array.isArray(object.digests)) {
    const receipts = object.digests.filter(isObject).flatMap(signedOfDigest)
    return { receipts, note: `${receipts.length} signed objects of ${object.digests.length} digests (each digest's receipt, and its log receipt and first receipt where it has them).` }
  }
  if ('merkle_root' in object && object.partial === true) return { receipts: [], note: 'This digest is of a day not sealed yet (partial: true): nothing in it is signed until the day is sealed after midnight UTC.' }
  if ('merkle_root' in object && isObject(object.receipt) && typeof object.signature !== 'string') {
    const present = DIGEST_SIGNED_MEMBERS.filter((name) => isObject(object[name]))
    return { receipts: signedOfDigest(object), note: `Checked the digest's signed ${present.length > 1 ? 'objects' : 'object'}: ${present.join(', ')}.` }
  }
  if (isObject(object.receipt) && typeof object.signature !== 'string') return { receipts: [object.receipt], note: 'Checked the signed receipt member of what you pasted.' }
  return { receipts: [object], note: null }
}
