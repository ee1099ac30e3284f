// C2SP signed notes (c2sp.org/signed-note) and verifier keys: the text, its signature lines,
// and the keys that verify them.
//   note   = text ending in "\n", a blank line, lines "— <name> base64(key id ‖ signature)\n"
//   key id = SHA-256(name ‖ "\n" ‖ signature type ‖ public key)[:4], big-endian
//   vkey   = <name>+<8 hex key id>+base64(signature type ‖ public key)
import { concat, fromBase64, toHex, u32, utf8 } from './bytes.js'
import { ML_DSA_44_PUBLIC_KEY_BYTES, sha256 } from './crypto.js'

/** Signature types: Ed25519 note signatures, Ed25519 cosignatures (cosignature/v1), ML-DSA-44 cosignatures (subtree/v1). */
export const SIG_ED25519 = 0x01
export const SIG_COSIGNATURE_ED25519 = 0x04
export const SIG_COSIGNATURE_ML_DSA_44 = 0x06

/** Verifiers must accept at least 16 signatures; more than this is refused as malformed. */
export const MAX_SIGNATURES = 100

/** Key names are non-empty, without Unicode spaces or '+'. */
export const validKeyName = (name: string) => name.length > 0 && !/[\s+\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/u.test(name)

export function keyId(name: string, type: number, publicKey: Uint8Array): number {
  return u32(sha256(concat(utf8(name), Uint8Array.of(0x0a, type), publicKey)))
}

export const hex8 = (id: number) => id.toString(16).padStart(8, '0')

export interface Vkey {
  name: string
  keyId: number
  type: number
  publicKey: Uint8Array
  /** The vkey as written. */
  text: string
}

const KEY_LENGTH: Record<number, number> = { [SIG_ED25519]: 32, [SIG_COSIGNATURE_ED25519]: 32, [SIG_COSIGNATURE_ML_DSA_44]: ML_DSA_44_PUBLIC_KEY_BYTES }

/** A vkey of type 0x01, 0x04 or 0x06 whose key id matches; null for anything else. */
export function parseVkey(text: string): Vkey | null {
  const match = /^([^+]*)\+([^+]*)\+(.*)$/s.exec(text)
  if (!match) return null
  const [, name, id, key] = match as unknown as [string, string, string, string]
  if (!validKeyName(name) || !/^[0-9a-f]{8}$/.test(id)) return null
  const bytes = fromBase64(key)
  const type = bytes?.[0]
  if (!bytes || type === undefined || KEY_LENGTH[type] !== bytes.length - 1) return null
  const publicKey = bytes.subarray(1)
  if (parseInt(id, 16) !== keyId(name, type, publicKey)) return null
  return { name, keyId: parseInt(id, 16), type, publicKey, text }
}

export interface NoteSignature {
  name: string
  keyId: number
  /** The bytes after the key id. */
  signature: Uint8Array
  /** The whole line, "— …\n". */
  line: string
}

export interface Note {
  /** The signed text, final newline included. */
  text: string
  signatures: NoteSignature[]
}

/** A signed note's text and signature lines; null when it is malformed. */
export function parseNote(message: string): Note | null {
  if (/[\u0000-\u0009\u000b-\u001f]/.test(message) || !message.endsWith('\n')) return null
  const split = message.lastIndexOf('\n\n')
  if (split < 0) return null
  const lines = message.slice(split + 2).split('\n')
  lines.pop()
  if (!lines.length || lines.length > MAX_SIGNATURES) return null
  const signatures: NoteSignature[] = []
  for (const line of lines) {
    const match = /^\u2014 (\S+) (\S+)$/u.exec(line)
    if (!match || !validKeyName(match[1]!)) return null
    const bytes = fromBase64(match[2]!)
    if (!bytes || bytes.length < 5) return null
    signatures.push({ name: match[1]!, keyId: u32(bytes), signature: bytes.subarray(4), line: `${line}\n` })
  }
  return { text: message.slice(0, split + 1), signatures }
}

export const describeKey = (key: Vkey) => `${key.name}+${hex8(key.keyId)}`
export const keyHex = (key: Vkey) => toHex(key.publicKey)
