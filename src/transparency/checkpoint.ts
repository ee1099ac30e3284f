// The checkpoint body (c2sp.org/tlog-checkpoint): origin, tree size, base64 root hash, each on
// its own line; extension lines after them are kept but not interpreted.
import { base64, strictBase64 } from './note'

export interface Checkpoint {
  origin: string
  size: number
  root: Uint8Array
  /** Extension lines, each with its newline (opaque; this service writes none). */
  extensions: string
}

export function checkpointText(origin: string, size: number, root: Uint8Array): string {
  return `${origin}\n${size}\n${base64(root)}\n`
}

/** Parses a checkpoint text (the note's text, final newline included); null when malformed. */
export function parseCheckpoint(text: string): Checkpoint | null {
  if (!text.endsWith('\n')) return null
  const lines = text.split('\n')
  lines.pop()
  if (lines.length < 3) return null
  const [origin, sizeText, rootText] = lines as [string, string, string]
  if (!origin || !/^(0|[1-9][0-9]{0,15})$/.test(sizeText)) return null
  const size = Number(sizeText)
  const root = strictBase64(rootText)
  if (!Number.isSafeInteger(size) || !root || root.length !== 32) return null
  const rest = lines.slice(3)
  if (rest.some((line) => line === '')) return null
  return { origin, size, root, extensions: rest.map((line) => `${line}\n`).join('') }
}
