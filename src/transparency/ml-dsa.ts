// ML-DSA-44 cosignatures (c2sp.org/tlog-cosignature, type 0x06, "subtree/v1"): the log signs its
// checkpoints with one beside its Ed25519 note signature, and the witness cosigns with one beside
// its Ed25519 cosignature/v1. Keys come from 32-byte seeds derived from the signing seed
// (FIPS 204 ML-DSA.KeyGen_internal(seed), the seed-only PKCS#8 form), so every node holding the
// signing key signs with the same key; signing is native (node:crypto, BoringSSL in Bun: about
// 0.6 ms a signature here against 60 ms in JavaScript), and the verifier package checks it with
// @noble/post-quantum, an independent implementation.
import { createPrivateKey, createPublicKey, sign, type KeyObject } from 'node:crypto'
import { subtreeMessage } from '@openbell/verify'
import { parseCheckpoint } from './checkpoint'
import { formatVkey, keyId, signatureLine, validKeyName } from './note'

export const SIG_COSIGNATURE_ML_DSA_44 = 0x06

/** PKCS#8 of an ML-DSA-44 private key in its seed-only form (OID 2.16.840.1.101.3.4.3.17, [0] seed). */
const PKCS8_SEED_PREFIX = Buffer.from('30340201003' + '00b0609608648016503040311' + '04228020', 'hex')
/** SubjectPublicKeyInfo of an ML-DSA-44 key: this prefix, then the 1312-byte key. */
const SPKI_PREFIX_LENGTH = 22

export function mlDsa44KeyFromSeed(seed: Uint8Array): { privateKey: KeyObject; publicKey: Uint8Array } {
  if (seed.length !== 32) throw new RangeError('an ML-DSA-44 seed is 32 bytes')
  const privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_SEED_PREFIX, seed]), format: 'der', type: 'pkcs8' })
  const spki = createPublicKey(privateKey).export({ format: 'der', type: 'spki' })
  return { privateKey, publicKey: new Uint8Array(spki.subarray(SPKI_PREFIX_LENGTH)) }
}

/** An ML-DSA-44 cosigner: its vkey (type 0x06), key id, and signature lines over checkpoints and subtrees. */
export class MlDsaCosigner {
  readonly keyId: number
  readonly vkey: string
  readonly publicKey: Uint8Array
  private readonly privateKey: KeyObject

  constructor(
    readonly name: string,
    seed: Uint8Array,
  ) {
    if (!validKeyName(name)) throw new TypeError(`not a note key name: ${name}`)
    const key = mlDsa44KeyFromSeed(seed)
    this.privateKey = key.privateKey
    this.publicKey = key.publicKey
    this.keyId = keyId(name, SIG_COSIGNATURE_ML_DSA_44, key.publicKey)
    this.vkey = formatVkey(name, SIG_COSIGNATURE_ML_DSA_44, key.publicKey)
  }

  /** The signature line over [start, end) of `origin` with hash `hash` at `timestampSeconds` (0: no claim of being the largest tree; required when start > 0). */
  subtreeLine(origin: string, start: number, end: number, hash: Uint8Array, timestampSeconds: number): string {
    if (start > 0 && timestampSeconds !== 0) throw new RangeError('a subtree cosignature with start > 0 has timestamp 0')
    const message = subtreeMessage(this.name, timestampSeconds, origin, start, end, hash)
    if (!message) throw new RangeError('the cosigner name and the origin must be 1 to 255 bytes')
    const bytes = new Uint8Array(8 + 2420)
    new DataView(bytes.buffer).setBigUint64(0, BigInt(timestampSeconds))
    bytes.set(sign(null, message, this.privateKey), 8)
    return signatureLine(this.name, this.keyId, bytes)
  }

  /** The cosignature line over a whole checkpoint (start 0, end = its size) at `timestampSeconds`. */
  cosign(checkpointText: string, timestampSeconds: number): string {
    const checkpoint = parseCheckpoint(checkpointText)
    if (!checkpoint) throw new TypeError('not a checkpoint text')
    return this.subtreeLine(checkpoint.origin, 0, checkpoint.size, checkpoint.root, timestampSeconds)
  }
}
