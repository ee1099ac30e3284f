// C2SP signed notes (c2sp.org/signed-note): text signed by one or more keys, verifier keys
// ("vkeys") and their 32-bit key ids. Used for the log's checkpoints, the witness's
// cosignatures and the checkpoints of the logs the witness follows.
//   note      = text ending in "\n", a blank line, then lines "— <name> base64(key id ‖ signature)\n"
//   key id    = SHA-256(name ‖ "\n" ‖ signature type ‖ public key)[:4], big-endian
//   vkey      = <name>+<8 hex key id>+base64(signature type ‖ public key)
import { createHash, type KeyObject } from 'node:crypto'
import { signBytes, verifyStrict } from '../crypto/ed25519'

/** Signature types of c2sp.org/signed-note: plain Ed25519, and Ed25519 timestamped cosignatures. */
export const SIG_ED25519 = 0x01
export const SIG_COSIGNATURE_V1 = 0x04

/** Verifiers must accept at least 16 signatures; more than this is refused as malformed. */
export const MAX_SIGNATURES = 100

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/

/** Standard base64 that re-encodes to exactly the same text (no stray or non-canonical bits); null otherwise. */
export function strictBase64(text: string): Uint8Array | null {
  if (!BASE64.test(text)) return null
  const bytes = new Uint8Array(Buffer.from(text, 'base64'))
  return Buffer.from(bytes).toString('base64') === text ? bytes : null
}

export const base64 = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64')

/** Key names are non-empty, without Unicode spaces or '+'. */
export function validKeyName(name: string): boolean {
  return name.length > 0 && !/[\s+\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/u.test(name)
}

export function keyId(name: string, type: number, publicKey: Uint8Array): number {
  const digest = createHash('sha256').update(name, 'utf8').update(Uint8Array.of(0x0a, type)).update(publicKey).digest()
  return digest.readUInt32BE(0)
}

export const hex8 = (id: number) => id.toString(16).padStart(8, '0')

export function formatVkey(name: string, type: number, publicKey: Uint8Array): string {
  return `${name}+${hex8(keyId(name, type, publicKey))}+${base64(Uint8Array.of(type, ...publicKey))}`
}

export interface Vkey {
  name: string
  /** The key id written in the vkey (it matches name, type and key). */
  keyId: number
  type: number
  publicKey: Uint8Array
}

/** Parses an Ed25519 vkey (type 0x01, or 0x04 for a cosigner); null for anything malformed. */
export function parseVkey(text: string): Vkey | null {
  // Names hold no '+'; the base64 key may.
  const match = /^([^+]*)\+([^+]*)\+(.*)$/s.exec(text)
  if (!match) return null
  const [, name, id, key] = match as unknown as [string, string, string, string]
  if (!validKeyName(name) || !/^[0-9a-f]{8}$/.test(id)) return null
  const bytes = strictBase64(key)
  if (!bytes || bytes.length !== 33 || (bytes[0] !== SIG_ED25519 && bytes[0] !== SIG_COSIGNATURE_V1)) return null
  const type = bytes[0]!
  const publicKey = bytes.subarray(1)
  const expected = keyId(name, type, publicKey)
  if (Number.parseInt(id, 16) !== expected) return null
  return { name, keyId: expected, type, publicKey }
}

export interface NoteSignature {
  name: string
  keyId: number
  /** The signature bytes after the key id. */
  signature: Uint8Array
  /** The whole line, "— …\n". */
  line: string
}

export interface Note {
  /** The signed text, final newline included. */
  text: string
  signatures: NoteSignature[]
}

/** Splits a signed note into its text and signature lines; null when it is malformed. */
export function parseNote(message: string): Note | null {
  // UTF-8 is given (a JS string); no control characters but newline.
  if (/[\u0000-\u0009\u000b-\u001f]/.test(message) || !message.endsWith('\n')) return null
  const split = message.lastIndexOf('\n\n')
  if (split < 0) return null
  const text = message.slice(0, split + 1)
  const lines = message.slice(split + 2).split('\n')
  lines.pop() // after the final newline
  if (!lines.length || lines.length > MAX_SIGNATURES) return null
  const signatures: NoteSignature[] = []
  for (const line of lines) {
    const match = /^\u2014 (\S+) (\S+)$/u.exec(line)
    if (!match || !validKeyName(match[1]!)) return null
    const bytes = strictBase64(match[2]!)
    if (!bytes || bytes.length < 5) return null
    signatures.push({ name: match[1]!, keyId: Buffer.from(bytes).readUInt32BE(0), signature: bytes.subarray(4), line: `${line}\n` })
  }
  return { text, signatures }
}

/** A signature line: "— <name> base64(key id ‖ signature)\n". */
export function signatureLine(name: string, id: number, signature: Uint8Array): string {
  const bytes = new Uint8Array(4 + signature.length)
  new DataView(bytes.buffer).setUint32(0, id)
  bytes.set(signature, 4)
  return `\u2014 ${name} ${base64(bytes)}\n`
}

/** An Ed25519 note signer (type 0x01): its vkey and the signature line over a text. */
export class NoteSigner {
  readonly keyId: number
  readonly vkey: string

  constructor(
    readonly name: string,
    private readonly privateKey: KeyObject,
    readonly publicKey: Uint8Array,
  ) {
    if (!validKeyName(name)) throw new TypeError(`not a note key name: ${name}`)
    this.keyId = keyId(name, SIG_ED25519, publicKey)
    this.vkey = formatVkey(name, SIG_ED25519, publicKey)
  }

  signatureLine(text: string): string {
    return signatureLine(this.name, this.keyId, signBytes(this.privateKey, Buffer.from(text, 'utf8')))
  }

  /** The signed note: the text, a blank line, the signature. */
  sign(text: string): string {
    return `${text}\n${this.signatureLine(text)}`
  }
}

/**
 * How a note's signatures fare against one trusted Ed25519 key: 'valid' (a line with its name
 * and key id verifies), 'invalid' (such a line fails: the note is to be rejected), 'absent'.
 * Every distinct line of the key is verified (c2sp.org/signed-note: a line whose name and key id
 * match a known key MUST be verified); a repeated identical line is the same statement and is
 * verified once (100 copies of one line cost 100 verifications before).
 */
export function checkNoteSignature(note: Note, key: Vkey): 'valid' | 'invalid' | 'absent' {
  if (key.type !== SIG_ED25519) return 'absent'
  const verified = new Set<string>()
  for (const signature of note.signatures) {
    if (signature.name !== key.name || signature.keyId !== key.keyId || verified.has(signature.line)) continue
    if (!verifyStrict(key.publicKey, Buffer.from(note.text, 'utf8'), signature.signature)) return 'invalid'
    verified.add(signature.line)
  }
  return verified.size ? 'valid' : 'absent'
}

/** The first signature line of `key` in the note (a key's line is kept once however often it was sent). */
export function signatureOf(note: Note, key: Pick<Vkey, 'name' | 'keyId'>): NoteSignature | null {
  return note.signatures.find((signature) => signature.name === key.name && signature.keyId === key.keyId) ?? null
}
