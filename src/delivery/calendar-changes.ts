// Announcing calendar changes. After every reload that changed a date (an upstream update, a local
// edit seen by the watch, SIGHUP, the admin reload), each changed venue is, in one unit of work,
// recorded in the durable list (/v5/calendar/changes) and given one queued webhook delivery per
// active subscription of that MIC that chose `calendar_change`; then this node's streams of the MIC
// get `event: calendar_change`. Every node of a database reloads the same change itself: the list
// stores it once (the venue's latest event already being that change), and only the node that
// stored it queues deliveries, so a subscriber hears of it once. Each node tells its own streams.
// A change that cannot be stored now (the database unreachable) is tried again every few seconds
// while the process runs.
import type { Config } from '../config'
import type { Clock } from '../clock'
import type { Logger } from '../log'
import type { Transactor } from '../store/transaction'
import type { CalendarRegistry } from '../calendar/registry'
import type { ReloadReport, VenueChange } from '../calendar/registry'
import type { CalendarChangeStore, ChangeEvent } from '../calendar/changes/store'
import type { DayChange } from '../calendar/diff'
import type { Step } from '../store/transaction'
import type { DeliveryQueue, NewDelivery } from './webhooks/queue'
import type { WebhookStore } from './webhooks/store'
import { newMessageId } from './webhooks/signing'
import { calendarChangeFrame } from './stream/frames'

/** Changed dates carried by one delivery or stream event; the rest are listed by `changes_url`. */
export const MAX_DAYS_PER_EVENT = 100
const RETRY_MS = 5000
const MAX_PENDING = 1000

/** The body of a calendar_change delivery (and, without webhook_id, the data of the stream event). */
export interface CalendarChangeBody {
  type: 'calendar_change'
  webhook_id?: string
  mic: string
  /** The change's id in /v5/calendar/changes (null on a stream event when it could not be stored yet). */
  event_id: number | null
  trigger: string
  data_version_before: string | null
  data_version_after: string | null
  occurred_at: string
  days: DayChange[]
  days_total: number
  /** True when `days` holds only the first MAX_DAYS_PER_EVENT. */
  truncated?: true
  changes_url: string
}

export function calendarChangeBody(event: ChangeEvent, eventId: number | null, baseUrl: string, webhookId?: string): CalendarChangeBody {
  const days = event.days.slice(0, MAX_DAYS_PER_EVENT)
  return {
    type: 'calendar_change',
    ...(webhookId ? { webhook_id: webhookId } : {}),
    mic: event.mic,
    event_id: eventId,
    trigger: event.trigger,
    data_version_before: event.data_version_before,
    data_version_after: event.data_version_after,
    occurred_at: event.at,
    days,
    days_total: event.days.length,
    ...(days.length < event.days.length ? { truncated: true as const } : {}),
    changes_url: `${baseUrl}/v5/calendar/changes?mic=${event.mic}&since=${encodeURIComponent(event.at)}`,
  }
}

export interface AnnouncerParts {
  changes: CalendarChangeStore
  webhooks: WebhookStore
  queue: DeliveryQueue
  /** Sends a frame to this node's streams of a MIC. */
  broadcast: (mic: string, frame: Uint8Array) => number
  /** Sends queued deliveries now when this node dispatches. */
  sendQueued: () => void
}

/** Records the event and, when this node is the one that stored it, queues its deliveries. */
export function* recordCalendarChange(parts: Pick<AnnouncerParts, 'changes' | 'webhooks' | 'queue'>, event: ChangeEvent, baseUrl: string, now: number): Step<{ id: number; recorded: boolean; deliveries: number }> {
  const { id, recorded } = yield* parts.changes.record(event)
  if (!recorded) return { id, recorded, deliveries: 0 }
  const deliveries: NewDelivery[] = (yield* parts.webhooks.activeForMic(event.mic))
    .filter((webhook) => webhook.events.includes('calendar_change'))
    .map((webhook) => ({ id: newMessageId(), webhook, body: JSON.stringify(calendarChangeBody(event, id, baseUrl, webhook.id)) }))
  yield* parts.queue.enqueue(event.mic, deliveries, now)
  return { id, recorded, deliveries: deliveries.length }
}

/** What the announcer takes: the reloads it listens to, the clock, the log, units of work, the public base URL. */
export interface AnnouncerDeps {
  calendars: CalendarRegistry
  clock: Clock
  log: Logger
  transactor: Transactor
  config: Config
}

export class CalendarChangeAnnouncer {
  private pending: ChangeEvent[] = []
  private retryTimer: ReturnType<typeof setTimeout> | null = null
  private inFlight = new Set<Promise<void>>()
  private readonly listener = (report: ReloadReport) => this.announce(report)

  constructor(
    private readonly deps: AnnouncerDeps,
    private readonly parts: AnnouncerParts,
  ) {}

  start(): () => Promise<void> {
    this.deps.calendars.reloaded.add(this.listener)
    return async () => {
      this.deps.calendars.reloaded.delete(this.listener)
      if (this.retryTimer) clearTimeout(this.retryTimer)
      this.retryTimer = null
      await Promise.all([...this.inFlight])
    }
  }

  /** Takes a reload's changes (the registry's listener); resolves when each is stored or set aside for a retry. */
  announce(report: ReloadReport): Promise<void> {
    const at = new Date(this.deps.clock.now()).toISOString()
    const work = Promise.all(report.changes.map((change) => this.announceOne(eventOf(change, report.trigger, at), true))).then(() => {})
    this.inFlight.add(work)
    void work.finally(() => this.inFlight.delete(work))
    return work
  }

  private async announceOne(event: ChangeEvent, first: boolean): Promise<boolean> {
    const baseUrl = this.deps.config.publicBaseUrl
    let id: number | null = null
    try {
      const outcome = await this.deps.transactor.run(() => recordCalendarChange(this.parts, event, baseUrl, this.deps.clock.now()), { name: 'calendar-change' })
      id = outcome.id
      if (outcome.recorded) {
        this.deps.log.info('calendar change recorded', { mic: event.mic, event_id: id, trigger: event.trigger, days: event.days.length, webhook_deliveries: outcome.deliveries })
        if (outcome.deliveries) this.parts.sendQueued()
      }
    } catch (error) {
      if (first) this.deps.log.error('calendar change not stored yet; trying again', { mic: event.mic, error: (error as Error).message })
      this.setAside(event)
      if (!first) return false
    }
    // This node's streams hear of the change once, when it is first seen here.
    if (first) {
      const listeners = this.parts.broadcast(event.mic, calendarChangeFrame(calendarChangeBody(event, id, baseUrl)))
      if (listeners) this.deps.log.debug('calendar change sent to streams', { mic: event.mic, streams: listeners })
    }
    return id !== null
  }

  private setAside(event: ChangeEvent): void {
    if (!this.pending.includes(event)) this.pending.push(event)
    if (this.pending.length > MAX_PENDING) this.deps.log.error('calendar changes not stored are dropped (the database has been unreachable too long)', { dropped: this.pending.splice(0, this.pending.length - MAX_PENDING).length })
    this.retryTimer ??= setTimeout(() => void this.retry(), RETRY_MS)
  }

  private async retry(): Promise<void> {
    this.retryTimer = null
    const waiting = this.pending
    this.pending = []
    for (const event of waiting) {
      if (!(await this.announceOne(event, false))) {
        // Still failing: keep the rest in order for the next try.
        this.pending = [...this.pending, ...waiting.slice(waiting.indexOf(event) + 1).filter((rest) => !this.pending.includes(rest))]
        return
      }
    }
  }
}

export function eventOf(change: VenueChange, trigger: string, at: string): ChangeEvent {
  return { mic: change.mic, at, trigger, data_version_before: change.data_version_before, data_version_after: change.data_version_after, hash_before: change.hash_before, hash_after: change.hash_after, days: change.days }
}
