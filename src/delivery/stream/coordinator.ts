// One coordinator per MIC with open streams: each tick signs ONE live receipt (logged through the
// audit log like /v5/status) and queues the same encoded frame on every stream of the MIC. A
// cheap check every second (no signing) notices a state change — override, halt, session
// boundary, also one made by another process — and ticks at once instead of at the next interval.
// HALTED is terminal: the `halted` event is sent and every stream of the MIC ends.
import type { StreamDeps } from '../service-deps'
import type { Mic } from '../../calendar/mics'
import type { MarketReceipt } from '../../market/receipt'
import { issueLiveReceipt } from '../../market/issue'
import { resolveStatus } from '../../market/resolve'
import { accountUsable } from '../../accounts/keys'
import { ApiError, criticalFailure } from '../../http/errors'
import { eventFrame, HEARTBEAT_FRAME, unknownFrame } from './frames'

export interface StreamClient {
  /** SHA-256 of the key that opened the stream: re-checked at every tick. */
  keyHash: string
  /** Queues bytes; returns false when the client is too far behind (it is then dropped). */
  send(frame: Uint8Array): boolean
  /** Ends the response (terminal event, or too far behind). */
  end(): void
}

export const STREAM_AUDIT_CONTEXT = { surface: '/v5/stream', clientRef: 'stream-coordinator' }
const WATCH_MS = 1000
/** Comment heartbeats on every stream of a MIC, well under common proxy idle timeouts (60 s). */
export const HEARTBEAT_MS = 15_000

interface Current {
  receipt: MarketReceipt
  frame: Uint8Array
  terminal: boolean
}

export class MicCoordinator {
  readonly clients = new Set<StreamClient>()
  private current: Current | null = null
  /** The `unknown` frame of the last failed tick, until a tick succeeds (sent to streams that join meanwhile). */
  private failure: Uint8Array | null = null
  private ticking: Promise<void> | null = null
  private timers: ReturnType<typeof setInterval>[] = []
  private tickTimer: ReturnType<typeof setTimeout> | null = null
  /** Receipts signed by this coordinator (one per tick). */
  signatures = 0
  lastFanOutMs = 0

  constructor(
    readonly mic: Mic,
    private readonly deps: StreamDeps,
    private readonly onIdle: (coordinator: MicCoordinator) => void,
    private readonly heartbeatMs = HEARTBEAT_MS,
  ) {}

  get running(): boolean {
    return this.timers.length > 0 || this.tickTimer !== null
  }

  /** Adds a stream: it gets the current receipt at once (or the one being signed). */
  add(client: StreamClient): void {
    this.clients.add(client)
    if (!this.running) this.start()
    if (this.ticking) return
    const now = this.deps.clock.now()
    if (this.current && Date.parse(this.current.receipt.expires_at) > now) this.deliver(client, this.current)
    else if (this.failure) this.sendOrDrop(client, this.failure) // the next tick tries again
    else void this.tick()
  }

  remove(client: StreamClient): void {
    if (!this.clients.delete(client)) return
    if (this.clients.size === 0) this.stop()
  }

  private start(): void {
    this.timers.push(setInterval(() => void this.watch(), WATCH_MS))
    this.timers.push(setInterval(() => this.broadcast(HEARTBEAT_FRAME), this.heartbeatMs))
    this.schedule()
  }

  private stop(): void {
    for (const timer of this.timers) clearInterval(timer)
    this.timers = []
    if (this.tickTimer) clearTimeout(this.tickTimer)
    this.tickTimer = null
    this.current = null
    this.failure = null
    this.onIdle(this)
  }

  private schedule(): void {
    if (this.tickTimer) clearTimeout(this.tickTimer)
    this.tickTimer = setTimeout(() => void this.tick(), this.deps.config.delivery.streamIntervalSeconds * 1000)
  }

  /** Signs one receipt and sends it to every stream; concurrent calls share one signature. */
  tick(): Promise<void> {
    this.ticking ??= this.signAndSend().finally(() => {
      this.ticking = null
    })
    return this.ticking
  }

  private async signAndSend(): Promise<void> {
    if (this.clients.size === 0) return
    let receipt: MarketReceipt
    try {
      receipt = await issueLiveReceipt(this.deps, this.mic, STREAM_AUDIT_CONTEXT)
    } catch (error) {
      // Signing offline or the audit log unwritable: nothing unsigned or unlogged is sent as a
      // receipt. Every stream is told the state is UNKNOWN (spec 3 rule 2) and the next tick tries
      // again; the state check waits for a receipt, so this is sent once per tick, not per second.
      this.deps.log.warn('stream tick failed', { mic: this.mic, error: (error as Error).message })
      this.current = null
      this.failure = unknownFrame((error instanceof ApiError ? error : criticalFailure()).body())
      for (const client of [...this.clients]) this.sendOrDrop(client, this.failure)
      if (this.running) this.schedule()
      return
    }
    this.failure = null
    this.signatures++
    await this.dropRevokedKeys()
    const terminal = receipt.status === 'HALTED'
    const current = { receipt, frame: eventFrame(terminal ? 'halted' : 'market_status', receipt.receipt_id, receipt), terminal }
    this.current = current
    const started = performance.now()
    for (const client of [...this.clients]) this.deliver(client, current)
    this.lastFanOutMs = performance.now() - started
    if (this.running) this.schedule()
  }

  /** Streams whose key was suspended, cancelled, expired or removed since they opened end now. */
  private async dropRevokedKeys(): Promise<void> {
    const now = this.deps.clock.now()
    const hashes = new Set([...this.clients].map((client) => client.keyHash))
    for (const hash of hashes) {
      const account = await this.deps.accounts.findByHash(hash).catch(() => undefined)
      if (account === undefined || (account && accountUsable(account, now))) continue // unreadable store: keep serving
      for (const client of [...this.clients]) {
        if (client.keyHash !== hash) continue
        client.end()
        this.remove(client)
      }
    }
  }

  private deliver(client: StreamClient, current: Current): void {
    const ok = client.send(current.frame)
    if (!ok || current.terminal) {
      client.end()
      this.remove(client)
    }
  }

  private sendOrDrop(client: StreamClient, frame: Uint8Array): void {
    if (!client.send(frame)) {
      client.end()
      this.remove(client)
    }
  }

  /** Sends one frame to every stream of the MIC (a calendar change; heartbeats). */
  broadcast(frame: Uint8Array): void {
    for (const client of [...this.clients]) this.sendOrDrop(client, frame)
  }

  /**
   * Every second: streams of a key suspended, cancelled or expired since the last look end (plan
   * and status changes reach every surface within a second or two, not at the next tick), and the
   * state is resolved without signing; a change from the last sent receipt ticks now.
   */
  async watch(): Promise<void> {
    if (!this.current || this.ticking) return
    await this.dropRevokedKeys()
    if (this.clients.size === 0) return
    const resolution = await resolveStatus(this.deps, this.mic, this.deps.clock.now())
    if (resolution.status !== this.current.receipt.status || resolution.source !== this.current.receipt.source) await this.tick()
  }
}
