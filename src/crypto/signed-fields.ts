// The exact signed field list of every receipt type, and how a receipt's type is recognised
// from the fields it carries. /v5/keys publishes these lists so that a third-party verifier can
// rebuild the canonical bytes; the receipt builders sign exactly these. The verifier package
// (packages/verify, which the browser pages use) has its own copy, checked against these by its tests.

export const RECEIPT_TTL_SECONDS = 60
export const RECEIPT_SCHEMA_VERSION = 'v5.0'

const RECEIPT_FIELDS = ['expires_at', 'halt_detection', 'issued_at', 'issuer', 'mic', 'public_key_id', 'receipt_id', 'receipt_mode', 'schema_version', 'source', 'status'] as const

export const SIGNED_FIELDS = {
  receipt_fields: RECEIPT_FIELDS,
  override_fields: [...RECEIPT_FIELDS, 'reason'].sort() as readonly string[],
  health_fields: ['expires_at', 'issued_at', 'issuer', 'public_key_id', 'receipt_id', 'source', 'status'],
  safe_to_trade_fields: ['cross_venue', 'expires_at', 'instrument', 'issued_at', 'issuer', 'max_age', 'public_key_id', 'reasons', 'receipt_id', 'receipt_mode', 'safe', 'schema_version', 'venue', 'venue_source', 'venue_status'],
  digest_fields: ['chain_length', 'computed_at', 'date', 'exchanges_attested', 'issuer', 'merkle_root', 'previous_day_merkle_root', 'public_key_id', 'total_receipts_issued'],
  digest_log_fields: ['date', 'issuer', 'log_origin', 'log_tree_size', 'merkle_root', 'public_key_id', 'type'],
  witness_fields: ['checkpoint_sha256', 'checkpoint_ts', 'count', 'fork', 'kid', 'last_entry_hash', 'public_key_id', 'received_at', 'session_id', 'type', 'witness'],
} as const satisfies Record<string, readonly string[]>

export type SignedFieldList = keyof typeof SIGNED_FIELDS

/** `type` of a digest's log receipt: the day's root bound to the transparency log size that holds it. */
export const DIGEST_LOG_TYPE = 'audit.digest-log/1'

/**
 * Members signed when present, beside a list's fixed ones. Only for digests sealed between the
 * transparency log and migration 13, whose receipt signed log_tree_size too: those receipts were
 * handed out and still verify (here, at /v5/verify and in packages/verify, as
 * receipt_with_log_tree_size). Nothing else needs the rule: every digest's `receipt` now signs
 * exactly digest_fields and the log size has its own signed object (digest_log_fields); /v5/keys
 * keeps publishing the list unchanged (docs/audit.md).
 */
export const OPTIONAL_SIGNED_FIELDS: Partial<Record<SignedFieldList, readonly string[]>> = {
  digest_fields: ['log_tree_size'],
}

/** The members a receipt of `type` signs: the list's fixed ones and the optional ones it has. */
export function signedFieldsOf(type: SignedFieldList, receipt: Record<string, unknown>): string[] {
  return [...SIGNED_FIELDS[type], ...(OPTIONAL_SIGNED_FIELDS[type] ?? []).filter((name) => name in receipt)]
}

/** Which signed field list a receipt uses, judged by the fields it carries. */
export function receiptType(receipt: Record<string, unknown>): SignedFieldList | null {
  if (receipt.type === 'witness.checkpoint/1') return 'witness_fields'
  if (receipt.type === DIGEST_LOG_TYPE) return 'digest_log_fields'
  if ('merkle_root' in receipt && 'date' in receipt) return 'digest_fields'
  if ('venue' in receipt && 'safe' in receipt) return 'safe_to_trade_fields'
  if ('mic' in receipt && 'halt_detection' in receipt) return 'reason' in receipt ? 'override_fields' : 'receipt_fields'
  if (receipt.status === 'OK' && receipt.source === 'SYSTEM' && !('mic' in receipt)) return 'health_fields'
  return null
}

/** Witness receipts, sealed digests and their log receipts are records, not answers: they do not expire. */
export function receiptExpires(type: SignedFieldList): boolean {
  return type !== 'witness_fields' && type !== 'digest_fields' && type !== 'digest_log_fields'
}
