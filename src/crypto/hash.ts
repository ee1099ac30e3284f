// SHA-256 through the runtime's native hasher (several times faster than a JS implementation).
import { createHash } from 'node:crypto'

export function sha256(data: Uint8Array | string): Uint8Array {
  return new Uint8Array(createHash('sha256').update(data).digest())
}

export function sha256Hex(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('hex')
}
