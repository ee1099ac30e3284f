// Verifying a receipt in the browser with the service's own rules: the receipt's type from the
// fields it carries and that type's signed field list (crypto/signed-fields.ts), the canonical
// payload (crypto/canonical.ts), the strict RFC 8032 prechecks (crypto/ed25519-strict.ts), and
// then WebCrypto's Ed25519 against the key /v5/keys publishes under the receipt's public_key_id.
import { canonicalPayload } from '../../crypto/canonical'
import { strictPrecheck } from '../../crypto/ed25519-strict'
import { receiptExpires, receiptType, signedFieldsOf, type SignedFieldList } from '../../crypto/signed-fields'

export interface PublishedKey {
  key_id: string
  public_key: string
  valid_from?: string | null
  valid_until?: string | null
}

export interface KeyRegistry {
  keys: PublishedKey[]
  canonical_payload_spec?: Record<string, unknown>
}

export type VerdictReason = 'SIGNATURE_VALID' | 'RECEIPT_EXPIRED' | 'INVALID_SIGNATURE' | 'UNKNOWN_KEY' | 'MALFORMED_RECEIPT' | 'NO_KEYS' | 'UNSUPPORTED_BROWSER'

export interface Verdict {
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

export function hexToBytes(hex: string): Uint8Array | null {
  if (!/^(?:[0-9a-f]{2})*$/.test(hex)) return null
  const bytes = new Uint8Array(hex.length / 2)
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16)
  return bytes
}

const utf8 = (text: string) => new TextEncoder().encode(text)

/** 'unsupported' when this browser's WebCrypto has no Ed25519: then nothing is decided. */
export async function ed25519Verify(publicKey: Uint8Array, signature: Uint8Array, message: Uint8Array): Promise<'valid' | 'invalid' | 'unsupported'> {
  if (strictPrecheck(publicKey, signature) !== null) return 'invalid'
  let key: CryptoKey
  try {
    key = await crypto.subtle.importKey('raw', publicKey as BufferSource, { name: 'Ed25519' }, false, ['verify'])
  } catch (error) {
    if ((error as Error).name === 'NotSupportedError') return 'unsupported'
    return 'invalid'
  }
  try {
    return (await crypto.subtle.verify({ name: 'Ed25519' }, key, signature as BufferSource, message as BufferSource)) ? 'valid' : 'invalid'
  } catch {
    // An encoding WebCrypto cannot decode as a point is a failed signature, as on the service.
    return 'invalid'
  }
}

export async function verifyReceipt(registry: KeyRegistry, input: unknown, now: number): Promise<Verdict> {
  const verdict = (valid: boolean, reason: VerdictReason, detail: string, extra: Partial<Verdict> = {}): Verdict => ({ valid, reason, detail, type: null, key: null, keyId: null, signed: [], unsigned: [], expiresAt: null, expired: false, canonical: null, ...extra })
  if (!input || typeof input !== 'object' || Array.isArray(input)) return verdict(false, 'MALFORMED_RECEIPT', 'A receipt is a JSON object.')
  const receipt = input as Record<string, unknown>
  const type = receiptType(receipt)
  if (!type) return verdict(false, 'MALFORMED_RECEIPT', 'This is not a receipt the service signs: none of the known field sets matches its members.')
  const names = signedFieldsOf(type, receipt)
  const fields: Record<string, string> = {}
  for (const name of names) {
    const value = receipt[name]
    if (typeof value !== 'string') return verdict(false, 'MALFORMED_RECEIPT', `The signed member ${name} is ${value === undefined ? 'missing' : 'not a string'}.`, { type })
    fields[name] = value
  }
  const signed = names.map((name) => [name, fields[name]!] as [string, string])
  const unsigned = Object.keys(receipt).filter((name) => name !== 'signature' && !(names as readonly string[]).includes(name))
  const keyId = fields.public_key_id ?? null
  const expiresAt = receiptExpires(type) ? (fields.expires_at ?? null) : null
  const expired = expiresAt !== null && now > Date.parse(expiresAt)
  const base = { type, signed, unsigned, keyId, expiresAt, expired }
  const signature = typeof receipt.signature === 'string' ? hexToBytes(receipt.signature) : null
  if (!signature || signature.length !== 64) return verdict(false, 'MALFORMED_RECEIPT', 'signature must be 128 lowercase hex characters.', base)
  if (!registry.keys.length) return verdict(false, 'NO_KEYS', 'The service publishes no key at /v5/keys: nothing can be verified.', base)
  const key = registry.keys.find((candidate) => candidate.key_id === keyId) ?? null
  if (!key) return verdict(false, 'UNKNOWN_KEY', `No key with id ${keyId} is published at /v5/keys (after a rotation only the new key is listed: an older receipt verifies only against a key you pinned).`, base)
  const publicKey = hexToBytes(key.public_key)
  const canonical = canonicalPayload(fields)
  if (!publicKey || publicKey.length !== 32) return verdict(false, 'NO_KEYS', `The published key ${key.key_id} is not 32 bytes of hex.`, { ...base, key, canonical })
  const checked = await ed25519Verify(publicKey, signature, utf8(canonical))
  if (checked === 'unsupported') return verdict(false, 'UNSUPPORTED_BROWSER', "This browser's WebCrypto has no Ed25519, so nothing was decided: use POST /v5/verify or the offline script of docs/audit.md.", { ...base, key, canonical })
  if (checked === 'invalid') return verdict(false, 'INVALID_SIGNATURE', `The signature does not match these members under key ${key.key_id}: a signed member was changed, or the receipt was not signed by this service.`, { ...base, key, canonical })
  if (expired) return verdict(true, 'RECEIPT_EXPIRED', `The signature is valid, but the receipt expired at ${expiresAt}: do not act on it; fetch a fresh one.`, { ...base, key, canonical })
  return verdict(true, 'SIGNATURE_VALID', `Signed by this service with key ${key.key_id}.`, { ...base, key, canonical })
}

/**
 * The receipts in what was pasted: one receipt; a wrapper with a signed `receipt` (the sealed
 * digest answer, the safe-to-trade sample door); a list under `receipts` (a witness page, a
 * batch); or an array. A digest of a day not sealed yet has nothing signed: said so.
 */
export function receiptsIn(input: unknown): { receipts: unknown[]; note: string | null } {
  if (Array.isArray(input)) return { receipts: input, note: null }
  if (!input || typeof input !== 'object') return { receipts: [input], note: null }
  const object = input as Record<string, unknown>
  if (Array.isArray(object.receipts)) return { receipts: object.receipts, note: `${object.receipts.length} receipts in the list` }
  if (object.receipt && typeof object.receipt === 'object' && typeof object.signature !== 'string') return { receipts: [object.receipt], note: 'Checked the signed receipt member of what you pasted.' }
  if ('merkle_root' in object && object.partial === true) return { receipts: [], note: 'This digest is of a day not sealed yet (partial: true): nothing in it is signed until the day is sealed after midnight UTC.' }
  return { receipts: [object], note: null }
}
