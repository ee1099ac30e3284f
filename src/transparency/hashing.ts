// The root of the empty tree, SHA-256("") (RFC 6962 section 2.1). Leaves and interior nodes are
// hashed by src/audit/merkle.ts (leafHash over an entry's bytes, nodeHash).
import { createHash } from 'node:crypto'

export const EMPTY_ROOT: Uint8Array = new Uint8Array(createHash('sha256').digest())
