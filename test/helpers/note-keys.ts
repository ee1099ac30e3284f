// Test keys in the Go note "PRIVATE+KEY+<name>+<id>+base64(type ‖ seed)" form that the published
// vectors (golang/mod, tessera, transparency-dev/witness) use.
import { privateKeyFromSeed, rawPublicKey } from '../../src/crypto/ed25519'
import { NoteSigner } from '../../src/transparency/note'
import { Cosigner } from '../../src/transparency/cosignature'
import { WitnessCosigners } from '../../src/transparency/keys'
import { MlDsaCosigner } from '../../src/transparency/ml-dsa'

export function parseSkey(skey: string): { name: string; seed: Uint8Array } {
  const match = /^PRIVATE\+KEY\+([^+]+)\+([0-9a-f]{8})\+(.+)$/.exec(skey)
  if (!match) throw new Error(`not a note signer key: ${skey}`)
  const bytes = new Uint8Array(Buffer.from(match[3]!, 'base64'))
  return { name: match[1]!, seed: bytes.subarray(1) }
}

export function noteSignerOf(skey: string): NoteSigner {
  const { name, seed } = parseSkey(skey)
  const privateKey = privateKeyFromSeed(seed)
  return new NoteSigner(name, privateKey, rawPublicKey(privateKey))
}

export function cosignerOf(skey: string): Cosigner {
  const { name, seed } = parseSkey(skey)
  const privateKey = privateKeyFromSeed(seed)
  return new Cosigner(name, privateKey, rawPublicKey(privateKey))
}

/** A witness's two keys for tests: the published Ed25519 key, and an ML-DSA-44 key from the same 32-byte seed. */
export function witnessCosignersOf(skey: string): WitnessCosigners {
  const { name, seed } = parseSkey(skey)
  return new WitnessCosigners(cosignerOf(skey), new MlDsaCosigner(name, seed))
}
