// Tile geometry and encodings of c2sp.org/tlog-tiles: tiles of height 8 (256 hashes), the path
// of a tile or entry bundle, and the entry-bundle format.
//   tile L/N        = MTH(D[(N·256 + i)·256^L : (N·256 + i + 1)·256^L]) for i in 0..255 (32 bytes each)
//   path of N       = groups of three digits, all but the last prefixed with "x": 1234067 → x001/x234/067
//   partial tile    = the first W (1..255) hashes, at <path>.p/<W>
//   entry bundle    = each entry as a big-endian uint16 length and its bytes

export const TILE_HEIGHT = 8
export const TILE_WIDTH = 256
export const HASH_SIZE = 32
/** Level under which entry bundles are kept beside hash tiles. */
export const ENTRIES_LEVEL = -1
/** An entry must fit its uint16 length prefix. */
export const MAX_ENTRY_BYTES = 0xffff

export function encodeIndex(index: number | bigint): string {
  let digits = BigInt(index).toString()
  digits = digits.padStart(Math.ceil(digits.length / 3) * 3, '0')
  const groups = digits.match(/.{3}/g)!
  return groups.map((group, i) => (i < groups.length - 1 ? `x${group}` : group)).join('/')
}

/** `tile/<L>/<N>[.p/<W>]`, or `tile/entries/<N>[.p/<W>]` for level ENTRIES_LEVEL; W = 256 is a full tile. */
export function tilePath(level: number, index: number | bigint, width = TILE_WIDTH): string {
  const suffix = width < TILE_WIDTH ? `.p/${width}` : ''
  return `tile/${level === ENTRIES_LEVEL ? 'entries' : level}/${encodeIndex(index)}${suffix}`
}

export interface TileAddress {
  /** 0..63, or ENTRIES_LEVEL. */
  level: number
  index: bigint
  /** 1..255 for a partial tile, 256 for a full one. */
  width: number
}

/** Parses the level segment and the rest of a tile path; null for anything the spec does not allow, a non-canonical index among them. */
export function parseTilePath(levelText: string, rest: string): TileAddress | null {
  let level: number
  if (levelText === 'entries') level = ENTRIES_LEVEL
  else if (/^(0|[1-9][0-9]?)$/.test(levelText) && Number(levelText) <= 63) level = Number(levelText)
  else return null
  let width = TILE_WIDTH
  const partial = /^(.*)\.p\/([1-9][0-9]{0,2})$/.exec(rest)
  if (partial) {
    width = Number(partial[2])
    if (width > 255) return null
    rest = partial[1]!
  }
  const groups = rest.split('/')
  if (!groups.every((group, i) => (i < groups.length - 1 ? /^x[0-9]{3}$/ : /^[0-9]{3}$/).test(group))) return null
  const index = BigInt(groups.map((group) => group.replace('x', '')).join(''))
  // The index of a tile fits in 64 bits (as tree sizes do).
  if (index >= 1n << 64n) return null
  // One path per tile: leading zero groups (x000/…) would give every tile thousands of aliases,
  // each cached for a year; the spec's encoding has none.
  if (encodeIndex(index) !== rest) return null
  return { level, index, width }
}

/** Leaves (or level-L hashes) a tile's one hash stands for: 256^L. */
export const leavesPerHash = (level: number) => TILE_WIDTH ** Math.max(level, 0)

/** Hashes of tile `index` at `level` in a tree of `size` leaves: 0..256 (entry bundles count like level 0). */
export function tileWidth(level: number, index: number, size: number): number {
  const hashes = Math.floor(size / leavesPerHash(level))
  return Math.max(0, Math.min(TILE_WIDTH, hashes - index * TILE_WIDTH))
}

/** Concatenates entries, each with its big-endian uint16 length. */
export function encodeBundle(entries: readonly Uint8Array[]): Uint8Array {
  let length = 0
  for (const entry of entries) {
    if (entry.length > MAX_ENTRY_BYTES) throw new RangeError(`a log entry is ${entry.length} bytes; at most ${MAX_ENTRY_BYTES} fit an entry bundle`)
    length += 2 + entry.length
  }
  const out = new Uint8Array(length)
  const view = new DataView(out.buffer)
  let at = 0
  for (const entry of entries) {
    view.setUint16(at, entry.length)
    out.set(entry, at + 2)
    at += 2 + entry.length
  }
  return out
}

/** The entries of a bundle; null when the lengths do not add up to the bytes exactly. */
export function decodeBundle(bytes: Uint8Array): Uint8Array[] | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const entries: Uint8Array[] = []
  let at = 0
  while (at < bytes.length) {
    if (at + 2 > bytes.length) return null
    const length = view.getUint16(at)
    if (at + 2 + length > bytes.length) return null
    entries.push(bytes.subarray(at + 2, at + 2 + length))
    at += 2 + length
  }
  return entries
}

/** The 32-byte hashes of a tile's bytes; null when the length is not a whole number of hashes. */
export function tileHashes(bytes: Uint8Array): Uint8Array[] | null {
  if (bytes.length % HASH_SIZE !== 0) return null
  const hashes: Uint8Array[] = []
  for (let at = 0; at < bytes.length; at += HASH_SIZE) hashes.push(bytes.subarray(at, at + HASH_SIZE))
  return hashes
}

export function joinHashes(hashes: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(hashes.length * HASH_SIZE)
  hashes.forEach((hash, i) => out.set(hash, i * HASH_SIZE))
  return out
}
