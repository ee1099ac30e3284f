// Ed25519 public keys as JWKs (RFC 8037) and their RFC 7638 thumbprints.
import { bytesToBase64url } from './encoding'
import { sha256 } from './hash'

export interface Ed25519Jwk {
  kty: 'OKP'
  crv: 'Ed25519'
  x: string
}

export function ed25519Jwk(publicKey: Uint8Array): Ed25519Jwk {
  return { kty: 'OKP', crv: 'Ed25519', x: bytesToBase64url(publicKey) }
}

/** RFC 7638: SHA-256 over the required members in lexicographic order (crv, kty, x), base64url. */
export function jwkThumbprint(jwk: { crv: string; kty: string; x: string }): string {
  const text = `{"crv":${JSON.stringify(jwk.crv)},"kty":${JSON.stringify(jwk.kty)},"x":${JSON.stringify(jwk.x)}}`
  return bytesToBase64url(sha256(text))
}
