// The signed field lists of every object the service signs with its receipt key, as /v5/keys
// publishes them (canonical_payload_spec), and how an object's kind is recognised from its
// members. A keys document's own lists take precedence over these defaults.

export const DEFAULT_TTL_SECONDS = 60

const RECEIPT_FIELDS = ['expires_at', 'halt_detection', 'issued_at', 'issuer', 'mic', 'public_key_id', 'receipt_id', 'receipt_mode', 'schema_version', 'source', 'status']

export const DEFAULT_FIELD_LISTS: Record<string, readonly string[]> = {
  receipt_fields: RECEIPT_FIELDS,
  override_fields: [...RECEIPT_FIELDS, 'reason'].sort(),
  health_fields: ['expires_at', 'issued_at', 'issuer', 'public_key_id', 'receipt_id', 'source', 'status'],
  safe_to_trade_fields: ['cross_venue', 'expires_at', 'instrument', 'issued_at', 'issuer', 'max_age', 'public_key_id', 'reasons', 'receipt_id', 'receipt_mode', 'safe', 'schema_version', 'venue', 'venue_source', 'venue_status'],
  digest_fields: ['chain_length', 'computed_at', 'date', 'exchanges_attested', 'issuer', 'merkle_root', 'previous_day_merkle_root', 'public_key_id', 'total_receipts_issued'],
  digest_log_fields: ['date', 'issuer', 'log_origin', 'log_tree_size', 'merkle_root', 'public_key_id', 'type'],
  witness_fields: ['checkpoint_sha256', 'checkpoint_ts', 'count', 'fork', 'kid', 'last_entry_hash', 'public_key_id', 'received_at', 'session_id', 'type', 'witness'],
}

/** `type` of a digest's log receipt (digest_log_fields): the day's root bound to the log size that holds it. */
export const DIGEST_LOG_TYPE = 'audit.digest-log/1'

/**
 * Members signed when present, beside a list's fixed ones: only `log_tree_size` of a digest, and
 * only in the receipt a digest sealed between the transparency log and the log receipt first
 * published (served as `receipt_with_log_tree_size`). Every other object signs exactly its list.
 */
export const DEFAULT_OPTIONAL_FIELDS: Record<string, readonly string[]> = { digest_fields: ['log_tree_size'] }

/** Where a keys document publishes a list's optional members: the one such list ever published. */
export const OPTIONAL_LIST_NAMES: Record<string, string> = { digest_fields: 'digest_optional_fields' }

export type SignedKind = 'market_state' | 'market_state_with_reason' | 'health' | 'safe_to_trade' | 'daily_digest' | 'daily_digest_log' | 'witness_receipt' | 'checkpoint'

export const KIND_OF_LIST: Record<string, SignedKind> = {
  receipt_fields: 'market_state',
  override_fields: 'market_state_with_reason',
  health_fields: 'health',
  safe_to_trade_fields: 'safe_to_trade',
  digest_fields: 'daily_digest',
  digest_log_fields: 'daily_digest_log',
  witness_fields: 'witness_receipt',
}

/** The field list an object uses, judged by the members it carries (the service's own rule). */
export function fieldListOf(object: Record<string, unknown>): string | null {
  if (object.type === 'witness.checkpoint/1') return 'witness_fields'
  if (object.type === DIGEST_LOG_TYPE) return 'digest_log_fields'
  if ('merkle_root' in object && 'date' in object) return 'digest_fields'
  if ('venue' in object && 'safe' in object) return 'safe_to_trade_fields'
  if ('mic' in object && 'halt_detection' in object) return 'reason' in object ? 'override_fields' : 'receipt_fields'
  if (object.status === 'OK' && object.source === 'SYSTEM' && !('mic' in object)) return 'health_fields'
  return null
}

/** Witness receipts, sealed digests and their log receipts are records, not answers: they do not expire. */
export const expires = (list: string) => list !== 'witness_fields' && list !== 'digest_fields' && list !== 'digest_log_fields'
