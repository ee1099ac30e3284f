// A day's Merkle tree, built from aligned blocks of 1,024 leaves. A full block never changes
// (a day's rows only grow at the end), so its root is computed once and cached; the root of the
// day is the RFC 6962 root over the block roots (see rootOf), and a proof is the path inside the
// leaf's block followed by the path of the block among the block roots.
import type { AuditStore } from './store'
import { auditPath, leafHash, rootOf, toHex } from './merkle'

export const BLOCK_SIZE = 1024
const CACHED_DAYS = 16

interface FullBlocks {
  roots: Uint8Array[]
  /** Log position of each full block's last row. */
  lastSeqs: number[]
}

export interface DayTree {
  size: number
  rootHex: string
  blockRoots: Uint8Array[]
  full: FullBlocks
  tailIds: string[]
}

export class DayTrees {
  private readonly cache = new Map<string, FullBlocks>()

  constructor(private readonly store: AuditStore) {}

  /** The day's tree as the log holds it now (for a sealed day: exactly what was sealed). */
  async tree(day: string, options: { yieldBetweenBlocks?: boolean } = {}): Promise<DayTree> {
    let full = this.cache.get(day)
    if (!full) {
      // A sealed day's full blocks were stored at sealing; other days start empty.
      const stored = await this.store.blocks(day)
      full = { roots: stored.map((block) => new Uint8Array(Buffer.from(block.root, 'hex'))), lastSeqs: stored.map((block) => block.last_seq) }
    }
    this.cache.delete(day)
    this.cache.set(day, full)
    if (this.cache.size > CACHED_DAYS) this.cache.delete(this.cache.keys().next().value!)
    let tailIds: string[] = []
    for (;;) {
      const after = full.lastSeqs.at(-1) ?? 0
      const rows = await this.store.dayIds(day, after, BLOCK_SIZE)
      if (rows.length < BLOCK_SIZE) {
        tailIds = rows.map((row) => row.receipt_id)
        break
      }
      full.roots.push(rootOf(rows.map((row) => leafHash(row.receipt_id))))
      full.lastSeqs.push(rows.at(-1)!.seq)
      // The sealer builds a day of a million leaves this way without holding up requests.
      if (options.yieldBetweenBlocks) await new Promise((resolve) => setImmediate(resolve))
    }
    const blockRoots = tailIds.length ? [...full.roots, rootOf(tailIds.map(leafHash))] : [...full.roots]
    return { size: full.roots.length * BLOCK_SIZE + tailIds.length, rootHex: toHex(rootOf(blockRoots)), blockRoots, full, tailIds }
  }

  /** RFC 6962 audit path of leaf `index` in `tree`, bottom-up, as hex. */
  async path(day: string, tree: DayTree, index: number): Promise<string[]> {
    const block = Math.floor(index / BLOCK_SIZE)
    let ids: string[]
    if (block < tree.full.roots.length) {
      const after = block === 0 ? 0 : tree.full.lastSeqs[block - 1]!
      ids = (await this.store.dayIds(day, after, BLOCK_SIZE)).map((row) => row.receipt_id)
    } else ids = tree.tailIds
    const inner = auditPath(index % BLOCK_SIZE, ids.map(leafHash))
    const outer = auditPath(block, tree.blockRoots)
    return [...inner, ...outer].map(toHex)
  }
}
