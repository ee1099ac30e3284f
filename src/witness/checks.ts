// Checks 1 to 6 of witness.md 4.1, in order, stopping at the first failure. Pure: bytes and
// headers in, a verified submission or the failing check's code out.
import { base64urlToBytes, utf8 } from '../crypto/encoding'
import { jcsFlat } from '../crypto/canonical'
import { jwkThumbprint } from '../crypto/jwk'
import { verifyStrict } from '../crypto/ed25519'
import { hasDuplicateMember } from '../http/json-duplicates'
import { isRealDate, utcMs } from '../utc'

export const MAX_BODY_BYTES = 4096
export const CHECKPOINT_VERSION = 'evidence.action/1'
const CHECKPOINT_MEMBERS = ['count', 'kid', 'last_entry_hash', 'session_id', 'sig', 'ts', 'type', 'v']
const JWK_MEMBERS = ['crv', 'kty', 'x']
export const KID_PATTERN = /^[A-Za-z0-9_-]{43}$/
export const HASH_PATTERN = /^sha256:[0-9a-f]{64}$/
const SIG_PATTERN = /^[A-Za-z0-9_-]{86}$/
const TS_PATTERN = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?Z$/
export const MAX_SESSION_ID_CHARS = 128

export type CheckCode = 'bad_request' | 'bad_checkpoint_shape' | 'bad_checkpoint_field' | 'bad_jwk' | 'kid_mismatch' | 'bad_signature'

export interface Checkpoint {
  v: string
  type: string
  session_id: string
  count: number
  last_entry_hash: string
  ts: string
  kid: string
  sig: string
}

export type CheckFailure = { ok: false; code: CheckCode; message: string }
export type CheckResult<T> = { ok: true; value: T } | CheckFailure

const fail = (code: CheckCode, message: string): CheckFailure => ({ ok: false, code, message })
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)
const sameMembers = (object: Record<string, unknown>, members: string[]) => {
  const keys = Object.keys(object).sort()
  return keys.length === members.length && keys.every((key, index) => key === members[index])
}

/** Content-Type is application/json, with or without parameters (media types are case-insensitive). */
export function jsonContentType(header: string | null): boolean {
  return header !== null && /^application\/json\s*(;|$)/i.test(header.trim())
}

/** Check 1 after the size limit: JSON, an object, exactly {checkpoint, public_key_jwk}. */
export function checkBody(bytes: Uint8Array): CheckResult<{ checkpoint: unknown; public_key_jwk: unknown }> {
  if (bytes.length > MAX_BODY_BYTES) return fail('bad_request', `body is over ${MAX_BODY_BYTES} bytes`)
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    return fail('bad_request', 'body is not valid UTF-8')
  }
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    return fail('bad_request', 'body is not valid JSON')
  }
  if (!isObject(body)) return fail('bad_request', 'body must be a JSON object')
  if (hasDuplicateMember(text)) return fail('bad_request', 'body repeats a member name')
  if (!sameMembers(body, ['checkpoint', 'public_key_jwk'])) return fail('bad_request', 'body must have exactly the members checkpoint and public_key_jwk')
  return { ok: true, value: body as { checkpoint: unknown; public_key_jwk: unknown } }
}

/** A finite UTC instant whose fields are all in range (no 25:00, no 30 February, no leap second). */
export function validTimestamp(ts: string): boolean {
  const match = TS_PATTERN.exec(ts)
  if (!match) return false
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [number, number, number, number, number, number]
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59 || day < 1) return false
  return isRealDate(year, month, day) && Number.isFinite(utcMs(year, month, day, hour, minute, second))
}

/** Checks 2 and 3: shape, then every field rule of 2.1. */
export function checkCheckpoint(value: unknown): CheckResult<{ checkpoint: Checkpoint; signature: Uint8Array }> {
  if (!isObject(value) || !sameMembers(value, CHECKPOINT_MEMBERS)) return fail('bad_checkpoint_shape', `checkpoint must be an object with exactly the members ${CHECKPOINT_MEMBERS.join(', ')}`)
  const c = value
  if (c.v !== CHECKPOINT_VERSION) return fail('bad_checkpoint_field', `v must be '${CHECKPOINT_VERSION}'`)
  if (c.type !== 'checkpoint') return fail('bad_checkpoint_field', "type must be 'checkpoint'")
  if (typeof c.session_id !== 'string' || !c.session_id.isWellFormed()) return fail('bad_checkpoint_field', 'session_id must be a string of Unicode characters')
  const length = [...c.session_id].length
  if (length < 1 || length > MAX_SESSION_ID_CHARS) return fail('bad_checkpoint_field', `session_id must be 1 to ${MAX_SESSION_ID_CHARS} characters`)
  if (typeof c.count !== 'number' || !Number.isSafeInteger(c.count) || c.count < 1) return fail('bad_checkpoint_field', 'count must be a JSON number that is a safe integer >= 1')
  if (typeof c.last_entry_hash !== 'string' || !HASH_PATTERN.test(c.last_entry_hash)) return fail('bad_checkpoint_field', 'last_entry_hash must match ^sha256:[0-9a-f]{64}$')
  if (typeof c.ts !== 'string' || !validTimestamp(c.ts)) return fail('bad_checkpoint_field', 'ts must be a real UTC instant YYYY-MM-DDTHH:MM:SS[.fraction]Z')
  if (typeof c.kid !== 'string' || !KID_PATTERN.test(c.kid)) return fail('bad_checkpoint_field', 'kid must be the bare 43-character RFC 7638 thumbprint')
  const signature = typeof c.sig === 'string' && SIG_PATTERN.test(c.sig) ? base64urlToBytes(c.sig) : null
  if (!signature || signature.length !== 64) return fail('bad_checkpoint_field', 'sig must be 86 characters of unpadded base64url encoding 64 bytes')
  return { ok: true, value: { checkpoint: c as unknown as Checkpoint, signature } }
}

/** Check 4: exactly kty, crv, x; x is 32 bytes in canonical unpadded base64url. */
export function checkJwk(value: unknown): CheckResult<{ jwk: { kty: string; crv: string; x: string }; publicKey: Uint8Array }> {
  if (!isObject(value) || !sameMembers(value, JWK_MEMBERS)) return fail('bad_jwk', 'public_key_jwk must have exactly the members kty, crv and x')
  if (value.kty !== 'OKP' || value.crv !== 'Ed25519') return fail('bad_jwk', "public_key_jwk must be kty 'OKP', crv 'Ed25519'")
  const publicKey = typeof value.x === 'string' && KID_PATTERN.test(value.x) ? base64urlToBytes(value.x) : null
  if (!publicKey || publicKey.length !== 32) return fail('bad_jwk', 'x must be 43 characters of unpadded base64url encoding 32 bytes')
  return { ok: true, value: { jwk: value as { kty: string; crv: string; x: string }, publicKey } }
}

export interface VerifiedSubmission {
  checkpoint: Checkpoint
  /** JCS bytes of the full checkpoint, sig included (hashed into checkpoint_sha256). */
  checkpointJcs: string
}

/** Checks 2 to 6 on a body that passed check 1. */
export function checkSubmission(body: { checkpoint: unknown; public_key_jwk: unknown }): CheckResult<VerifiedSubmission> {
  const shaped = checkCheckpoint(body.checkpoint)
  if (!shaped.ok) return shaped
  const key = checkJwk(body.public_key_jwk)
  if (!key.ok) return key
  const { checkpoint, signature } = shaped.value
  if (jwkThumbprint(key.value.jwk) !== checkpoint.kid) return fail('kid_mismatch', 'checkpoint.kid is not the RFC 7638 thumbprint of public_key_jwk')
  const { sig: _sig, ...unsigned } = checkpoint
  if (!verifyStrict(key.value.publicKey, utf8(jcsFlat(unsigned)), signature)) return fail('bad_signature', 'sig is not a valid strict Ed25519 signature of the checkpoint without sig')
  return { ok: true, value: { checkpoint, checkpointJcs: jcsFlat({ ...checkpoint }) } }
}
