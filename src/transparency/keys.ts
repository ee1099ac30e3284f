// The log's note key and the witness's cosigning key, both derived from the service's signing
// seed (HKDF-SHA-256, one purpose string each), so every node that holds the signing key signs
// with the same two keys and nothing else needs distributing. They sign nothing but checkpoints
// and cosignatures; receipts stay signed by the service key itself.
import type { Signer } from '../crypto/signer'
import { Cosigner } from './cosignature'
import { NoteSigner } from './note'

export const NOTE_KEY_PURPOSE = 'openbell transparency log note key v1'
export const WITNESS_KEY_PURPOSE = 'openbell witness cosigning key v1'

export interface LogKeys {
  origin: string
  /** Signs checkpoints; its key name is the origin. */
  note: NoteSigner
  /** Cosigns checkpoints of witnessed logs (and of this log). */
  witness: Cosigner
}

/** Null while the signer is offline (no checkpoint and no cosignature can be made). */
export function logKeys(signer: Signer, origin: string, witnessName: string): LogKeys | null {
  const note = signer.deriveKey(NOTE_KEY_PURPOSE)
  const witness = signer.deriveKey(WITNESS_KEY_PURPOSE)
  if (!note || !witness) return null
  return { origin, note: new NoteSigner(origin, note.privateKey, note.publicKey), witness: new Cosigner(witnessName, witness.privateKey, witness.publicKey) }
}

const hex8 = (id: number) => id.toString(16).padStart(8, '0')

/** What /v5/keys publishes about both keys. */
export function transparencyKeyDocument(keys: LogKeys | null) {
  if (!keys) return {}
  return {
    log_note_key: { origin: keys.origin, name: keys.note.name, key_id: hex8(keys.note.keyId), vkey: keys.note.vkey, algorithm: 'Ed25519', signature_type: '0x01 (c2sp.org/signed-note)' },
    witness_cosigning_key: {
      name: keys.witness.name,
      vkey: keys.witness.vkey,
      key_id: hex8(Number.parseInt(keys.witness.vkey.split('+')[1]!, 16)),
      cosignature_vkey: keys.witness.cosignatureVkey,
      cosignature_key_id: hex8(keys.witness.keyId),
      algorithm: 'Ed25519',
      signature_type: '0x04 (c2sp.org/tlog-cosignature, cosignature/v1); vkey is the 0x01 form witness lists use, cosignature_vkey the 0x04 form; signature lines carry cosignature_key_id',
    },
  }
}
