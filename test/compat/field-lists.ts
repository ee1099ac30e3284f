// The signed field lists as /v5/keys publishes them (recorded 2026-12 for issue 30). A signed
// field list never changes meaning once published: a new signed object gets a new list. If
// compat.test.ts fails here, do not edit these lines to match: add a new list instead (and a new
// object that uses it), and leave every object of an old list signing exactly that list.
export const PUBLISHED_FIELD_LISTS: Record<string, readonly string[]> = {
  receipt_fields: ['expires_at', 'halt_detection', 'issued_at', 'issuer', 'mic', 'public_key_id', 'receipt_id', 'receipt_mode', 'schema_version', 'source', 'status'],
  override_fields: ['expires_at', 'halt_detection', 'issued_at', 'issuer', 'mic', 'public_key_id', 'reason', 'receipt_id', 'receipt_mode', 'schema_version', 'source', 'status'],
  health_fields: ['expires_at', 'issued_at', 'issuer', 'public_key_id', 'receipt_id', 'source', 'status'],
  safe_to_trade_fields: ['cross_venue', 'expires_at', 'instrument', 'issued_at', 'issuer', 'max_age', 'public_key_id', 'reasons', 'receipt_id', 'receipt_mode', 'safe', 'schema_version', 'venue', 'venue_source', 'venue_status'],
  witness_fields: ['checkpoint_sha256', 'checkpoint_ts', 'count', 'fork', 'kid', 'last_entry_hash', 'public_key_id', 'received_at', 'session_id', 'type', 'witness'],
  digest_fields: ['chain_length', 'computed_at', 'date', 'exchanges_attested', 'issuer', 'merkle_root', 'previous_day_merkle_root', 'public_key_id', 'total_receipts_issued'],
  digest_log_fields: ['date', 'issuer', 'log_origin', 'log_tree_size', 'merkle_root', 'public_key_id', 'type'],
  // Deprecated (no verifier needs it), published unchanged for the clients that read it.
  digest_optional_fields: ['log_tree_size'],
}

/**
 * Members a signed object may carry beside its signed fields and its signature, as the
 * specification names them (main-api 2.4, 2.5; the registry's description lists the same).
 */
export const UNSIGNED_WRAPPERS: readonly string[] = ['receipt', 'discovery_url', 'door', 'note', 'exchange_count', 'supported_mics']
