// Byte encodings used on the wire: lowercase hex and unpadded base64url, both strict.

const HEX = /^(?:[0-9a-f]{2})*$/
const BASE64URL = /^[A-Za-z0-9_-]*$/

export function bytesToHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')
}

/** Lowercase hex only; returns null for anything else (odd length, uppercase, other chars). */
export function hexToBytes(hex: string): Uint8Array | null {
  if (!HEX.test(hex)) return null
  return new Uint8Array(Buffer.from(hex, 'hex'))
}

export function bytesToBase64url(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64url')
}

/**
 * Unpadded base64url that re-encodes to exactly the same text; null otherwise. Node's decoder
 * silently ignores stray characters and non-zero trailing bits, so the round trip is the check.
 */
export function base64urlToBytes(text: string): Uint8Array | null {
  if (!BASE64URL.test(text) || text.length % 4 === 1) return null
  const bytes = new Uint8Array(Buffer.from(text, 'base64url'))
  return bytesToBase64url(bytes) === text ? bytes : null
}

export function utf8(text: string): Uint8Array {
  return Buffer.from(text, 'utf8')
}
