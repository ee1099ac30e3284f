// The RFC 9162 section 2.1.3.2 inclusion check (the RFC 6962 algorithm written iteratively),
// over a node-hash function the caller gives: the service hashes with the runtime's SHA-256
// (merkle.ts); the verifier package (packages/verify) has its own. No runtime imports.

/** SHA-256(0x01 ‖ left ‖ right). */
export type NodeHash = (left: Uint8Array, right: Uint8Array) => Uint8Array

/**
 * Recomputes the root from a leaf hash, its index, the tree size and the audit path (siblings
 * from the bottom up). Null for any path that does not have exactly the right length.
 */
export function rootFromAuditPath(nodeHash: NodeHash, leaf: Uint8Array, index: number, size: number, path: readonly Uint8Array[]): Uint8Array | null {
  if (!Number.isSafeInteger(index) || !Number.isSafeInteger(size) || index < 0 || index >= size) return null
  let fn = index
  let sn = size - 1
  let r = leaf
  for (const p of path) {
    if (sn === 0) return null
    if (fn % 2 === 1 || fn === sn) {
      r = nodeHash(p, r)
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2)
          sn = Math.floor(sn / 2)
        }
      }
    } else {
      r = nodeHash(r, p)
    }
    fn = Math.floor(fn / 2)
    sn = Math.floor(sn / 2)
  }
  return sn === 0 ? r : null
}

export const HASH_HEX = /^[0-9a-f]{64}$/
