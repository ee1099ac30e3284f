// The exact signed field list of every receipt type. /v5/keys publishes these lists so that a
// third-party verifier can rebuild the canonical bytes; the receipt builders sign exactly these.
import { randomUUID } from 'node:crypto'

export const RECEIPT_TTL_SECONDS = 60
export const RECEIPT_SCHEMA_VERSION = 'v5.0'

const RECEIPT_FIELDS = ['expires_at', 'halt_detection', 'issued_at', 'issuer', 'mic', 'public_key_id', 'receipt_id', 'receipt_mode', 'schema_version', 'source', 'status'] as const

export const SIGNED_FIELDS = {
  receipt_fields: RECEIPT_FIELDS,
  override_fields: [...RECEIPT_FIELDS, 'reason'].sort() as readonly string[],
  health_fields: ['expires_at', 'issued_at', 'issuer', 'public_key_id', 'receipt_id', 'source', 'status'],
  safe_to_trade_fields: ['cross_venue', 'expires_at', 'instrument', 'issued_at', 'issuer', 'max_age', 'public_key_id', 'reasons', 'receipt_id', 'receipt_mode', 'safe', 'schema_version', 'venue', 'venue_source', 'venue_status'],
  digest_fields: ['chain_length', 'computed_at', 'date', 'exchanges_attested', 'issuer', 'merkle_root', 'previous_day_merkle_root', 'public_key_id', 'total_receipts_issued'],
  witness_fields: ['checkpoint_sha256', 'checkpoint_ts', 'count', 'fork', 'kid', 'last_entry_hash', 'public_key_id', 'received_at', 'session_id', 'type', 'witness'],
} as const satisfies Record<string, readonly string[]>

export type SignedFieldList = keyof typeof SIGNED_FIELDS

/**
 * Members signed when present, beside a list's fixed ones: a digest sealed since the
 * transparency log exists carries log_tree_size; one sealed before does not and verifies without it.
 */
export const OPTIONAL_SIGNED_FIELDS: Partial<Record<SignedFieldList, readonly string[]>> = {
  digest_fields: ['log_tree_size'],
}

/** Identity and lifetime shared by every receipt: a UUID v4 and a 60-second window. */
export function receiptWindow(nowMs: number, receiptId: string = randomUUID()): { receipt_id: string; issued_at: string; expires_at: string } {
  return {
    receipt_id: receiptId,
    issued_at: new Date(nowMs).toISOString(),
    expires_at: new Date(nowMs + RECEIPT_TTL_SECONDS * 1000).toISOString(),
  }
}
