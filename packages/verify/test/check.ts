// What the package's cases share: a case, and checks that throw with what was got and wanted
// (no test framework, so the cases run unchanged in Bun, Node and a browser page).
import { fromBase64, fromHex, sha256, toBase64, toHex, utf8 } from '../src/index.js'

export interface Case {
  name: string
  run: () => void
}

export class Failed extends Error {}
export function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Failed(message)
}
export const same = (actual: unknown, expected: unknown, message: string) => check(JSON.stringify(actual) === JSON.stringify(expected), `${message}: got ${JSON.stringify(actual)}, want ${JSON.stringify(expected)}`)
export const b64 = (text: string) => fromBase64(text) ?? new Uint8Array()
/** The same bytes with one bit flipped. */
export const flipped = (bytes: Uint8Array, at = 0) => Uint8Array.from(bytes, (byte, i) => (i === at ? byte ^ 1 : byte))

/** Bytes of a lowercase hex string (possibly empty); a case fails on anything else. */
export function hexBytes(hex: string): Uint8Array {
  const bytes = fromHex(hex)
  if (!bytes) throw new Failed(`not hex: ${hex.slice(0, 20)}`)
  return bytes
}

export function throws(run: () => unknown): boolean {
  try {
    run()
    return false
  } catch {
    return true
  }
}

/** A well-formed Ed25519 cosigner vkey (type 0x04) of a made-up key, for policies: it never verifies anything. */
export function cosignerVkey(name: string, seed: number): string {
  const key = Uint8Array.from({ length: 32 }, (_, i) => (i * 7 + seed * 13) & 255)
  const type = 0x04
  const id = toHex(sha(name, type, key)).slice(0, 8)
  return `${name}+${id}+${toBase64(Uint8Array.of(type, ...key))}`
}
const sha = (name: string, type: number, key: Uint8Array) => sha256(Uint8Array.from([...utf8(name), 0x0a, type, ...key]))
