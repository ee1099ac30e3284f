// The log's read path: tiles and entry bundles for the HTTP surface and the hashes proofs are
// made of. Full tiles never change, so each node keeps the ones it read in a bounded cache and
// asks the database once per tile; partial tiles are prefixes of the edge (or of a full tile
// once it is complete), read per request. The latest checkpoint is read at most once a second.
import { gunzipSync } from 'node:zlib'
import { rootOf } from '../audit/merkle'
import { BoundedCache } from '../http/bounded-cache'
import type { NodeSource } from './proofs'
import type { LogState, TileStore } from './store'
import { decodeBundle, encodeBundle, ENTRIES_LEVEL, HASH_SIZE, leavesPerHash, TILE_HEIGHT, TILE_WIDTH, tileWidth } from './tiles'

const CACHED_TILES = 4096
const STATE_CACHE_MS = 500
/**
 * Full bundles decoded for clients that do not take gzip (and for partial reads of a full
 * bundle): gunzipping one on every request made a 20-connection flood the server's main work.
 * A decoded bundle is 256 receipts, about 150 KB; the newest few cover the usual readers.
 */
export const DECODED_BUNDLES = { maxEntries: 64, maxBytes: 16 * 2 ** 20 }

export type TileBody = { data: Uint8Array; gzip: boolean }

export class TileReader {
  private readonly tiles = new Map<string, Uint8Array>()
  private readonly decoded = new BoundedCache<number, Uint8Array>(DECODED_BUNDLES, (bundle) => bundle.byteLength)
  /** Bundles gunzipped since start (cache misses of `decodedBundle`). */
  gunzipped = 0
  private state: { at: number; value: Promise<LogState> } | null = null

  constructor(private readonly store: TileStore) {}

  /** The log state, fresh within STATE_CACHE_MS (the checkpoint surface and the proof bounds read it). */
  latest(): Promise<LogState> {
    // A cache, so the machine's monotonic time (tests freeze the service clock).
    const now = performance.now()
    if (!this.state || now - this.state.at >= STATE_CACHE_MS) {
      const value = this.store.state()
      this.state = { at: now, value }
      value.catch(() => {
        if (this.state?.value === value) this.state = null
      })
    }
    return this.state.value
  }

  /** Drops the cached state (the publisher on this node has just stored a checkpoint). */
  forget(): void {
    this.state = null
  }

  /** A full tile (or bundle, gzip) from the cache or the store. */
  private async full(level: number, index: number): Promise<Uint8Array | null> {
    const key = `${level}/${index}`
    const cached = this.tiles.get(key)
    if (cached) return cached
    const data = await this.store.tile(level, index)
    if (data) {
      this.tiles.set(key, data)
      if (this.tiles.size > CACHED_TILES) this.tiles.delete(this.tiles.keys().next().value!)
    }
    return data
  }

  /** Full entry bundle `index` decoded, given its stored (gzip) bytes: from the cache, or gunzipped once. */
  decodedBundle(index: number, gzipped: Uint8Array): Uint8Array {
    let plain = this.decoded.get(index)
    if (!plain) {
      plain = gunzipSync(gzipped)
      this.gunzipped++
      this.decoded.set(index, plain)
    }
    return plain
  }

  /**
   * The first `width` hashes (entries) of tile `index` at `level`, if a tree of `size` has them:
   * the full tile when it is complete, else the stored edge. Null beyond the tree.
   */
  async tile(level: number, index: number, width: number, size: number): Promise<TileBody | null> {
    const available = tileWidth(level, index, size)
    if (available < width) return null
    const full = await this.full(level, index)
    if (full) {
      if (width === TILE_WIDTH) return { data: full, gzip: level === ENTRIES_LEVEL }
      return { data: level === ENTRIES_LEVEL ? encodeBundle(decodeBundle(this.decodedBundle(index, full))!.slice(0, width)) : full.subarray(0, width * HASH_SIZE), gzip: false }
    }
    if (width === TILE_WIDTH) return null
    const edge = (await this.store.edge()).find((tile) => tile.level === level && tile.index === index)
    if (!edge || edge.width < width) {
      // The edge moved past this tile meanwhile: it is full now.
      const now = await this.full(level, index)
      if (!now) return null
      return this.tile(level, index, width, size)
    }
    return { data: level === ENTRIES_LEVEL ? encodeBundle(decodeBundle(edge.data)!.slice(0, width)) : edge.data.subarray(0, width * HASH_SIZE), gzip: false }
  }

  /** Hashes of perfect subtrees of the tree of `size`, read from tiles (memoised for one proof). */
  nodes(size: number): NodeSource {
    const memo = new Map<string, Promise<Uint8Array[]>>()
    const hashesOf = (level: number, index: number, width: number) => {
      const key = `${level}/${index}/${width}`
      let hashes = memo.get(key)
      if (!hashes) {
        hashes = this.tile(level, index, width, size).then((body) => {
          if (!body) throw new Error(`transparency: tile ${level}/${index} (${width} hashes) is missing from a tree of ${size}`)
          return Array.from({ length: width }, (_, i) => body.data.subarray(i * HASH_SIZE, (i + 1) * HASH_SIZE))
        })
        memo.set(key, hashes)
      }
      return hashes
    }
    return {
      async node(height, index) {
        const level = Math.floor(height / TILE_HEIGHT)
        const span = 2 ** (height % TILE_HEIGHT)
        const first = index * span
        const tileIndex = Math.floor(first / TILE_WIDTH)
        const offset = first % TILE_WIDTH
        // Read as many hashes of the tile as the tree has (a full tile, or its partial prefix).
        const width = Math.min(TILE_WIDTH, tileWidth(level, tileIndex, size))
        if ((first + span) * leavesPerHash(level) > size) throw new RangeError(`node ${height}/${index} is not in a tree of ${size}`)
        const hashes = await hashesOf(level, tileIndex, width)
        return span === 1 ? hashes[offset]! : rootOf(hashes, offset, offset + span)
      },
    }
  }
}
