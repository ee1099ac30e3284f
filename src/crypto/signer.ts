// The Signer owns the signing key and its identity. It can be offline (key missing or unreadable):
// the service still starts, and everything that must sign fails closed.
import { hkdfSync, type KeyObject } from 'node:crypto'
import { canonicalPayload } from './canonical'
import { privateKeyFromSeed, rawPublicKey, signBytesHex } from './ed25519'
import { bytesToHex, utf8 } from './encoding'

export interface KeyDescription {
  keyId: string
  publicKey: Uint8Array
  publicKeyHex: string
  validFrom: string
  validUntil: string | null
}

export class SignerOfflineError extends Error {
  constructor(reason: string) {
    super(`signer offline: ${reason}`)
    this.name = 'SignerOfflineError'
  }
}

export type Signed<T extends Record<string, string>> = T & { signature: string }

export class Signer {
  private constructor(
    private readonly privateKey: KeyObject | null,
    /** Kept to derive the purpose keys (the transparency log's note key, the witness's cosigning key). */
    private readonly seed: Uint8Array | null,
    /** The current key; null only when no key could be read at all. */
    readonly key: KeyDescription | null,
    readonly offlineReason: string | null,
  ) {}

  static fromSeed(seed: Uint8Array, keyId: string, validFrom: string, validUntil: string | null): Signer {
    const privateKey = privateKeyFromSeed(seed)
    const publicKey = rawPublicKey(privateKey)
    return new Signer(privateKey, seed.slice(), { keyId, publicKey, publicKeyHex: bytesToHex(publicKey), validFrom, validUntil }, null)
  }

  static offline(reason: string): Signer {
    return new Signer(null, null, null, reason)
  }

  get online(): boolean {
    return this.privateKey !== null
  }

  /** Key id receipts carry; throws when offline (there is nothing to name). */
  get keyId(): string {
    if (!this.key) throw new SignerOfflineError(this.offlineReason ?? 'no key')
    return this.key.keyId
  }

  /**
   * An Ed25519 key for one purpose, derived from the signing seed with HKDF-SHA-256 (info =
   * `purpose`): every node holding the signing key derives the same one, and it never signs
   * receipts. Null when offline.
   */
  deriveKey(purpose: string): { privateKey: KeyObject; publicKey: Uint8Array } | null {
    const seed = this.deriveSeed(purpose)
    if (!seed) return null
    const privateKey = privateKeyFromSeed(seed)
    return { privateKey, publicKey: rawPublicKey(privateKey) }
  }

  /** 32 bytes for one purpose, HKDF-SHA-256 of the signing seed (info = `purpose`): the seed of a key of another algorithm. Null when offline. */
  deriveSeed(purpose: string): Uint8Array | null {
    if (!this.seed) return null
    return new Uint8Array(hkdfSync('sha256', this.seed, new Uint8Array(0), purpose, 32))
  }

  /** Ed25519 signature over UTF-8 bytes, as 128 lowercase hex characters. */
  signText(text: string): string {
    if (!this.privateKey) throw new SignerOfflineError(this.offlineReason ?? 'no key')
    return signBytesHex(this.privateKey, utf8(text))
  }

  /** Signs the canonical payload of an all-string object and returns it with `signature` added. */
  signFields<T extends Record<string, string>>(fields: T): Signed<T> {
    return { ...fields, signature: this.signText(canonicalPayload(fields)) }
  }
}
