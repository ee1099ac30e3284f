// The public key documents: the key registry (/v5/keys), the well-known key document and the
// JWKS. The registry is what a third-party verifier implements against, so it spells out the
// canonical payload rule and every signed field list.
import type { KeyDescription } from '../crypto/signer'
import { ed25519Jwk, jwkThumbprint } from '../crypto/jwk'
import { OPTIONAL_SIGNED_FIELDS, RECEIPT_SCHEMA_VERSION, RECEIPT_TTL_SECONDS, SIGNED_FIELDS } from '../crypto/receipt-fields'
import { DIGEST_LOG_TYPE } from '../crypto/signed-fields'

export const CANONICAL_PAYLOAD_DESCRIPTION =
  'Take the receipt fields named by the list for its type (every value is a JSON string), sort the keys by Unicode code point, ' +
  'serialise as compact JSON (JSON.stringify with no whitespace, which equals RFC 8785 JCS for a flat all-string object), ' +
  'encode as UTF-8, and verify the Ed25519 (RFC 8032, pure) signature given as 128 lowercase hex characters in `signature` ' +
  'with the 32-byte public key (64 hex characters) of the key whose key_id equals the receipt\'s public_key_id. ' +
  'Fields not in the list (signature, and unsigned wrappers such as receipt, discovery_url, door, note, exchange_count, supported_mics) never enter the payload.'

export function keyRegistry(key: KeyDescription | null, baseUrl: string, issuer: string) {
  return {
    issuer,
    keys: key
      ? [{ key_id: key.keyId, algorithm: 'Ed25519', format: 'hex', public_key: key.publicKeyHex, valid_from: key.validFrom, valid_until: key.validUntil, status: 'active' }]
      : [],
    canonical_payload_spec: {
      description: CANONICAL_PAYLOAD_DESCRIPTION,
      algorithm: 'Ed25519',
      signature_encoding: 'hex-lowercase-128',
      payload_encoding: 'utf-8',
      key_order: 'sorted',
      value_type: 'string',
      receipt_fields: SIGNED_FIELDS.receipt_fields,
      override_fields: SIGNED_FIELDS.override_fields,
      health_fields: SIGNED_FIELDS.health_fields,
      safe_to_trade_fields: SIGNED_FIELDS.safe_to_trade_fields,
      witness_fields: SIGNED_FIELDS.witness_fields,
      digest_fields: SIGNED_FIELDS.digest_fields,
      digest_log_fields: SIGNED_FIELDS.digest_log_fields,
      // Published unchanged for clients written while digests signed log_tree_size in `receipt`; needed only to check receipt_with_log_tree_size as published.
      digest_optional_fields: OPTIONAL_SIGNED_FIELDS.digest_fields,
      field_list_selection: {
        receipt_fields: 'market-state receipt (has mic and halt_detection) without a reason field',
        override_fields: 'market-state receipt that carries a reason field (source OVERRIDE or REALTIME)',
        health_fields: 'health receipt from /v5/health (status OK, no mic)',
        safe_to_trade_fields: 'safe-to-trade receipt (has venue and safe)',
        witness_fields: "witness receipt (type 'witness.checkpoint/1')",
        digest_fields: "signed daily audit digest (the `receipt` member of /v5/audit/digest and of each /v5/audit/chain item; has merkle_root and date; previous_day_merkle_root is '' for the first day, integers and the exchanges_attested array are written as strings): exactly these members, for every digest",
        digest_log_fields: `a digest's log receipt (the \`log_receipt\` member of a sealed digest, type '${DIGEST_LOG_TYPE}'; digests sealed since the transparency log exists): the day's merkle_root is held by the log of origin log_origin (its checkpoints at /log/checkpoint) within its first log_tree_size entries, with every receipt of the days before`,
        digest_optional_fields: "deprecated, never needed: only the `receipt_with_log_tree_size` member of digests sealed between the transparency log and the log receipt (their receipt as first published) signs these members beside digest_fields; every digest's `receipt` signs exactly digest_fields",
      },
      receipt_schema_version: RECEIPT_SCHEMA_VERSION,
      receipt_ttl_seconds: RECEIPT_TTL_SECONDS,
    },
    ...(key ? {} : { note: 'no signing key is configured: every signed answer fails closed' }),
  }
}

export function wellKnownKeys(key: KeyDescription | null, baseUrl: string, issuer: string) {
  return {
    issuer,
    key_registry: `${baseUrl}/v5/keys`,
    jwks_uri: `${baseUrl}/.well-known/jwks.json`,
    source_of_truth: 'public_key (hex, 32 raw bytes); the JWKS is the same key in JWK form, for discovery only',
    rotation_policy: 'after a rotation only the new key is listed; pin keys you need to verify old receipts with',
    keys: key
      ? [
          {
            key_id: key.keyId,
            algorithm: 'Ed25519',
            format: 'hex',
            public_key: key.publicKeyHex,
            status: 'active',
            valid_from: key.validFrom,
            valid_until: key.validUntil,
            jwk_thumbprint: jwkThumbprint(ed25519Jwk(key.publicKey)),
          },
        ]
      : [],
  }
}

export function jwks(key: KeyDescription) {
  const jwk = ed25519Jwk(key.publicKey)
  return { keys: [{ ...jwk, kid: jwkThumbprint(jwk), use: 'sig', alg: 'EdDSA' }] }
}
