// Byte helpers with no runtime dependency, so the package runs unchanged in Bun, Node (20 and
// later) and browsers: UTF-8, strict standard base64 (RFC 4648 section 4), lowercase hex.

/** UTF-8 bytes of a string (lone surrogates become U+FFFD, as TextEncoder does). */
export function utf8(text: string): Uint8Array {
  const out: number[] = []
  for (let i = 0; i < text.length; i++) {
    let code = text.charCodeAt(i)
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const low = text.charCodeAt(i + 1)
      if (low >= 0xdc00 && low <= 0xdfff) {
        code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00)
        i++
      } else code = 0xfffd
    } else if (code >= 0xd800 && code <= 0xdfff) code = 0xfffd
    if (code < 0x80) out.push(code)
    else if (code < 0x800) out.push(0xc0 | (code >> 6), 0x80 | (code & 63))
    else if (code < 0x10000) out.push(0xe0 | (code >> 12), 0x80 | ((code >> 6) & 63), 0x80 | (code & 63))
    else out.push(0xf0 | (code >> 18), 0x80 | ((code >> 12) & 63), 0x80 | ((code >> 6) & 63), 0x80 | (code & 63))
  }
  return Uint8Array.from(out)
}

/** The string of valid UTF-8 bytes; null for anything that is not well-formed UTF-8. */
export function fromUtf8(bytes: Uint8Array): string | null {
  let out = ''
  for (let i = 0; i < bytes.length; ) {
    const first = bytes[i]!
    const need = first < 0x80 ? 0 : first >= 0xc2 && first <= 0xdf ? 1 : first >= 0xe0 && first <= 0xef ? 2 : first >= 0xf0 && first <= 0xf4 ? 3 : -1
    if (need < 0 || i + need >= bytes.length) return null
    let code = need === 0 ? first : first & (0x3f >> need)
    for (let k = 1; k <= need; k++) {
      const next = bytes[i + k]
      if (next === undefined || (next & 0xc0) !== 0x80) return null
      code = (code << 6) | (next & 63)
    }
    // Overlong forms, surrogates and code points past U+10FFFF are not UTF-8.
    if ((need === 2 && code < 0x800) || (need === 3 && (code < 0x10000 || code > 0x10ffff)) || (code >= 0xd800 && code <= 0xdfff)) return null
    out += String.fromCodePoint(code)
    i += need + 1
  }
  return out
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
const DECODE = new Map([...ALPHABET].map((char, i) => [char, i]))

export function toBase64(bytes: Uint8Array): string {
  let out = ''
  for (let i = 0; i < bytes.length; i += 3) {
    const [a, b, c] = [bytes[i]!, bytes[i + 1], bytes[i + 2]]
    const n = (a << 16) | ((b ?? 0) << 8) | (c ?? 0)
    out += ALPHABET[(n >> 18) & 63]! + ALPHABET[(n >> 12) & 63]! + (b === undefined ? '=' : ALPHABET[(n >> 6) & 63]!) + (c === undefined ? '=' : ALPHABET[n & 63]!)
  }
  return out
}

/** Standard padded base64 that re-encodes to exactly the same text; null otherwise (stray bits, bad padding, other characters). */
export function fromBase64(text: string): Uint8Array | null {
  if (text.length % 4 !== 0) return null
  const out: number[] = []
  for (let i = 0; i < text.length; i += 4) {
    const chunk = text.slice(i, i + 4)
    const pad = chunk.endsWith('==') ? 2 : chunk.endsWith('=') ? 1 : 0
    if (pad && i + 4 !== text.length) return null
    let n = 0
    for (let k = 0; k < 4; k++) {
      const value = k >= 4 - pad ? 0 : DECODE.get(chunk[k]!)
      if (value === undefined) return null
      n = (n << 6) | value
    }
    out.push((n >> 16) & 255)
    if (pad < 2) out.push((n >> 8) & 255)
    if (pad < 1) out.push(n & 255)
  }
  const bytes = Uint8Array.from(out)
  return toBase64(bytes) === text ? bytes : null
}

export function toHex(bytes: Uint8Array): string {
  let out = ''
  for (const byte of bytes) out += byte.toString(16).padStart(2, '0')
  return out
}

/** Lowercase hex of an even length; null otherwise. */
export function fromHex(text: string): Uint8Array | null {
  if (!/^(?:[0-9a-f]{2})*$/.test(text)) return null
  const out = new Uint8Array(text.length / 2)
  for (let i = 0; i < out.length; i++) out[i] = parseInt(text.slice(i * 2, i * 2 + 2), 16)
  return out
}

export function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0))
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    at += part.length
  }
  return out
}

export function equal(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  let diff = 0
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!
  return diff === 0
}

export const u32 = (bytes: Uint8Array, at = 0) => ((bytes[at]! << 24) >>> 0) + (bytes[at + 1]! << 16) + (bytes[at + 2]! << 8) + bytes[at + 3]!

/** Big-endian uint64 as a bigint. */
export function u64(bytes: Uint8Array, at = 0): bigint {
  let value = 0n
  for (let i = 0; i < 8; i++) value = (value << 8n) | BigInt(bytes[at + i]!)
  return value
}

export function u64Bytes(value: bigint | number): Uint8Array {
  let n = BigInt(value)
  const out = new Uint8Array(8)
  for (let i = 7; i >= 0; i--) {
    out[i] = Number(n & 255n)
    n >>= 8n
  }
  return out
}
