// The integrator job (one node at a time, the `log-integrator` lease): every
// LOG_CHECKPOINT_INTERVAL_MS it reads the receipts committed to audit_log since the last step,
// appends their exact logged bytes to the tiled tree, stores the new tiles, edge, size and root
// in one transaction, and then has a checkpoint of the new size signed and published. It works
// off committed rows only, in the background: nothing is added to a request's path.
import { gzipSync } from 'node:zlib'
import type { Logger } from '../log'
import type { AuditStore } from '../audit/store'
import { toHex } from '../audit/merkle'
import { appendEntries, emptyEdge, type Edge } from './integrate'
import type { TileStore } from './store'
import { decodeBundle, ENTRIES_LEVEL, tileHashes } from './tiles'
import type { CheckpointPublisher } from './publisher'

/** Entries appended per transaction; the event loop is free between two. */
export const INTEGRATE_CHUNK = 2048

export class LogIntegrator {
  private edge: Edge | null = null
  private baseSeq = 1
  private timer: ReturnType<typeof setInterval> | null = null
  private running: Promise<number> | null = null
  /** Set when the log cannot go on (a body pruned before it was integrated): logged once. */
  private stuck: string | null = null

  constructor(
    private readonly deps: {
      audit: AuditStore
      tiles: TileStore
      publisher: CheckpointPublisher | null
      log: Logger
      intervalMs: number
    },
  ) {}

  /** Integrates every committed receipt, then publishes a checkpoint; resolves with the entries added. */
  tick(): Promise<number> {
    this.running ??= this.run().finally(() => {
      this.running = null
    })
    return this.running
  }

  private async run(): Promise<number> {
    let added = 0
    for (;;) {
      const step = await this.step()
      added += step
      if (step < INTEGRATE_CHUNK) break
      await new Promise((resolve) => setImmediate(resolve))
    }
    await this.deps.publisher?.publish()
    return added
  }

  /** The stored right edge, checked against the stored root. */
  private async load(): Promise<Edge> {
    const state = await this.deps.tiles.state()
    this.baseSeq = state.baseSeq
    const edge = emptyEdge()
    edge.size = state.size
    for (const tile of await this.deps.tiles.edge()) {
      if (tile.level === ENTRIES_LEVEL) edge.entries = decodeBundle(tile.data)!.map((entry) => entry.slice())
      else edge.levels[tile.level] = tileHashes(tile.data)!.map((hash) => hash.slice())
    }
    for (let level = 0; level < edge.levels.length; level++) edge.levels[level] ??= []
    const root = toHex(appendEntries(edge, []).root)
    if (root !== state.rootHex) throw new Error(`transparency: the stored edge gives root ${root}, the state says ${state.rootHex}`)
    return edge
  }

  private async step(): Promise<number> {
    const { audit, tiles, log } = this.deps
    const edge = (this.edge ??= await this.load())
    const from = this.baseSeq + edge.size
    const rows = await audit.entries(from, INTEGRATE_CHUNK)
    const entries: Uint8Array[] = []
    for (const [i, row] of rows.entries()) {
      // Positions are gapless and every reader sees a prefix of the log; anything else stops here.
      if (row.seq !== from + i) break
      if (row.receipt_json === null) {
        const why = `audit_log position ${row.seq} has no body (pruned before it was integrated); the log cannot go on`
        if (this.stuck !== why) log.error('transparency log stuck', { position: row.seq })
        this.stuck = why
        break
      }
      entries.push(Buffer.from(row.receipt_json, 'utf8'))
    }
    if (!entries.length) return 0
    const next = appendEntries(edge, entries)
    const full = next.full.map((tile) => (tile.level === ENTRIES_LEVEL ? { ...tile, data: new Uint8Array(gzipSync(tile.data)) } : tile))
    if (!(await tiles.integrate(edge.size, { size: next.edge.size, rootHex: toHex(next.root), full, partials: next.partials }))) {
      // Another integrator moved the log on (a lease handed over mid-step): start again from what is stored.
      log.warn('transparency log moved on elsewhere; reloading its edge', { size: edge.size })
      this.edge = null
      return 0
    }
    this.edge = next.edge
    return entries.length
  }

  start(): () => Promise<void> {
    const run = () =>
      void this.tick().catch((error: Error) => {
        this.edge = null
        this.deps.log.error('transparency log integration failed; will retry', { error: error.message })
      })
    run()
    this.timer = setInterval(run, this.deps.intervalMs)
    return async () => {
      if (this.timer) clearInterval(this.timer)
      this.timer = null
      await this.running?.catch(() => undefined)
    }
  }
}
