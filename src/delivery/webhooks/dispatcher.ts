// The one detector of state changes for webhooks. A cycle runs every
// WEBHOOK_DISPATCH_INTERVAL_SECONDS, at the next calendar boundary or override expiry of a
// subscribed MIC (so an opening is delivered at the open), and at once when an override or a
// real-time halt changes (an override written by another process is noticed within about two seconds).
// For each subscribed MIC it compares the resolved status with the stored one: the first sight stores a baseline; a change signs ONE receipt (audit-logged) and queues
// one delivery per active subscription in the transaction that stores the new state.
import type { DomainDeps } from '../../domain-deps'
import type { Mic } from '../../calendar/mics'
import { resolveStatus } from '../../market/resolve'
import { issueLiveReceipt } from '../../market/issue'
import { nextCloseBoundary, nextOpenBoundary } from '../../calendar/engine'
import type { WebhookStore } from './store'
import type { DispatcherRecords } from './health'
import type { DeliveryQueue, NewDelivery } from './queue'
import { deliveryBody } from './payload'
import { newMessageId } from './signing'
import { DeliveryWorker } from './worker'
import { CACHE_MS as OVERRIDE_CACHE_MS } from '../../market/overrides/service'
import type { WebhookSender } from './send'

export const DISPATCH_AUDIT_CONTEXT = { surface: 'webhooks', clientRef: 'webhook-dispatcher' }
/** Fire a boundary alarm a little after the instant, so the calendar already answers the new span. */
const BOUNDARY_MARGIN_MS = 50

export interface DispatcherParts {
  webhooks: WebhookStore
  queue: DeliveryQueue
  records: DispatcherRecords
  sender: WebhookSender
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
  private overrideFollowUp: ReturnType<typeof setTimeout> | null = null
  private cycling: Promise<void> | null = null
  private again = false
  private running = false
  private readonly wake = () => this.soon()
  cycles = 0
  transitions = 0

  constructor(
    private readonly deps: DomainDeps,
    private readonly parts: DispatcherParts,
  ) {
    this.worker = new DeliveryWorker({
      clock: deps.clock,
      log: deps.log,
      queue: parts.queue,
      webhooks: parts.webhooks,
      sender: parts.sender,
      intervalSeconds: () => deps.config.delivery.dispatchIntervalSeconds,
      concurrency: parts.concurrency ?? 16,
    })
  }

  /** Starts the timers; deliveries a previous process left in flight go back in the queue first. */
  start(): () => Promise<void> {
    const requeued = this.parts.queue.requeueInterrupted(this.deps.clock.now())
    if (requeued) this.deps.log.warn('webhook deliveries interrupted by a restart are queued again (same webhook-id)', { count: requeued })
    this.running = true
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
    if (this.overrideFollowUp) clearTimeout(this.overrideFollowUp)
    this.overrideFollowUp = null
    await this.cycling
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
    // Override reads may be up to OVERRIDE_CACHE_MS old: one more cycle once that has passed.
    if (this.overrideFollowUp) clearTimeout(this.overrideFollowUp)
    this.overrideFollowUp = setTimeout(() => {
      this.overrideFollowUp = null
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

  /** One detection cycle; concurrent calls run one more cycle after the current one. */
  cycle(): Promise<void> {
    if (this.cycling) {
      this.again = true
      return this.cycling
    }
    this.cycling = this.detect()
      .catch((error) => this.deps.log.error('webhook dispatch cycle failed', { error: (error as Error).message }))
      .finally(() => {
        this.cycling = null
        if (this.again) {
          this.again = false
          void this.cycle()
        }
      })
    return this.cycling
  }

  private async detect(): Promise<void> {
    const now = this.deps.clock.now()
    this.cycles++
    const { webhooks, queue } = this.parts
    queue.forgetUnsubscribed()
    queue.prune(now)
    const mics = webhooks.subscribedMics() as Mic[]
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
    this.parts.records.write({ status, next_alarm: new Date(nextAlarm).toISOString(), checked_at: new Date(now).toISOString() })
    if (this.running) {
      if (this.timer) clearTimeout(this.timer)
      this.timer = setTimeout(() => void this.cycle(), Math.max(0, nextAlarm - this.deps.clock.now()))
      this.worker.pump()
    }
  }

  private async detectMic(mic: Mic, now: number): Promise<void> {
    const { queue, webhooks } = this.parts
    const stored = queue.state(mic)
    const resolution = await resolveStatus(this.deps, mic, now)
    const changedAt = new Date(now).toISOString()
    if (!stored) {
      queue.baseline({ mic, status: resolution.status, source: resolution.source, changed_at: changedAt })
      return
    }
    if (stored.status === resolution.status) return
    const receipt = await issueLiveReceipt(this.deps, mic, DISPATCH_AUDIT_CONTEXT)
    if (receipt.status === stored.status) return // changed back meanwhile
    const occurredAt = receipt.issued_at
    const deliveries: NewDelivery[] = webhooks
      .activeForMic(mic)
      .filter((webhook) => webhook.events.includes('status_change'))
      .map((webhook) => ({ id: newMessageId(), webhook, body: JSON.stringify(deliveryBody({ webhook_id: webhook.id, mic, previous_status: stored.status, current_status: receipt.status, receipt, occurred_at: occurredAt })) }))
    const stateRow = { mic, status: receipt.status, source: receipt.source, changed_at: occurredAt }
    if (!queue.transition(mic, stored.status, stateRow, deliveries, this.deps.clock.now())) return
    this.transitions++
    this.deps.log.info('market state change queued for webhooks', { mic, from: stored.status, to: receipt.status, deliveries: deliveries.length, receipt_id: receipt.receipt_id })
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
