// Ed25519 checkpoint cosignatures (c2sp.org/tlog-cosignature, "cosignature/v1"): a witness's
// timestamped statement that the checkpoint is the largest consistent tree it has seen of that
// log. The key id uses signature type 0x04, whatever type the vkey was published with.
//   signed message = "cosignature/v1\ntime <seconds>\n" ‖ checkpoint text
//   signature      = u64 big-endian timestamp ‖ Ed25519 signature
import type { KeyObject } from 'node:crypto'
import { signBytes, verifyStrict } from '../crypto/ed25519'
import { formatVkey, keyId, signatureLine, SIG_COSIGNATURE_V1, SIG_ED25519, validKeyName, type Note, type Vkey } from './note'

export function cosignedMessage(timestampSeconds: number, checkpointText: string): Buffer {
  return Buffer.from(`cosignature/v1\ntime ${timestampSeconds}\n${checkpointText}`, 'utf8')
}

/** A witness's cosigning key: its vkeys (0x01 form, as witness lists write them, and 0x04) and key id. */
export class Cosigner {
  /** Key id of its signature lines (type 0x04). */
  readonly keyId: number
  /** `<name>+<id>+base64(0x01 ‖ key)`: the form witness lists and transparency-dev tools take. */
  readonly vkey: string
  /** `<name>+<id>+base64(0x04 ‖ key)`: the form c2sp.org/tlog-cosignature defines. */
  readonly cosignatureVkey: string

  constructor(
    readonly name: string,
    private readonly privateKey: KeyObject,
    readonly publicKey: Uint8Array,
  ) {
    if (!validKeyName(name)) throw new TypeError(`not a note key name: ${name}`)
    this.keyId = keyId(name, SIG_COSIGNATURE_V1, publicKey)
    this.vkey = formatVkey(name, SIG_ED25519, publicKey)
    this.cosignatureVkey = formatVkey(name, SIG_COSIGNATURE_V1, publicKey)
  }

  /** The cosignature line over a checkpoint text at `timestampSeconds` (never zero). */
  cosign(checkpointText: string, timestampSeconds: number): string {
    if (!Number.isSafeInteger(timestampSeconds) || timestampSeconds <= 0) throw new RangeError('a cosignature needs a positive timestamp')
    const signature = signBytes(this.privateKey, cosignedMessage(timestampSeconds, checkpointText))
    const bytes = new Uint8Array(8 + 64)
    new DataView(bytes.buffer).setBigUint64(0, BigInt(timestampSeconds))
    bytes.set(signature, 8)
    return signatureLine(this.name, this.keyId, bytes)
  }
}

/** The cosigner key of a vkey of type 0x01 or 0x04: name, the 0x04 key id, the public key. */
export function cosignerKey(vkey: Vkey): { name: string; keyId: number; publicKey: Uint8Array } {
  return { name: vkey.name, keyId: keyId(vkey.name, SIG_COSIGNATURE_V1, vkey.publicKey), publicKey: vkey.publicKey }
}

/** The timestamp of cosignature bytes (after the key id: u64 seconds ‖ 64-byte signature); null when they are not that shape or the time is 0. */
export function cosignatureTimestamp(signature: Uint8Array): number | null {
  if (signature.length !== 72) return null
  const timestamp = new DataView(signature.buffer, signature.byteOffset, 8).getBigUint64(0)
  return timestamp === 0n || timestamp > BigInt(Number.MAX_SAFE_INTEGER) ? null : Number(timestamp)
}

/**
 * The timestamp of a valid cosignature by `key` on the note; null when none of its lines is one
 * (a line with the key's name and id that fails to verify also gives null).
 */
export function verifyCosignature(note: Note, key: { name: string; keyId: number; publicKey: Uint8Array }): number | null {
  for (const signature of note.signatures) {
    if (signature.name !== key.name || signature.keyId !== key.keyId || signature.signature.length !== 72) continue
    const timestamp = cosignatureTimestamp(signature.signature)
    if (timestamp === null || !verifyStrict(key.publicKey, cosignedMessage(timestamp, note.text), signature.signature.subarray(8))) return null
    return timestamp
  }
  return null
}
