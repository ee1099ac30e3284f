// SHA-256 through the runtime's native hasher (several times faster than a JS implementation).
// Bun.SHA256.hash is the one-shot form: about half the cost of createHash().update().digest()
// per call, which matters for the API key hashed on every keyed request. Strings are hashed as UTF-8.

export function sha256(data: Uint8Array | string): Uint8Array {
  const out = new Uint8Array(32)
  Bun.SHA256.hash(data, out)
  return out
}

export function sha256Hex(data: Uint8Array | string): string {
  return Bun.SHA256.hash(data, 'hex')
}
