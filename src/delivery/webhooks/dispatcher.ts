// The one detector of state changes for webhooks. A cycle runs every
// WEBHOOK_DISPATCH_INTERVAL_SECONDS, at the next calendar boundary or override expiry of a
// subscribed MIC (so an opening is delivered at the open), and at once when an override or a
// real-time halt changes (an override written by another process is noticed within about two seconds).
// For each subscribed MIC it compares the resolved status with the stored one: the first sight
// stores a baseline; a change signs ONE receipt (audit-logged) and queues one delivery per active
// subscription in the transaction that stores the new state, which first checks the change against
// the overrides and halts stored now (transition.ts): a view that lags another node's change is
// not announced, and the MIC is looked at again once the caches have caught up.
import type { DispatcherDeps } from '../service-deps'
import type { Mic } from '../../calendar/mics'
import { resolveStatus } from '../../market/resolve'
import { issueLiveReceipt } from '../../market/issue'
import { nextCloseBoundary, nextOpenBoundary } from '../../calendar/engine'
import type { DispatcherRecords } from './health'
import { DeliveryWorker } from './worker'
import { Coalescing } from './coalescing'
import { CACHE_MS as OVERRIDE_CACHE_MS } from '../../market/overrides/service'
import type { WebhookSender } from './send'
import { recordBaseline, recordTransition, type TransitionStores } from './transition'

export const DISPATCH_AUDIT_CONTEXT = { surface: 'webhooks', clientRef: 'webhook-dispatcher' }
/** Fire a boundary alarm a little after the instant, so the calendar already answers the new span. */
const BOUNDARY_MARGIN_MS = 50

export interface DispatcherParts extends TransitionStores {
  records: DispatcherRecords
  sender: WebhookSender
  /** This node's lease holder name: the claimer of the rows its worker sends. */
  claimer: string
  /** A claimer known dead (SQLite: a process of this machine that is gone), whose rows are queued again at start. */
  isDeadClaimer?: (claimer: string) => boolean
  concurrency?: number
  /**
   * A number that changes whenever an override is set or cleared by any process on the database
   * (the `openbell overrides` command writes there directly): polled every second for a wake-up.
   */
  overrideMark?: () => number
}

/** How often overrides written by another process are looked for. */
const OVERRIDE_POLL_MS = 1000

export class Dispatcher {
  readonly worker: DeliveryWorker
  private timer: ReturnType<typeof setTimeout> | null = null
  /** A wake-up kept apart from the alarm: a cycle ending cannot cancel a wake that came during it. */
  private wakeTimer: ReturnType<typeof setTimeout> | null = null
  private overrideTimer: ReturnType<typeof setInterval> | null = null
  private overrideSeen: number | null = null
  /** One more cycle once the caches have caught up (after an override change elsewhere, or a stale view). */
  private followUp: ReturnType<typeof setTimeout> | null = null
  private readonly cycling = new Coalescing(() => this.detect().catch((error) => this.deps.log.error('webhook dispatch cycle failed', { error: (error as Error).message })))
  private running = false
  private readonly wake = () => this.soon()
  cycles = 0
  transitions = 0

  constructor(
    private readonly deps: DispatcherDeps,
    private readonly parts: DispatcherParts,
  ) {
    this.worker = new DeliveryWorker({
      clock: deps.clock,
      log: deps.log,
      queue: parts.queue,
      webhooks: parts.webhooks,
      sender: parts.sender,
      claimer: parts.claimer,
      intervalSeconds: () => deps.config.delivery.dispatchIntervalSeconds,
      concurrency: parts.concurrency ?? 16,
    })
  }

  /** Starts the timers; deliveries a dead process left in flight go back in the queue first. */
  start(): () => Promise<void> {
    if (this.deps.config.delivery.allowPrivateTargets) {
      this.deps.log.warn('WEBHOOK_ALLOW_PRIVATE_TARGETS=true: the webhook request-forgery guard is off; webhooks may reach loopback, private, link-local and cloud-metadata addresses. Use it only inside a network you control, or for local testing (docs/delivery.md)')
    }
    this.running = true
    void this.parts.queue
      .requeueInterrupted(this.deps.clock.now(), this.parts.isDeadClaimer ?? (() => false))
      .then((requeued) => {
        if (requeued) this.deps.log.warn('webhook deliveries interrupted by a restart are queued again (same webhook-id)', { count: requeued })
        if (requeued && this.running) void this.worker.pump()
      })
      .catch((error: Error) => this.deps.log.error('webhook deliveries in flight at a restart not requeued; they are claimed again when their claim ends', { error: error.message }))
    this.deps.overrides.changed.add(this.wake)
    this.deps.halts.changed.add(this.wake)
    this.worker.start()
    if (this.parts.overrideMark) {
      this.overrideSeen = this.readOverrideMark()
      this.overrideTimer = setInterval(() => this.pollOverrides(), OVERRIDE_POLL_MS)
    }
    this.soon()
    return () => this.stop()
  }

  async stop(): Promise<void> {
    this.running = false
    this.deps.overrides.changed.delete(this.wake)
    this.deps.halts.changed.delete(this.wake)
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    if (this.wakeTimer) clearTimeout(this.wakeTimer)
    this.wakeTimer = null
    if (this.overrideTimer) clearInterval(this.overrideTimer)
    this.overrideTimer = null
    if (this.followUp) clearTimeout(this.followUp)
    this.followUp = null
    await this.cycling.current
    await this.worker.stop()
  }

  private readOverrideMark(): number | null {
    try {
      return this.parts.overrideMark?.() ?? null
    } catch {
      return null // unreadable now: the interval cycle still runs
    }
  }

  /** An override set or cleared by another process wakes a cycle within a second, as one set here does. */
  private pollOverrides(): void {
    const mark = this.readOverrideMark()
    if (mark === null || mark === this.overrideSeen) return
    this.overrideSeen = mark
    this.soon()
    this.lookAgainLater()
  }

  /** Override reads may be up to OVERRIDE_CACHE_MS old (halt views as long): one more cycle once that has passed. */
  private lookAgainLater(): void {
    if (!this.running) return
    if (this.followUp) clearTimeout(this.followUp)
    this.followUp = setTimeout(() => {
      this.followUp = null
      this.soon()
    }, OVERRIDE_CACHE_MS + BOUNDARY_MARGIN_MS)
  }

  /** A cycle as soon as possible (coalesced with one already running). */
  private soon(): void {
    if (!this.running || this.wakeTimer) return
    this.wakeTimer = setTimeout(() => {
      this.wakeTimer = null
      void this.cycle()
    }, 0)
  }

  /** Sends what was queued outside a cycle (a calendar change) now, when this node dispatches. */
  sendQueued(): void {
    if (this.running) void this.worker.pump()
  }

  /** One detection cycle; concurrent calls run one more cycle after the current one. */
  cycle(): Promise<void> {
    return this.cycling.run()
  }

  private async detect(): Promise<void> {
    const now = this.deps.clock.now()
    this.cycles++
    const { webhooks, queue } = this.parts
    await queue.forgetUnsubscribed()
    await queue.prune(now)
    const mics = (await webhooks.subscribedMics()) as Mic[]
    let status: 'ok' | 'unknown' = 'ok'
    for (const mic of mics) {
      try {
        await this.detectMic(mic, now)
      } catch (error) {
        status = 'unknown'
        this.deps.log.error('webhook state check failed', { mic, error: (error as Error).message })
      }
    }
    const nextAlarm = await this.nextAlarm(mics, now)
    await this.parts.records.write({ status, next_alarm: new Date(nextAlarm).toISOString(), checked_at: new Date(now).toISOString() })
    if (this.running) {
      if (this.timer) clearTimeout(this.timer)
      this.timer = setTimeout(() => void this.cycle(), Math.max(0, nextAlarm - this.deps.clock.now()))
      void this.worker.pump()
    }
  }

  private async detectMic(mic: Mic, now: number): Promise<void> {
    const { transactor } = this.deps
    const stored = await transactor.run(() => this.parts.queue.state(mic))
    const resolution = await resolveStatus(this.deps, mic, now)
    if (!stored) {
      if (!(await transactor.run(() => recordBaseline(this.parts, mic, resolution, now), { name: 'webhook-baseline' }))) this.lookAgainLater()
      return
    }
    if (stored.status === resolution.status) return
    const receipt = await issueLiveReceipt(this.deps, mic, DISPATCH_AUDIT_CONTEXT)
    if (receipt.status === stored.status) return // changed back meanwhile
    const outcome = await transactor.run(() => recordTransition(this.parts, receipt, this.deps.clock.now()), { name: 'webhook-transition' })
    if (outcome.kind === 'stale') {
      this.deps.log.info('state change not announced: this node\'s view is behind the database', { mic, seen: receipt.status, reason: outcome.reason })
      this.lookAgainLater()
      return
    }
    if (outcome.kind !== 'recorded') return
    this.transitions++
    this.deps.log.info('market state change queued for webhooks', { mic, from: outcome.from, to: receipt.status, deliveries: outcome.deliveries, receipt_id: receipt.receipt_id })
  }

  /** The next cycle: the interval, or sooner at a calendar boundary or override expiry of a subscribed MIC. */
  private async nextAlarm(mics: readonly Mic[], now: number): Promise<number> {
    let next = now + this.deps.config.delivery.dispatchIntervalSeconds * 1000
    const active = await this.deps.overrides.active(now).catch(() => new Map())
    for (const mic of mics) {
      const calendar = this.deps.calendars.calendar(mic)
      for (const boundary of calendar ? [nextOpenBoundary(calendar, now), nextCloseBoundary(calendar, now)] : []) {
        if (boundary && boundary.at > now) next = Math.min(next, boundary.at + BOUNDARY_MARGIN_MS)
      }
      const override = active.get(mic)
      if (override) next = Math.min(next, Date.parse(override.expires_at) + BOUNDARY_MARGIN_MS)
    }
    return next
  }
}
