// Checkpoints, written from the public C2SP specifications (c2sp.org/signed-note,
// c2sp.org/tlog-checkpoint, c2sp.org/tlog-cosignature; ../shared/spec does not describe the
// transparency log) and the vkeys /v5/keys publishes. Like spec-verifier.ts it imports nothing of
// the service.
import { createHash } from 'node:crypto'
import { ed25519 } from './spec-verifier'

export interface Vkey {
  name: string
  keyId: number
  type: number
  publicKeyHex: string
}

/** `<name>+<8 hex key id>+base64(type ‖ key)`, its key id checked: SHA-256(name ‖ "\n" ‖ type ‖ key)[:4]. */
export function parseVkey(vkey: string): Vkey {
  // Key names hold no '+'; the base64 after the key id may.
  const [, name, id, encoded] = /^([^+]+)\+([0-9a-f]{8})\+(.+)$/.exec(vkey) ?? []
  if (!name || !id || !encoded) throw new Error(`not a vkey: ${vkey}`)
  const bytes = Buffer.from(encoded, 'base64')
  const expected = createHash('sha256').update(name, 'utf8').update(Buffer.from('\n')).update(bytes).digest().readUInt32BE(0)
  if (Number.parseInt(id, 16) !== expected) throw new Error(`the key id of ${vkey} is not SHA-256(name, newline, type, key)[:4]`)
  return { name, keyId: expected, type: bytes[0]!, publicKeyHex: bytes.subarray(1).toString('hex') }
}

export interface SignedNote {
  text: string
  lines: { name: string; keyId: number; signature: Buffer }[]
}

/** A note: text ending in a newline, a blank line, then "— <name> base64(key id ‖ signature)" lines. */
export function parseNote(note: string): SignedNote {
  const split = note.lastIndexOf('\n\n')
  if (split < 0 || !note.endsWith('\n')) throw new Error('not a signed note')
  const text = note.slice(0, split + 1)
  const lines = note
    .slice(split + 2, -1)
    .split('\n')
    .map((line) => {
      const match = /^\u2014 (\S+) (\S+)$/u.exec(line)
      if (!match) throw new Error(`not a signature line: ${line}`)
      const bytes = Buffer.from(match[2]!, 'base64')
      return { name: match[1]!, keyId: bytes.readUInt32BE(0), signature: bytes.subarray(4) }
    })
  return { text, lines }
}

/** The checkpoint body (tlog-checkpoint): origin, decimal size, base64 root hash. */
export function parseCheckpoint(text: string): { origin: string; size: number; rootHex: string } {
  const [origin, size, root] = text.split('\n')
  if (!origin || !/^(0|[1-9][0-9]*)$/.test(size ?? '') || !root) throw new Error('not a checkpoint body')
  return { origin, size: Number(size), rootHex: Buffer.from(root, 'base64').toString('hex') }
}

/** The Ed25519 (type 0x01) signature of `key` on the note verifies. */
export function noteSignedBy(note: SignedNote, key: Vkey): boolean {
  const line = note.lines.find((candidate) => candidate.name === key.name && candidate.keyId === key.keyId)
  return key.type === 0x01 && line !== undefined && ed25519(key.publicKeyHex, line.signature, Buffer.from(note.text, 'utf8'))
}

/**
 * The cosignature/v1 (type 0x04) of `key` on the note: the signature over "cosignature/v1\n",
 * "time <t>\n" and the note text, after the 8-byte big-endian timestamp t. Its timestamp, or null.
 */
export function cosignedBy(note: SignedNote, key: Vkey): number | null {
  const line = note.lines.find((candidate) => candidate.name === key.name && candidate.keyId === key.keyId)
  if (key.type !== 0x04 || !line || line.signature.length !== 72) return null
  const time = line.signature.readBigUInt64BE(0)
  const message = Buffer.from(`cosignature/v1\ntime ${time}\n${note.text}`, 'utf8')
  return ed25519(key.publicKeyHex, line.signature.subarray(8), message) ? Number(time) : null
}
