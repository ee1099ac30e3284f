// The calendar manifest: the text of a C2SP signed note (c2sp.org/signed-note) that lists every
// schedule file a source has in force, signed by the source's calendar-publisher key.
//
//   openbell calendar manifest v1
//   <publisher key name>
//   serial <n>
//   issued <ISO 8601 instant the serial was taken>
//   <MIC> <data_version> <SHA-256 of the file, hex> <size in bytes>     (one line per file, by MIC)
//
// The serial grows by one each time the set of files changes (publications.ts); a follower
// refuses one lower than the last it applied.
import { createHash } from 'node:crypto'

export const MANIFEST_HEADER = 'openbell calendar manifest v1'
/** The largest manifest a follower reads (a line is under 120 bytes; 64 KiB holds 500 venues). */
export const MAX_MANIFEST_BYTES = 64 * 1024
/** The largest schedule file a follower downloads (the largest today is about 21 KB). */
export const MAX_FILE_BYTES = 1024 * 1024
/** The most file lines a manifest may have. */
export const MAX_MANIFEST_FILES = 500

export interface ManifestFile {
  mic: string
  data_version: string
  sha256: string
  size: number
}

export interface Manifest {
  origin: string
  serial: number
  issued: string
  files: ManifestFile[]
}

/** The manifest's text (the signed note's body), files in MIC order. */
export function manifestText(manifest: Manifest): string {
  const files = [...manifest.files].sort((a, b) => (a.mic < b.mic ? -1 : 1))
  return [MANIFEST_HEADER, manifest.origin, `serial ${manifest.serial}`, `issued ${manifest.issued}`, ...files.map((file) => `${file.mic} ${file.data_version} ${file.sha256} ${file.size}`)].join('\n') + '\n'
}

const FILE_LINE = /^([A-Z0-9]{4}) ([0-9]{4}\.[0-9]{1,2}\.[0-9]+) ([0-9a-f]{64}) (0|[1-9][0-9]{0,9})$/
const ISSUED = /^issued (\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{3})?Z)$/

/** Parses a manifest text; a reason when it is malformed. */
export function parseManifest(text: string): { ok: true; manifest: Manifest } | { ok: false; reason: string } {
  if (!text.endsWith('\n')) return { ok: false, reason: 'the text does not end with a newline' }
  const lines = text.slice(0, -1).split('\n')
  if (lines[0] !== MANIFEST_HEADER) return { ok: false, reason: `the first line is not "${MANIFEST_HEADER}"` }
  const origin = lines[1] ?? ''
  if (!origin) return { ok: false, reason: 'no origin line' }
  const serialMatch = /^serial (0|[1-9][0-9]{0,15})$/.exec(lines[2] ?? '')
  if (!serialMatch || !Number.isSafeInteger(Number(serialMatch[1]))) return { ok: false, reason: 'no valid serial line' }
  const issued = ISSUED.exec(lines[3] ?? '')
  if (!issued || Number.isNaN(Date.parse(issued[1]!))) return { ok: false, reason: 'no valid issued line' }
  const fileLines = lines.slice(4)
  if (fileLines.length > MAX_MANIFEST_FILES) return { ok: false, reason: `more than ${MAX_MANIFEST_FILES} files` }
  const files: ManifestFile[] = []
  for (const line of fileLines) {
    const match = FILE_LINE.exec(line)
    if (!match) return { ok: false, reason: `malformed file line ${JSON.stringify(line.slice(0, 120))}` }
    const file = { mic: match[1]!, data_version: match[2]!, sha256: match[3]!, size: Number(match[4]) }
    if (files.length && files.at(-1)!.mic >= file.mic) return { ok: false, reason: 'file lines are not in strictly increasing MIC order' }
    files.push(file)
  }
  return { ok: true, manifest: { origin, serial: Number(serialMatch[1]), issued: issued[1]!, files } }
}

export const sha256Hex = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex')

/** The identity of a set of files (MIC, version, hash, size): equal sets get the same serial. */
export function fileSetHash(files: readonly ManifestFile[]): string {
  return sha256Hex([...files].sort((a, b) => (a.mic < b.mic ? -1 : 1)).map((file) => `${file.mic} ${file.data_version} ${file.sha256} ${file.size}\n`).join(''))
}
