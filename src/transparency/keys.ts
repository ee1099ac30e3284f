// The log's note keys and the witness's cosigning keys, all derived from the service's signing
// seed (HKDF-SHA-256, one purpose string each), so every node that holds the signing key signs
// with the same keys and nothing else needs distributing. Each role has an Ed25519 key and an
// ML-DSA-44 key (c2sp.org/tlog-cosignature, type 0x06) beside it; they sign nothing but
// checkpoints, cosignatures and subtrees; receipts stay signed by the service key itself.
import type { Signer } from '../crypto/signer'
import { Cosigner } from './cosignature'
import { MlDsaCosigner } from './ml-dsa'
import { NoteSigner } from './note'

export const NOTE_KEY_PURPOSE = 'openbell transparency log note key v1'
export const WITNESS_KEY_PURPOSE = 'openbell witness cosigning key v1'
export const NOTE_ML_DSA_PURPOSE = 'openbell transparency log ML-DSA-44 key v1'
export const WITNESS_ML_DSA_PURPOSE = 'openbell witness ML-DSA-44 cosigning key v1'

/** The witness's two keys: a checkpoint gets a cosignature line from each. */
export class WitnessCosigners {
  constructor(
    readonly ed25519: Cosigner,
    readonly mlDsa: MlDsaCosigner,
  ) {}

  get name(): string {
    return this.ed25519.name
  }

  /** Both cosignature lines over a checkpoint text, Ed25519 first. */
  cosign(checkpointText: string, timestampSeconds: number): string {
    return this.ed25519.cosign(checkpointText, timestampSeconds) + this.mlDsa.cosign(checkpointText, timestampSeconds)
  }
}

export interface LogKeys {
  origin: string
  /** Signs checkpoints; its key name is the origin. */
  note: NoteSigner
  /** Signs checkpoints with ML-DSA-44 (a cosignature of the log itself, named by the origin). */
  noteMlDsa: MlDsaCosigner
  /** Cosigns checkpoints of witnessed logs (and of this log). */
  witness: WitnessCosigners
}

/** Null while the signer is offline (no checkpoint and no cosignature can be made). */
export function logKeys(signer: Signer, origin: string, witnessName: string): LogKeys | null {
  const note = signer.deriveKey(NOTE_KEY_PURPOSE)
  const witness = signer.deriveKey(WITNESS_KEY_PURPOSE)
  const noteSeed = signer.deriveSeed(NOTE_ML_DSA_PURPOSE)
  const witnessSeed = signer.deriveSeed(WITNESS_ML_DSA_PURPOSE)
  if (!note || !witness || !noteSeed || !witnessSeed) return null
  return {
    origin,
    note: new NoteSigner(origin, note.privateKey, note.publicKey),
    noteMlDsa: new MlDsaCosigner(origin, noteSeed),
    witness: new WitnessCosigners(new Cosigner(witnessName, witness.privateKey, witness.publicKey), new MlDsaCosigner(witnessName, witnessSeed)),
  }
}

const hex8 = (id: number) => id.toString(16).padStart(8, '0')
const ML_DSA_TYPE = '0x06 (c2sp.org/tlog-cosignature, ML-DSA-44 subtree/v1 cosignature)'

/** What /v5/keys publishes about the keys. */
export function transparencyKeyDocument(keys: LogKeys | null) {
  if (!keys) return {}
  const ed = keys.witness.ed25519
  return {
    log_note_key: { origin: keys.origin, name: keys.note.name, key_id: hex8(keys.note.keyId), vkey: keys.note.vkey, algorithm: 'Ed25519', signature_type: '0x01 (c2sp.org/signed-note)' },
    log_ml_dsa_key: { origin: keys.origin, name: keys.noteMlDsa.name, key_id: hex8(keys.noteMlDsa.keyId), vkey: keys.noteMlDsa.vkey, algorithm: 'ML-DSA-44', signature_type: ML_DSA_TYPE },
    witness_cosigning_key: {
      name: ed.name,
      vkey: ed.vkey,
      key_id: hex8(Number.parseInt(ed.vkey.split('+')[1]!, 16)),
      cosignature_vkey: ed.cosignatureVkey,
      cosignature_key_id: hex8(ed.keyId),
      algorithm: 'Ed25519',
      signature_type: '0x04 (c2sp.org/tlog-cosignature, cosignature/v1); vkey is the 0x01 form witness lists use, cosignature_vkey the 0x04 form; signature lines carry cosignature_key_id',
    },
    witness_ml_dsa_key: { name: keys.witness.mlDsa.name, key_id: hex8(keys.witness.mlDsa.keyId), vkey: keys.witness.mlDsa.vkey, algorithm: 'ML-DSA-44', signature_type: ML_DSA_TYPE },
  }
}
