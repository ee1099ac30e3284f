// The integrator job (one node at a time, the `log-integrator` lease): every
// LOG_CHECKPOINT_INTERVAL_MS it reads the receipts committed to audit_log since the last step,
// appends their exact logged bytes to the tiled tree, stores the new tiles, edge, size and root
// in one transaction, and then has a checkpoint of the new size signed and published. It works
// off committed rows only, in the background: nothing is added to a request's path.
import type { Logger } from '../log'
import type { AuditStore } from '../audit/store'
import { toHex } from '../audit/merkle'
import { appendEntries, emptyEdge, type Edge } from './integrate'
import type { TileStore } from './store'
import { decodeBundle, ENTRIES_LEVEL, TILE_WIDTH, tileHashes } from './tiles'
import type { CheckpointPublisher } from './publisher'

/**
 * Entries appended per transaction, at most; the event loop is free between two. One entry bundle:
 * a step of 256 takes a few milliseconds (2,048 held the loop for tens and tripled /v5/status's p99),
 * and a step that ends on a bundle boundary stores no partial bundle, so small steps do not rewrite
 * the same partial bundle over and over.
 */
export const INTEGRATE_CHUNK = TILE_WIDTH

/**
 * A full entry bundle, gzip as stored and served. libdeflate at level 1: 0.8 µs per receipt
 * against 2.9 µs with node:zlib's default level 6, and no larger (25.5 against 25.3 KB for 256
 * receipts of 460 bytes, most of each a random id and signature).
 */
export const gzipBundle = (bundle: Uint8Array): Uint8Array => Bun.gzipSync(bundle as Uint8Array<ArrayBuffer>, { library: 'libdeflate', level: 1 })

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
      const { added: step, wanted } = await this.step()
      added += step
      if (step < wanted) break
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

  /** Appends up to the next bundle boundary; says how many entries it added of how many it asked for. */
  private async step(): Promise<{ added: number; wanted: number }> {
    const { audit, tiles, log } = this.deps
    const edge = (this.edge ??= await this.load())
    const from = this.baseSeq + edge.size
    const wanted = INTEGRATE_CHUNK - (edge.size % INTEGRATE_CHUNK)
    const rows = audit.entryBytes ? await audit.entryBytes(from, wanted) : (await audit.entries(from, wanted)).map((row): [number, Uint8Array | null] => [row.seq, row.receipt_json === null ? null : Buffer.from(row.receipt_json, 'utf8')])
    const entries: Uint8Array[] = []
    for (const [i, [seq, body]] of rows.entries()) {
      // Positions are gapless and every reader sees a prefix of the log; anything else stops here.
      if (seq !== from + i) break
      if (body === null) {
        const why = `audit_log position ${seq} has no body (pruned before it was integrated); the log cannot go on`
        if (this.stuck !== why) log.error('transparency log stuck', { position: seq })
        this.stuck = why
        break
      }
      entries.push(body)
    }
    if (!entries.length) return { added: 0, wanted }
    const next = appendEntries(edge, entries)
    const full = next.full.map((tile) => (tile.level === ENTRIES_LEVEL ? { ...tile, data: gzipBundle(tile.data) } : tile))
    if (!(await tiles.integrate(edge.size, { size: next.edge.size, rootHex: toHex(next.root), full, partials: next.partials }))) {
      // Another integrator moved the log on (a lease handed over mid-step): start again from what is stored.
      log.warn('transparency log moved on elsewhere; reloading its edge', { size: edge.size })
      this.edge = null
      return { added: 0, wanted }
    }
    this.edge = next.edge
    return { added: entries.length, wanted }
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
