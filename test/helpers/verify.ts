// An independent verifier: @noble/ed25519 and nothing but the service's published /v5/keys.
import * as ed from '@noble/ed25519'
import { sha512 } from '@noble/hashes/sha2.js'

ed.hashes.sha512 = sha512

export interface KeyRegistry {
  keys: { key_id: string; public_key: string }[]
  canonical_payload_spec: Record<string, string[]>
}

export function fieldListFor(receipt: Record<string, unknown>): string {
  if (receipt.type === 'witness.checkpoint/1') return 'witness_fields'
  if (receipt.type === 'audit.digest-log/1') return 'digest_log_fields'
  if ('merkle_root' in receipt) return 'digest_fields'
  if ('venue' in receipt) return 'safe_to_trade_fields'
  if ('mic' in receipt) return 'reason' in receipt ? 'override_fields' : 'receipt_fields'
  return 'health_fields'
}

/** Verifies with noble (strict RFC 8032 mode) using only the registry. */
export function verifyWithRegistry(registry: KeyRegistry, receipt: Record<string, unknown>): boolean {
  const key = registry.keys.find((k) => k.key_id === receipt.public_key_id)
  if (!key) return false
  const list = fieldListFor(receipt)
  // Optional members (digest_optional_fields) are signed when the receipt has them: only the
  // receipt_with_log_tree_size of digests sealed before migration 13 has one.
  const optional = (registry.canonical_payload_spec[list.replace('_fields', '_optional_fields')] ?? []).filter((name) => name in receipt)
  const fields = [...registry.canonical_payload_spec[list]!, ...optional]
  const payload = JSON.stringify(Object.fromEntries([...fields].sort().map((name) => [name, receipt[name]])))
  return ed.verify(Buffer.from(String(receipt.signature), 'hex'), new TextEncoder().encode(payload), Buffer.from(key.public_key, 'hex'), { zip215: false })
}

/** The receipt's own signed members: everything but the signature and known unsigned wrappers. */
export function signedMembers(receipt: Record<string, unknown>): string[] {
  const unsigned = new Set(['signature', 'receipt', 'discovery_url', 'door', 'note', 'exchange_count', 'supported_mics'])
  return Object.keys(receipt).filter((key) => !unsigned.has(key)).sort()
}

/** As a strict client would accept a receipt: the signature verifies and, at `now`, it has not expired. */
export function acceptsReceipt(registry: KeyRegistry, receipt: Record<string, unknown>, now: number): { valid: boolean; expired: boolean } {
  const expiresAt = Date.parse(String(receipt.expires_at))
  return { valid: verifyWithRegistry(registry, receipt), expired: !Number.isFinite(expiresAt) || now > expiresAt }
}
