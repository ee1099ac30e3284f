// Real-time halt monitor for XNYS and XNAS. Polls the halt feed on a timer while either venue is
// in session by its calendar. Fail-closed rules (docs/market-state.md):
// - a halt it has seen stays in force until the feed shows the resumption, even if the feed
//   then fails (it never turns a halt back into OPEN without evidence);
// - after two intervals without a good poll the monitor is `degraded`: receipts for the two
//   venues are then signed with halt_detection `schedule_only`, which is what they are;
// - halts are intraday: when neither venue is in session the monitor idles and forgets them.
import type { Clock } from '../../clock'
import type { Logger } from '../../log'
import type { CalendarRegistry } from '../../calendar/registry'
import { statusAt } from '../../calendar/engine'
import { HALT_DETECTION_MICS } from '../../calendar/mics'
import { utcToLocal } from '../../calendar/zone'
import { FeedFormatError, MARKET_WIDE_CODES, parseMarketStatusJson, parseTradeHaltsRss } from './feed'
import type { ActiveHalt, HaltSnapshot, HaltStore } from './store'

export type { ActiveHalt, HaltSnapshot } from './store'
import { followHalts } from './shared'

export interface HaltFeedConfig {
  url: string | null
  format: 'rss' | 'json'
  intervalMs: number
}


export type MonitorState = 'disabled' | 'idle' | 'ok' | 'degraded'


const FEED_NAME = { rss: 'Nasdaq Trader trade-halts feed', json: 'market-status feed' }

export class HaltMonitor {
  private halts = new Map<string, ActiveHalt>()
  private lastPollAt: number | null = null
  private lastSuccessAt: number | null = null
  private lastError: string | null = null
  private failures = 0
  private inSessionSince: number | null = null
  private timer: ReturnType<typeof setTimeout> | null = null
  /** This node polls the feed (it holds the halt-poller lease); otherwise it adopts what the poller publishes. */
  private polling = false
  /** Called with the MIC when a halt is detected or cleared (delivery wakes on it). */
  readonly changed = new Set<(mic: string) => void>()

  constructor(
    private readonly config: HaltFeedConfig,
    private readonly deps: {
      clock: Clock
      log: Logger
      calendars: CalendarRegistry
      fetch?: typeof fetch
      /** Where this node publishes what it polled, and reads what another node polled (market/halts/store.ts). */
      shared?: { store: HaltStore; publisher: string }
    },
  ) {}

  /** Adopts the view the polling node publishes (run on every node; see shared.ts); returns the stop. */
  follow(): () => Promise<void> {
    const shared = this.deps.shared
    if (!shared || !this.enabled) return async () => {}
    return followHalts(this, shared.store, this.deps.log)
  }

  private async publish(): Promise<void> {
    const shared = this.deps.shared
    if (!shared || !this.enabled) return
    try {
      await shared.store.publish({ snapshot: JSON.stringify(this.snapshot()), published_at: this.deps.clock.now(), publisher: shared.publisher })
    } catch (error) {
      this.deps.log.warn('halt view not shared with the other nodes', { error: (error as Error).message })
    }
  }

  snapshot(): HaltSnapshot {
    const { lastPollAt, lastSuccessAt, lastError, failures, inSessionSince } = this
    return { halts: Object.fromEntries(this.halts), lastPollAt, lastSuccessAt, lastError, failures, inSessionSince }
  }

  /** Takes the polling node's view (ignored while this node polls itself). */
  adopt(snapshot: HaltSnapshot): void {
    if (this.polling) return
    const next = new Map(Object.entries(snapshot.halts))
    const touched = [...next.keys()].filter((mic) => !this.halts.has(mic)).concat([...this.halts.keys()].filter((mic) => !next.has(mic)))
    this.halts = next
    this.lastPollAt = snapshot.lastPollAt
    this.lastSuccessAt = snapshot.lastSuccessAt
    this.lastError = snapshot.lastError
    this.failures = snapshot.failures
    this.inSessionSince = snapshot.inSessionSince
    for (const mic of touched) for (const listener of this.changed) listener(mic)
  }

  get enabled(): boolean {
    return this.config.url !== null
  }

  /** Either US venue is in its regular session by the calendar. */
  inSession(now: number): boolean {
    return HALT_DETECTION_MICS.some((mic) => {
      const calendar = this.deps.calendars.calendar(mic)
      return calendar !== null && statusAt(calendar, now).status === 'OPEN'
    })
  }

  state(now = this.deps.clock.now()): MonitorState {
    if (!this.enabled) return 'disabled'
    if (this.inSessionSince === null) return 'idle'
    const reference = this.lastSuccessAt ?? this.inSessionSince
    return now - reference > 2 * this.config.intervalMs ? 'degraded' : 'ok'
  }

  haltFor(mic: string): ActiveHalt | null {
    return this.halts.get(mic) ?? null
  }

  /** Venues with a halt in force, sorted. */
  haltedMics(): string[] {
    return [...this.halts.keys()].sort()
  }

  /** Whether receipts for `mic` may claim active real-time halt detection right now. */
  detectionActive(mic: string, now = this.deps.clock.now()): boolean {
    if (!HALT_DETECTION_MICS.includes(mic as never)) return false
    const state = this.state(now)
    return state === 'ok' || state === 'idle'
  }

  /** One poll: fetch, parse, update. Never throws; failures are recorded. */
  async pollOnce(): Promise<void> {
    const now = this.deps.clock.now()
    if (!this.config.url) return
    this.lastPollAt = now
    try {
      const fetcher = this.deps.fetch ?? fetch
      const response = await fetcher(this.config.url, { signal: AbortSignal.timeout(Math.min(10_000, this.config.intervalMs)), headers: { accept: this.config.format === 'rss' ? 'application/rss+xml, text/xml' : 'application/json' } })
      if (!response.ok) throw new Error(`HTTP ${response.status}`)
      const text = await response.text()
      this.apply(text, now)
      this.lastSuccessAt = now
      this.lastError = null
      this.failures = 0
    } catch (error) {
      this.failures++
      this.lastError = error instanceof FeedFormatError ? `malformed feed: ${error.message}` : error instanceof Error ? (error.name === 'TimeoutError' ? 'timeout' : error.message) : String(error)
      this.deps.log.warn('halt feed poll failed', { error: this.lastError, consecutive_failures: this.failures })
    }
  }

  private apply(text: string, now: number): void {
    const next = new Map<string, ActiveHalt>()
    const feed = FEED_NAME[this.config.format]
    if (this.config.format === 'rss') {
      const local = utcToLocal('America/New_York', now).date
      const easternDate = `${local.slice(5, 7)}/${local.slice(8, 10)}/${local.slice(0, 4)}`
      const halts = parseTradeHaltsRss(text, easternDate)
      const latest = halts.sort((a, b) => a.haltTime.localeCompare(b.haltTime)).at(-1)
      if (latest) {
        const halt = { code: latest.code, since: `${latest.haltDate} ${latest.haltTime} ET`, reason: `${feed}: ${latest.code} (${MARKET_WIDE_CODES[latest.code]}) since ${latest.haltTime} ET, no resumption yet` }
        for (const mic of HALT_DETECTION_MICS) next.set(mic, halt)
      }
    } else {
      for (const mic of parseMarketStatusJson(text)) next.set(mic, { code: 'HALTED', since: new Date(now).toISOString(), reason: `${feed}: venue reported halted` })
    }
    for (const [mic, halt] of next) if (!this.halts.has(mic)) this.deps.log.warn('real-time halt detected', { mic, code: halt.code, reason: halt.reason })
    for (const mic of this.halts.keys()) if (!next.has(mic)) this.deps.log.warn('real-time halt cleared', { mic })
    const touched = [...next.keys()].filter((mic) => !this.halts.has(mic)).concat([...this.halts.keys()].filter((mic) => !next.has(mic)))
    this.halts = next
    for (const mic of touched) for (const listener of this.changed) listener(mic)
  }

  /** The scheduler's step: poll while in session, idle (and forget intraday halts) otherwise. */
  async tick(): Promise<void> {
    const now = this.deps.clock.now()
    if (!this.enabled) return
    if (!this.inSession(now)) {
      if (this.inSessionSince !== null && this.halts.size) this.deps.log.info('session over: clearing intraday halts', { halted: this.haltedMics() })
      this.inSessionSince = null
      const cleared = this.haltedMics()
      this.halts.clear()
      for (const mic of cleared) for (const listener of this.changed) listener(mic)
      return
    }
    this.inSessionSince ??= now
    await this.pollOnce()
  }

  start(): () => void {
    this.polling = true
    const loop = async () => {
      await this.tick()
      if (!this.polling) return
      await this.publish()
      this.timer = setTimeout(loop, this.config.intervalMs)
    }
    void loop()
    return () => {
      this.polling = false
      if (this.timer) clearTimeout(this.timer)
      this.timer = null
    }
  }

  /** The halt_monitor object of /v5/status/realtime and /v5/health. */
  status(now = this.deps.clock.now()) {
    const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString())
    return {
      status: this.state(now),
      venues: [...HALT_DETECTION_MICS],
      feed: this.config.url ? FEED_NAME[this.config.format] : null,
      interval_seconds: this.config.intervalMs / 1000,
      last_poll_at: iso(this.lastPollAt),
      last_success_at: iso(this.lastSuccessAt),
      last_error: this.lastError,
      consecutive_failures: this.failures,
      halted: this.haltedMics(),
    }
  }
}
