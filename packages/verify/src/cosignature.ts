// Note signatures that a verifier checks against a known key: plain Ed25519 (0x01) over the note
// text, Ed25519 cosignatures (0x04, "cosignature/v1") and ML-DSA-44 cosignatures (0x06,
// "subtree/v1"), both as c2sp.org/tlog-cosignature defines them.
//   0x04: signature = u64 timestamp ‖ Ed25519 over "cosignature/v1\ntime <t>\n" ‖ checkpoint text
//   0x06: signature = u64 timestamp ‖ ML-DSA-44 over the cosigned_message structure:
//         "subtree/v1\n\0" ‖ u8 len ‖ cosigner name ‖ u64 timestamp ‖ u8 len ‖ origin ‖ u64 start ‖ u64 end ‖ hash[32]
import { concat, u64, u64Bytes, utf8 } from './bytes.js'
import { ed25519Verify, ML_DSA_44_SIGNATURE_BYTES, mlDsa44Verify } from './crypto.js'
import { parseCheckpoint } from './checkpoint.js'
import { keyId, SIG_COSIGNATURE_ED25519, SIG_COSIGNATURE_ML_DSA_44, SIG_ED25519, type Note, type Vkey } from './note.js'

const SUBTREE_LABEL = utf8('subtree/v1\n\0')

/** The ML-DSA-44 signed message of c2sp.org/tlog-cosignature; null when a name is outside 1..255 bytes. */
export function subtreeMessage(cosignerName: string, timestamp: bigint | number, origin: string, start: bigint | number, end: bigint | number, hash: Uint8Array): Uint8Array | null {
  const name = utf8(cosignerName)
  const log = utf8(origin)
  if (name.length < 1 || name.length > 255 || log.length < 1 || log.length > 255 || hash.length !== 32) return null
  return concat(SUBTREE_LABEL, Uint8Array.of(name.length), name, u64Bytes(timestamp), Uint8Array.of(log.length), log, u64Bytes(start), u64Bytes(end), hash)
}

export const cosignatureV1Message = (timestamp: bigint | number, checkpointText: string) => utf8(`cosignature/v1\ntime ${timestamp}\n${checkpointText}`)

/** The key id a note's signature lines carry for this key (a 0x01 vkey used as a cosigner signs with the 0x04 id). */
export function lineKeyId(key: Vkey, asCosigner: boolean): number {
  return asCosigner && key.type === SIG_ED25519 ? keyId(key.name, SIG_COSIGNATURE_ED25519, key.publicKey) : key.keyId
}

export type SignatureCheck = { verdict: 'absent' } | { verdict: 'invalid' } | { verdict: 'valid'; timestamp: number | null }

const MAX_TIMESTAMP = 2n ** 63n - 1n

/**
 * How a note fares against one known key: 'valid' (a line with its name and key id verifies;
 * for cosignatures with its timestamp), 'invalid' (such a line fails, or is not the key's
 * signature shape: the note must be rejected), or 'absent'. `asCosigner`: a 0x01 key is read as
 * an Ed25519 cosigner (the witness lists' form) instead of a note signer.
 */
export function checkSignature(note: Note, key: Vkey, asCosigner = false): SignatureCheck {
  const id = lineKeyId(key, asCosigner)
  const lines = note.signatures.filter((line) => line.name === key.name && line.keyId === id)
  if (!lines.length) return { verdict: 'absent' }
  let timestamp: number | null = null
  for (const { signature } of lines) {
    const checked = verifyLine(note.text, key, asCosigner, signature)
    if (!checked.ok) return { verdict: 'invalid' }
    timestamp = checked.timestamp
  }
  return { verdict: 'valid', timestamp }
}

type LineResult = { ok: false } | { ok: true; timestamp: number | null }
const failed: LineResult = { ok: false }

function verifyLine(text: string, key: Vkey, asCosigner: boolean, signature: Uint8Array): LineResult {
  if (key.type === SIG_ED25519 && !asCosigner) return ed25519Verify(key.publicKey, utf8(text), signature) ? { ok: true, timestamp: null } : failed
  const timestamp = signature.length >= 8 ? u64(signature) : -1n
  if (timestamp < 0n || timestamp > MAX_TIMESTAMP) return failed
  const ok = (valid: boolean): LineResult => (valid ? { ok: true, timestamp: Number(timestamp) } : failed)
  if (key.type === SIG_COSIGNATURE_ML_DSA_44) {
    const checkpoint = parseCheckpoint(text)
    const message = checkpoint && subtreeMessage(key.name, timestamp, checkpoint.origin, 0, checkpoint.size, checkpoint.root)
    if (!message || signature.length !== 8 + ML_DSA_44_SIGNATURE_BYTES) return failed
    return ok(mlDsa44Verify(key.publicKey, message, signature.subarray(8)))
  }
  if (signature.length !== 72) return failed
  return ok(ed25519Verify(key.publicKey, cosignatureV1Message(timestamp, text), signature.subarray(8)))
}
