// Appending entries to the tiled tree, as a pure function of the tree's right edge: the partial
// tile of every level and the partial entry bundle. Full tiles and bundles that the new entries
// complete come out once (they never change afterwards); the new right edge and root come out
// with them. The integrator job stores the result in one transaction.
import { leafHash, rootOf } from '../audit/merkle'
import { rootFromEdge } from './proofs'
import { encodeBundle, ENTRIES_LEVEL, joinHashes, leavesPerHash, TILE_WIDTH } from './tiles'

export interface Edge {
  size: number
  /** Per level from 0 up: the hashes of its partial tile (0 to 255 of them). */
  levels: Uint8Array[][]
  /** The entries of the partial entry bundle (0 to 255). */
  entries: Uint8Array[]
}

export interface TileBytes {
  /** 0..63 for hash tiles, ENTRIES_LEVEL for entry bundles. */
  level: number
  index: number
  /** Hashes (or the encoded bundle); full tiles hold 256. */
  data: Uint8Array
}

export interface PartialTileBytes extends TileBytes {
  width: number
}

export interface Integration {
  edge: Edge
  /** Tiles and bundles completed by these entries. */
  full: TileBytes[]
  /** The new right edge, one row per level that has a partial tile (and the partial bundle). */
  partials: PartialTileBytes[]
  root: Uint8Array
}

export const emptyEdge = (): Edge => ({ size: 0, levels: [], entries: [] })

export function appendEntries(previous: Edge, entries: readonly Uint8Array[]): Integration {
  return extend(previous, entries.length, (i) => leafHash(entries[i]!), (i) => entries[i]!)
}

/**
 * The hash part of appendEntries: leaf hashes appended to the edge, with no entries kept and no
 * bundles made (a monitor follows the tree from the hashes alone, so its memory does not grow
 * with the entries it reads). The edge's `entries` stay empty.
 */
export function appendLeafHashes(previous: Edge, hashes: readonly Uint8Array[]): Integration {
  return extend(previous, hashes.length, (i) => hashes[i]!, null)
}

function extend(previous: Edge, count: number, leafAt: (i: number) => Uint8Array, entryAt: ((i: number) => Uint8Array) | null): Integration {
  const edge: Edge = { size: previous.size, levels: previous.levels.map((level) => [...level]), entries: entryAt ? [...previous.entries] : [] }
  const full: TileBytes[] = []
  const add = (level: number, hash: Uint8Array, size: number) => {
    const hashes = (edge.levels[level] ??= [])
    hashes.push(hash)
    if (hashes.length < TILE_WIDTH) return
    // The tile is complete: its root is one hash of the level above.
    const index = size / leavesPerHash(level + 1) - 1
    full.push({ level, index, data: joinHashes(hashes) })
    edge.levels[level] = []
    add(level + 1, rootOf(hashes), size)
  }
  for (let i = 0; i < count; i++) {
    const size = edge.size + 1
    if (entryAt) {
      edge.entries.push(entryAt(i))
      if (edge.entries.length === TILE_WIDTH) {
        full.push({ level: ENTRIES_LEVEL, index: size / TILE_WIDTH - 1, data: encodeBundle(edge.entries) })
        edge.entries = []
      }
    }
    add(0, leafAt(i), size)
    edge.size = size
  }
  while (edge.levels.length && !edge.levels.at(-1)!.length) edge.levels.pop()
  const partials: PartialTileBytes[] = []
  edge.levels.forEach((hashes, level) => {
    if (hashes.length) partials.push({ level, index: Math.floor(edge.size / leavesPerHash(level + 1)), width: hashes.length, data: joinHashes(hashes) })
  })
  if (edge.entries.length) partials.push({ level: ENTRIES_LEVEL, index: Math.floor(edge.size / TILE_WIDTH), width: edge.entries.length, data: encodeBundle(edge.entries) })
  return { edge, full, partials, root: rootFromEdge(edge.levels) }
}
