// The checkpoint body (c2sp.org/tlog-checkpoint): origin, tree size, base64 root hash, then
// optional non-empty extension lines.
import { fromBase64 } from './bytes.js'

export interface Checkpoint {
  origin: string
  size: number
  root: Uint8Array
  /** Extension lines, each with its newline (opaque). */
  extensions: string
}

export function parseCheckpoint(text: string): Checkpoint | null {
  if (!text.endsWith('\n')) return null
  const lines = text.split('\n')
  lines.pop()
  if (lines.length < 3) return null
  const [origin, sizeText, rootText] = lines as [string, string, string]
  if (!origin || !/^(0|[1-9][0-9]{0,15})$/.test(sizeText)) return null
  const size = Number(sizeText)
  const root = fromBase64(rootText)
  if (!Number.isSafeInteger(size) || !root || root.length !== 32) return null
  const rest = lines.slice(3)
  if (rest.some((line) => line === '')) return null
  return { origin, size, root, extensions: rest.map((line) => `${line}\n`).join('') }
}
