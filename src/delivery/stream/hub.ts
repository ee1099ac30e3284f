// This node's streams: one coordinator per MIC with open streams (coordinator.ts), and each
// stream's place in the registry every node shares (registry.ts), which keeps a key's streams
// within its plan's limit across nodes. A new stream at the limit replaces the key's oldest, on
// whichever node it is: this node ends its own at once; another node's ends when that node is
// notified (PostgreSQL, milliseconds) or at its next refresh (REFRESH_MS). Streams of a node that
// died stop counting after STALE_MS.
import { randomUUID } from 'node:crypto'
import type { StreamDeps } from '../service-deps'
import type { Mic } from '../../calendar/mics'
import { MicCoordinator, HEARTBEAT_MS, type StreamClient } from './coordinator'
import { replacedFrame } from './frames'
import { REFRESH_MS, STALE_MS, type StreamRegistry } from './registry'

interface LocalStream {
  keyHash: string
  /** Sends the `replaced` event and ends the stream. */
  replace: () => void
}

export class StreamHub {
  private readonly coordinators = new Map<Mic, MicCoordinator>()
  /** This node's open streams by registry id. */
  private readonly local = new Map<string, LocalStream>()
  /** Per key hash, the ids of this node's open streams of the key. */
  private readonly perKey = new Map<string, Set<string>>()
  private refreshTimer: ReturnType<typeof setInterval> | null = null
  private refreshing: Promise<void> | null = null
  private refreshFailing = false
  private watching: Promise<(() => Promise<void>) | null> | null = null
  private readonly closing = new Set<Promise<void>>()
  /** Heartbeat period of coordinators created from now on (tests shorten it). */
  heartbeatMs = HEARTBEAT_MS

  constructor(
    private readonly deps: StreamDeps,
    private readonly registry: StreamRegistry,
    /** This node's name on its registry rows (its lease holder name: unique per process). */
    private readonly node: string,
  ) {
    const wake = (mic: string) => void this.coordinators.get(mic as Mic)?.watch()
    deps.overrides.changed.add(wake)
    deps.halts.changed.add(wake)
  }

  coordinator(mic: Mic): MicCoordinator | undefined {
    return this.coordinators.get(mic)
  }

  /** Sends a frame to this node's streams of a MIC (none open: nothing to do); how many got it. */
  broadcast(mic: string, frame: Uint8Array): number {
    const coordinator = this.coordinators.get(mic as Mic)
    if (!coordinator) return 0
    const count = coordinator.clients.size
    coordinator.broadcast(frame)
    return count
  }

  /** Open streams on this node in all, and per key hash. */
  get open(): number {
    return this.local.size
  }

  openFor(keyHash: string): number {
    return this.perKey.get(keyHash)?.size ?? 0
  }

  get activeCoordinators(): number {
    return this.coordinators.size
  }

  /**
   * Registers a stream of `keyHash` within `limit` on every node; the key's oldest streams beyond
   * it get a last `replaced` event and end (a browser's EventSource reconnecting before the server
   * noticed its old connection was dead must not be refused: browsers do not retry a refusal).
   * Resolves to the id to `attach` with; a database that cannot be reached throws (the route
   * answers 503 STORAGE_UNAVAILABLE: no stream is served that the limit does not count).
   */
  async register(mic: Mic, keyHash: string, limit: number): Promise<string> {
    this.watch()
    const now = this.deps.clock.now()
    const stream = { id: randomUUID(), key_hash: keyHash, mic, node: this.node, opened_at: now }
    const replaced = await this.deps.transactor.run(() => this.registry.open(stream, limit, now - STALE_MS), { name: 'stream-open' })
    for (const { id, node } of replaced) if (node === this.node) this.local.get(id)?.replace()
    return stream.id
  }

  /** Starts serving a registered stream on this node; the returned function releases it (idempotent). */
  attach(id: string, mic: Mic, keyHash: string, client: Omit<StreamClient, 'keyHash'>, limit: number): () => void {
    let coordinator = this.coordinators.get(mic)
    if (!coordinator) {
      coordinator = new MicCoordinator(mic, this.deps, (idle) => {
        if (this.coordinators.get(idle.mic) === idle) this.coordinators.delete(idle.mic)
      }, this.heartbeatMs)
      this.coordinators.set(mic, coordinator)
    }
    let released = false
    const owner = coordinator
    const wrapped: StreamClient = {
      keyHash,
      send: (frame) => client.send(frame),
      end: () => {
        client.end()
        release()
      },
    }
    const release = () => {
      if (released) return
      released = true
      this.local.delete(id)
      const ids = this.perKey.get(keyHash)
      ids?.delete(id)
      if (ids?.size === 0) this.perKey.delete(keyHash)
      if (this.local.size === 0) this.stopRefreshing()
      owner.remove(wrapped)
      this.forget(id)
    }
    this.local.set(id, {
      keyHash,
      replace: () => {
        client.send(replacedFrame(limit))
        wrapped.end()
      },
    })
    const ids = this.perKey.get(keyHash) ?? new Set()
    ids.add(id)
    this.perKey.set(keyHash, ids)
    this.startRefreshing()
    coordinator.add(wrapped)
    return release
  }

  /** Ends every stream of this node and removes them from the registry (shutdown). */
  async closeAll(): Promise<void> {
    for (const coordinator of [...this.coordinators.values()]) {
      for (const client of [...coordinator.clients]) client.end()
    }
    this.stopRefreshing()
    await Promise.all([...this.closing])
    const unwatch = await this.watching
    this.watching = null
    await unwatch?.()
  }

  /** Removes an ended stream's row (a row left behind by a failure stops counting after STALE_MS). */
  private forget(id: string): void {
    const closing = this.registry
      .close(id)
      .catch((error: Error) => this.deps.log.warn('an ended stream stays registered until it goes stale', { error: error.message }))
      .finally(() => this.closing.delete(closing))
    this.closing.add(closing)
  }

  /** Notifications of this node's streams replaced elsewhere, where the registry pushes them (started once). */
  private watch(): void {
    if (this.watching || !this.registry.watch) return
    this.watching = this.registry.watch(this.node, (id) => this.local.get(id)?.replace()).catch((error: Error) => {
      this.deps.log.warn('stream replacement notifications unavailable; replaced streams end within a second', { error: error.message })
      return null
    })
  }

  private startRefreshing(): void {
    if (this.refreshTimer) return
    this.refreshTimer = setInterval(() => void this.refresh(), REFRESH_MS)
  }

  private stopRefreshing(): void {
    if (this.refreshTimer) clearInterval(this.refreshTimer)
    this.refreshTimer = null
  }

  /** Marks this node's streams alive; ends those that are no longer registered (replaced by another node). */
  private refresh(): Promise<void> {
    this.refreshing ??= (async () => {
      const before = [...this.local.keys()]
      const now = this.deps.clock.now()
      try {
        const alive = new Set(await this.registry.refresh(this.node, now, now - STALE_MS))
        if (this.refreshFailing) this.deps.log.info('open streams registered again')
        this.refreshFailing = false
        for (const id of before) if (!alive.has(id)) this.local.get(id)?.replace()
      } catch (error) {
        if (!this.refreshFailing) this.deps.log.warn('open streams not marked alive; they keep running', { error: (error as Error).message })
        this.refreshFailing = true
      } finally {
        this.refreshing = null
      }
    })()
    return this.refreshing
  }
}
