// A day's Merkle tree, built from aligned blocks of 1,024 leaves. A full block never changes
// (a day's rows only grow at the end), so its root is computed once and cached; the root of the
// day is the RFC 6962 root over the block roots (see rootOf), and a proof is the path inside the
// leaf's block followed by the path of the block among the block roots.
import type { AuditStore } from './store'
import { BLOCK_SIZE, MerkleLevel, auditPath, leafHash, rootOf, toHex } from './merkle'

export { BLOCK_SIZE }
const CACHED_DAYS = 16
/** A cached day with fewer blocks built from its rows than this is cheap to evict. */
const CHEAP_BLOCKS = 8

interface FullBlocks {
  roots: Uint8Array[]
  /** Log position of each full block's last row. */
  lastSeqs: number[]
  /** First 32 bits of each id of a block read here (null for a sealed block loaded from its stored root), to find an id without scanning the log. */
  prefixes: (Uint32Array | null)[]
  /** The block level of the tree last built at `size` leaves, its subtree roots kept (a day's rows only grow at the end, so the same size is the same tree). */
  level?: { size: number; level: MerkleLevel }
}

/** The first 32 bits of a receipt id (a UUID, hex first). */
const prefixOf = (receiptId: string) => Number.parseInt(receiptId.slice(0, 8), 16) >>> 0

export interface DayTree {
  size: number
  /** Full blocks in this tree (the shared cache may hold more once the day has grown). */
  fullCount: number
  rootHex: string
  /** The block roots (the last one of the tail when it has rows), as a level that keeps its subtree roots. */
  blocks: MerkleLevel
  full: FullBlocks
  tailIds: string[]
}

export class DayTrees {
  private readonly cache = new Map<string, FullBlocks>()

  constructor(private readonly store: AuditStore) {}

  /**
   * The day's tree as the log holds it now (for a sealed day: exactly what was sealed). Blocks
   * not cached yet are built one at a time with the event loop free in between (a day of a
   * million rows takes seconds to build cold); builders of the same day running at once share
   * the cached blocks, each block read and added without a gap in between.
   */
  async tree(day: string): Promise<DayTree> {
    let full = this.cache.get(day)
    if (!full) {
      // A sealed day's full blocks were stored at sealing; other days start empty.
      const stored = await this.store.blocks(day)
      full = this.cache.get(day) ?? { roots: stored.map((block) => new Uint8Array(Buffer.from(block.root, 'hex'))), lastSeqs: stored.map((block) => block.last_seq), prefixes: stored.map(() => null) }
    }
    this.cache.delete(day)
    this.cache.set(day, full)
    if (this.cache.size > CACHED_DAYS) this.evict()
    let tailIds: string[] = []
    for (;;) {
      const after = full.lastSeqs.at(-1) ?? 0
      const rows = await this.store.dayIds(day, after, BLOCK_SIZE)
      if ((full.lastSeqs.at(-1) ?? 0) !== after) continue // another builder added this block meanwhile
      if (rows.length < BLOCK_SIZE) {
        tailIds = rows.map((row) => row.receipt_id)
        break
      }
      full.roots.push(rootOf(rows.map((row) => leafHash(row.receipt_id))))
      full.lastSeqs.push(rows.at(-1)!.seq)
      full.prefixes.push(Uint32Array.from(rows, (row) => prefixOf(row.receipt_id)))
      await new Promise((resolve) => setImmediate(resolve))
    }
    const size = full.roots.length * BLOCK_SIZE + tailIds.length
    if (full.level?.size !== size) full.level = { size, level: new MerkleLevel(tailIds.length ? [...full.roots, rootOf(tailIds.map(leafHash))] : [...full.roots]) }
    const blocks = full.level.level
    return { size, fullCount: full.roots.length, rootHex: toHex(blocks.root()), blocks, full, tailIds }
  }

  /**
   * Drops the least recently used day that is cheap to load again (its blocks came from stored
   * roots, or it has few), so that reading many sealed days cannot make the blocks of a large
   * unsealed day be rebuilt from every row; the least recently used day when none is cheap.
   */
  private evict(): void {
    let victim: string | undefined
    for (const [day, blocks] of this.cache) {
      if (blocks.prefixes.filter((prefixes) => prefixes !== null).length < CHEAP_BLOCKS) {
        victim = day
        break
      }
    }
    this.cache.delete(victim ?? this.cache.keys().next().value!)
  }

  /** Drops a day from the cache (a sealed day loads its stored block roots again when asked). */
  forget(day: string): void {
    this.cache.delete(day)
  }

  private async blockIds(day: string, tree: DayTree, block: number): Promise<string[]> {
    const after = block === 0 ? 0 : tree.full.lastSeqs[block - 1]!
    return (await this.store.dayIds(day, after, BLOCK_SIZE)).map((row) => row.receipt_id)
  }

  /**
   * Leaf index of `receiptId` in `tree`, or null: reads only the blocks whose id prefixes match
   * (one, nearly always; none for an unknown id), instead of scanning the day's rows for it.
   */
  async find(day: string, tree: DayTree, receiptId: string): Promise<number | null> {
    const key = prefixOf(receiptId)
    for (let block = 0; block < tree.fullCount; block++) {
      const prefixes = tree.full.prefixes[block]
      if (prefixes && !prefixes.includes(key)) continue
      const index = (await this.blockIds(day, tree, block)).indexOf(receiptId)
      if (index >= 0) return block * BLOCK_SIZE + index
    }
    const index = tree.tailIds.indexOf(receiptId)
    return index >= 0 ? tree.fullCount * BLOCK_SIZE + index : null
  }

  /** The log position of leaf `index` of the day's tree: one block of the day read. */
  async seqAt(day: string, tree: DayTree, index: number): Promise<number | null> {
    const block = Math.floor(index / BLOCK_SIZE)
    const after = block === 0 ? 0 : tree.full.lastSeqs[block - 1]!
    return (await this.store.dayIds(day, after, BLOCK_SIZE))[index % BLOCK_SIZE]?.seq ?? null
  }

  /** RFC 6962 audit path of leaf `index` in `tree`, bottom-up, as hex. */
  async path(day: string, tree: DayTree, index: number): Promise<string[]> {
    const block = Math.floor(index / BLOCK_SIZE)
    const ids = block < tree.fullCount ? await this.blockIds(day, tree, block) : tree.tailIds
    const inner = auditPath(index % BLOCK_SIZE, ids.map(leafHash))
    const outer = tree.blocks.path(block)
    return [...inner, ...outer].map(toHex)
  }
}
