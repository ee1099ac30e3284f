// Building signed checkpoints the way a client would: @noble/ed25519, RFC 7638 thumbprints,
// JCS bytes. Independent of the service's own crypto code.
import * as ed from '@noble/ed25519'
import { sha512 } from '@noble/hashes/sha2.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { randomBytes } from 'node:crypto'

ed.hashes.sha512 = sha512

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url')

export interface ClientKey {
  seed: Uint8Array
  publicKey: Uint8Array
  jwk: { kty: 'OKP'; crv: 'Ed25519'; x: string }
  kid: string
}

export function clientKey(seed: Uint8Array = new Uint8Array(randomBytes(32))): ClientKey {
  const publicKey = ed.getPublicKey(seed)
  const jwk = { kty: 'OKP' as const, crv: 'Ed25519' as const, x: b64url(publicKey) }
  const kid = b64url(sha256(new TextEncoder().encode(`{"crv":"Ed25519","kty":"OKP","x":"${jwk.x}"}`)))
  return { seed, publicKey, jwk, kid }
}

/** Keys sorted, compact: JCS for this flat object. */
export function jcs(object: Record<string, unknown>): string {
  return JSON.stringify(Object.fromEntries(Object.keys(object).sort().map((key) => [key, object[key]])))
}

export const entryHash = (n: number, salt = '') => `sha256:${Buffer.from(sha256(new TextEncoder().encode(`entry-${n}-${salt}`))).toString('hex')}`

export interface CheckpointFields {
  session_id?: string
  count?: number
  last_entry_hash?: string
  ts?: string
}

export function signCheckpoint(key: ClientKey, fields: CheckpointFields = {}, overrides: Record<string, unknown> = {}) {
  const unsigned = {
    v: 'evidence.action/1',
    type: 'checkpoint',
    session_id: fields.session_id ?? 'session-1',
    count: fields.count ?? 1,
    last_entry_hash: fields.last_entry_hash ?? entryHash(fields.count ?? 1),
    ts: fields.ts ?? '2026-03-10T15:00:00.123Z',
    kid: key.kid,
    ...overrides,
  }
  const sig = b64url(ed.sign(new TextEncoder().encode(jcs(unsigned)), key.seed))
  return { ...unsigned, sig }
}

export function submission(key: ClientKey, fields: CheckpointFields = {}) {
  return { checkpoint: signCheckpoint(key, fields), public_key_jwk: key.jwk }
}

export const postJson = (body: unknown, headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: typeof body === 'string' ? body : JSON.stringify(body),
})
