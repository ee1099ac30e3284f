// SQL for the tiled log (migration 60): the log's state (where it begins in audit_log, how far
// it is integrated, the latest checkpoint), the full tiles and entry bundles (written once,
// never changed) and the right edge (the partial tile of each level and the partial bundle,
// replaced by every integration step).
import type { Database } from 'bun:sqlite'
import type { PartialTileBytes, TileBytes } from './integrate'

export interface LogState {
  /** audit_log position of leaf 0. */
  baseSeq: number
  /** Leaves integrated into tiles (committed with them). */
  size: number
  rootHex: string
  /** The latest published checkpoint (signed note with its cosignatures), or null before the first. */
  checkpoint: string | null
  checkpointSize: number
  /** When it was published (epoch ms). */
  checkpointAt: number
}

export interface IntegrationStep {
  size: number
  rootHex: string
  full: readonly TileBytes[]
  partials: readonly PartialTileBytes[]
}

/** The tiled log's storage. Full tiles are immutable; the edge and the state move together. */
export interface TileStore {
  state(): Promise<LogState>
  /** The right edge as last integrated. */
  edge(): Promise<PartialTileBytes[]>
  /**
   * One integration step in one transaction: unless the stored size is no longer `fromSize`
   * (another integrator moved it: false, nothing written), stores the new full tiles (a tile
   * stored already is kept), replaces the edge and moves size and root on.
   */
  integrate(fromSize: number, step: IntegrationStep): Promise<boolean>
  /** A full tile (or entry bundle, level -1), or null. */
  tile(level: number, index: number): Promise<Uint8Array | null>
  /**
   * Stores the latest checkpoint unless a larger one is stored or the tiles do not reach `size`
   * yet (checked in the same statement: no checkpoint names a tree that is not committed).
   * The same size may be stored again (with other cosignatures). False when refused.
   */
  publishCheckpoint(size: number, checkpoint: string, at: number): Promise<boolean>
}

interface StateRow {
  base_seq: number
  size: number
  root: string
  checkpoint: string | null
  checkpoint_size: number
  checkpoint_at: number
}

export const stateOf = (row: StateRow): LogState => ({
  baseSeq: Number(row.base_seq),
  size: Number(row.size),
  rootHex: row.root,
  checkpoint: row.checkpoint,
  checkpointSize: Number(row.checkpoint_size),
  checkpointAt: Number(row.checkpoint_at),
})

export function sqliteTileStore(db: Database): TileStore {
  const state = db.query('SELECT base_seq, size, root, checkpoint, checkpoint_size, checkpoint_at FROM log_state WHERE id = 1')
  const edge = db.query('SELECT level, idx, width, data FROM log_edge ORDER BY level')
  const insertTile = db.query('INSERT INTO log_tiles (level, idx, data) VALUES (?, ?, ?) ON CONFLICT (level, idx) DO NOTHING')
  const clearEdge = db.query('DELETE FROM log_edge')
  const insertEdge = db.query('INSERT INTO log_edge (level, idx, width, data) VALUES (?, ?, ?, ?)')
  const move = db.query('UPDATE log_state SET size = ?, root = ? WHERE id = 1 AND size = ?')
  const tile = db.query('SELECT data FROM log_tiles WHERE level = ? AND idx = ?')
  const publish = db.query('UPDATE log_state SET checkpoint = ?, checkpoint_size = ?, checkpoint_at = ? WHERE id = 1 AND checkpoint_size <= ? AND size >= ?')
  const integrate = db.transaction((fromSize: number, step: IntegrationStep): boolean => {
    if (move.run(step.size, step.rootHex, fromSize).changes !== 1) return false
    for (const full of step.full) insertTile.run(full.level, full.index, full.data)
    clearEdge.run()
    for (const partial of step.partials) insertEdge.run(partial.level, partial.index, partial.width, partial.data)
    return true
  })
  return {
    async state() {
      return stateOf(state.get() as StateRow)
    },
    async edge() {
      return (edge.all() as { level: number; idx: number; width: number; data: Uint8Array }[]).map((row) => ({ level: row.level, index: row.idx, width: row.width, data: new Uint8Array(row.data) }))
    },
    async integrate(fromSize, step) {
      return integrate.immediate(fromSize, step)
    },
    async tile(level, index) {
      const row = tile.get(level, index) as { data: Uint8Array } | null
      return row ? new Uint8Array(row.data) : null
    },
    async publishCheckpoint(size, checkpoint, at) {
      return publish.run(checkpoint, size, at, size, size).changes === 1
    },
  }
}
