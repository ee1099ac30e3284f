// verifySigned: any object the service signs, checked offline against its published key
// documents (/v5/keys): the receipts (market state, with a reason, health, safe-to-trade;
// live or demo), daily digests, their log receipts and witness receipts (Ed25519 over the
// canonical payload of their signed members), and checkpoints with their cosignatures (C2SP
// signed notes, Ed25519 and ML-DSA-44). A receipt is an answer for 60 seconds: outside its
// window it is not valid.
import { fromHex, utf8 } from './bytes.js'
import { ed25519Verify } from './crypto.js'
import { checkSignature } from './cosignature.js'
import { parseCheckpoint } from './checkpoint.js'
import { DEFAULT_FIELD_LISTS, DEFAULT_OPTIONAL_FIELDS, DEFAULT_TTL_SECONDS, expires, fieldListOf, KIND_OF_LIST, OPTIONAL_LIST_NAMES, type SignedKind } from './fields.js'
import { describeKey, parseNote, parseVkey, type Vkey } from './note.js'

export interface PublishedKey {
  key_id: string
  public_key: string
  [member: string]: unknown
}

/** The parts of /v5/keys the verifier reads. */
export interface KeysDocument {
  keys: PublishedKey[]
  canonical_payload_spec?: Record<string, unknown>
  log_note_key?: { vkey?: string }
  log_ml_dsa_key?: { vkey?: string }
  witness_cosigning_key?: { cosignature_vkey?: string }
  witness_ml_dsa_key?: { vkey?: string }
  [member: string]: unknown
}

export type SignedFailure = 'malformed' | 'unknown_kind' | 'no_keys' | 'unknown_key' | 'invalid_signature' | 'expired' | 'not_yet_valid' | 'validity_too_long'

export interface SignedVerdict {
  valid: boolean
  kind: SignedKind | null
  reason?: SignedFailure
  message: string
  /** The signed field list used (receipts, digests, witness receipts). */
  fieldList?: string
  keyId?: string
  /** The signed members in canonical order. */
  signedMembers?: [string, string][]
  /**
   * Signed members beyond the fixed list, signed under its published optional list: only a
   * digest's `receipt_with_log_tree_size` (its receipt as first published) has one, log_tree_size.
   */
  optionalMembers?: string[]
  /** Members present but not covered by the signature (never vouched for). */
  unsignedMembers?: string[]
  /** The canonical payload that was verified. */
  canonical?: string
  expiresAt?: string
  /** The signature is good even though the receipt is outside its validity window. */
  signatureValid?: boolean
  /** Checkpoints: the log keys that signed, the service's witness keys that cosigned. */
  logKeys?: string[]
  cosignatures?: { key: string; timestamp: number | null }[]
}

export interface VerifyOptions {
  /** The instant to judge validity at, in ms (default: now). Give the time a receipt was used to audit it later. */
  now?: number
}

const strings = (value: unknown): string[] | null => (Array.isArray(value) && value.every((item) => typeof item === 'string') ? (value as string[]) : null)

export function canonicalPayload(fields: Record<string, string>): string {
  const sorted: Record<string, string> = {}
  for (const key of Object.keys(fields).sort()) sorted[key] = fields[key]!
  return JSON.stringify(sorted)
}

export function verifySigned(object: unknown, keys: KeysDocument, options: VerifyOptions = {}): SignedVerdict {
  if (typeof object === 'string') return verifyCheckpoint(object, keys)
  if (!object || typeof object !== 'object' || Array.isArray(object)) return { valid: false, kind: null, reason: 'malformed', message: 'a signed object is a JSON object (or a checkpoint note as text)' }
  const record = object as Record<string, unknown>
  const list = fieldListOf(record)
  if (!list) return { valid: false, kind: null, reason: 'unknown_kind', message: 'none of the signed kinds matches these members' }
  const kind = KIND_OF_LIST[list]!
  const spec = keys.canonical_payload_spec ?? {}
  const fixed = strings(spec[list]) ?? DEFAULT_FIELD_LISTS[list]!
  const optionalList = OPTIONAL_LIST_NAMES[list]
  const optional = (optionalList ? (strings(spec[optionalList]) ?? DEFAULT_OPTIONAL_FIELDS[list]!) : []).filter((name) => name in record && !fixed.includes(name))
  const names = [...fixed, ...optional]
  const fields: Record<string, string> = {}
  for (const name of names) {
    const value = record[name]
    if (typeof value !== 'string') return { valid: false, kind, fieldList: list, reason: 'malformed', message: `the signed member ${name} is ${value === undefined ? 'missing' : 'not a string'}` }
    fields[name] = value
  }
  const canonical = canonicalPayload(fields)
  const base = { kind, fieldList: list, keyId: fields.public_key_id, signedMembers: Object.keys(fields).sort().map((name): [string, string] => [name, fields[name]!]), ...(optional.length ? { optionalMembers: optional } : {}), unsignedMembers: Object.keys(record).filter((name) => name !== 'signature' && !names.includes(name)), canonical }
  const signature = typeof record.signature === 'string' && /^[0-9a-f]{128}$/.test(record.signature) ? fromHex(record.signature) : null
  if (!signature) return { valid: false, ...base, reason: 'malformed', message: 'signature must be 128 lowercase hex characters' }
  if (!Array.isArray(keys.keys) || !keys.keys.length) return { valid: false, ...base, reason: 'no_keys', message: 'the keys document lists no key' }
  const key = keys.keys.find((candidate) => candidate.key_id === fields.public_key_id)
  const publicKey = key && typeof key.public_key === 'string' ? fromHex(key.public_key) : null
  if (!key || !publicKey) return { valid: false, ...base, reason: 'unknown_key', message: `no key ${fields.public_key_id} in the keys document (after a rotation only the new key is listed: verify older objects with a document you kept)` }
  if (!ed25519Verify(publicKey, utf8(canonical), signature)) return { valid: false, ...base, reason: 'invalid_signature', message: `the signature does not match these members under key ${key.key_id}` }
  if (!expires(list)) return { valid: true, ...base, signatureValid: true, message: `signed with key ${key.key_id}${optional.length ? ` (with ${optional.join(', ')} signed under ${optionalList}: a digest's receipt as first published)` : ''}` }
  return validity(fields, spec, options.now ?? Date.now(), { ...base, expiresAt: fields.expires_at })
}

/** A receipt is valid from issued_at to expires_at, a window of at most receipt_ttl_seconds. */
function validity(fields: Record<string, string>, spec: Record<string, unknown>, now: number, base: Omit<SignedVerdict, 'valid' | 'message'>): SignedVerdict {
  const ttl = typeof spec.receipt_ttl_seconds === 'number' ? spec.receipt_ttl_seconds : DEFAULT_TTL_SECONDS
  const issued = Date.parse(fields.issued_at ?? '')
  const expiry = Date.parse(fields.expires_at ?? '')
  if (!Number.isFinite(issued) || !Number.isFinite(expiry)) return { valid: false, ...base, signatureValid: true, reason: 'malformed', message: 'issued_at and expires_at must be timestamps' }
  if (expiry - issued > ttl * 1000 || expiry < issued) return { valid: false, ...base, signatureValid: true, reason: 'validity_too_long', message: `a receipt is valid for at most ${ttl} s; this one claims ${fields.issued_at} to ${fields.expires_at}` }
  if (now > expiry) return { valid: false, ...base, signatureValid: true, reason: 'expired', message: `the signature is valid but the receipt expired at ${fields.expires_at}: do not act on it` }
  // A clock that runs behind by up to one lifetime is tolerated.
  if (now < issued - ttl * 1000) return { valid: false, ...base, signatureValid: true, reason: 'not_yet_valid', message: `the receipt is issued at ${fields.issued_at}, after the time it is checked at` }
  return { valid: true, ...base, signatureValid: true, message: `signed with key ${base.keyId}, valid until ${fields.expires_at}` }
}

function keysFrom(document: KeysDocument): { logs: Vkey[]; witnesses: Vkey[] } {
  const parse = (text: unknown) => (typeof text === 'string' ? parseVkey(text) : null)
  return {
    logs: [parse(document.log_note_key?.vkey), parse(document.log_ml_dsa_key?.vkey)].filter((key): key is Vkey => key !== null),
    witnesses: [parse(document.witness_cosigning_key?.cosignature_vkey), parse(document.witness_ml_dsa_key?.vkey)].filter((key): key is Vkey => key !== null),
  }
}

/** A checkpoint of the service's log: signed by its log keys, cosigned (or not) by its own witness's keys. */
function verifyCheckpoint(text: string, document: KeysDocument): SignedVerdict {
  const note = parseNote(text)
  const checkpoint = note && parseCheckpoint(note.text)
  if (!note || !checkpoint) return { valid: false, kind: 'checkpoint', reason: 'malformed', message: 'not a signed checkpoint (origin, size, root hash, a blank line, signature lines)' }
  const { logs, witnesses } = keysFrom(document)
  const own = logs.filter((key) => key.name === checkpoint.origin)
  if (!own.length) return { valid: false, kind: 'checkpoint', reason: 'unknown_key', message: `the keys document has no log key for origin ${checkpoint.origin}` }
  const logKeys: string[] = []
  for (const key of own) {
    const check = checkSignature(note, key)
    if (check.verdict === 'invalid') return { valid: false, kind: 'checkpoint', reason: 'invalid_signature', message: `the log signature of ${describeKey(key)} does not verify` }
    if (check.verdict === 'valid') logKeys.push(describeKey(key))
  }
  if (!logKeys.length) return { valid: false, kind: 'checkpoint', reason: 'invalid_signature', message: 'the checkpoint carries no signature of the log keys' }
  const cosignatures: { key: string; timestamp: number | null }[] = []
  for (const key of witnesses) {
    const check = checkSignature(note, key, true)
    if (check.verdict === 'invalid') return { valid: false, kind: 'checkpoint', reason: 'invalid_signature', message: `the cosignature of ${describeKey(key)} does not verify`, logKeys }
    if (check.verdict === 'valid') cosignatures.push({ key: describeKey(key), timestamp: check.timestamp })
  }
  return { valid: true, kind: 'checkpoint', message: `checkpoint of ${checkpoint.origin} at size ${checkpoint.size}, signed by ${logKeys.join(', ')}${cosignatures.length ? `, cosigned by ${cosignatures.map((entry) => entry.key).join(', ')}` : ''}`, logKeys, cosignatures }
}
