// The delivery domain's long-lived parts over its stores: the stream hub (one coordinator per
// MIC), the webhook store, the sender and the dispatcher. Built after the rest of the deps, since
// they issue receipts through them.
import type { DeliveryServiceDeps } from './service-deps'
import { StreamHub } from './stream/hub'
import type { StreamRegistry } from './stream/registry'
import type { WebhookStore } from './webhooks/store'
import type { DispatcherRecords } from './webhooks/health'
import { WebhookSender } from './webhooks/send'
import type { DeliveryQueue } from './webhooks/queue'
import { Dispatcher } from './webhooks/dispatcher'
import { recordBaseline, type SeenState, type TransitionStores } from './webhooks/transition'
import type { OverrideStore } from '../market/overrides/store'
import type { HaltStore } from '../market/halts/store'
import { CalendarChangeAnnouncer } from './calendar-changes'
import type { CalendarChangeStore } from '../calendar/changes/store'

/** The delivery domain's stores (a backend provides them), and the market stores a transition reads. */
export interface DeliveryStores {
  webhooks: WebhookStore
  deliveryQueue: DeliveryQueue
  dispatcherRecords: DispatcherRecords
  streams: StreamRegistry
  overrides: OverrideStore
  halts: HaltStore
  /** Changes whenever any process sets or clears an override (absent where the override store pushes changes). */
  overrideMark?: () => number
  /** The durable list of calendar changes (the announcer records each change there, once across nodes). */
  calendarChanges: CalendarChangeStore
}

export interface DeliveryOptions {
  /** A lease holder known to be dead (SQLite: a process of this machine that is gone). */
  isDeadHolder?: (holder: string) => boolean
}

export interface DeliveryServices {
  streams: StreamHub
  webhooks: WebhookStore
  records: DispatcherRecords
  sender: WebhookSender
  queue: DeliveryQueue
  dispatcher: Dispatcher
  /** Stores a first state for a MIC nobody watched, unless stored already or this node's view is stale. */
  baseline(mic: string, seen: SeenState, now: number): Promise<boolean>
  /** Records each reload's calendar changes, queues their webhook deliveries and tells the streams (started by main.ts). */
  calendarChanges: CalendarChangeAnnouncer
}

export function deliveryServices(stores: DeliveryStores, deps: DeliveryServiceDeps, options: DeliveryOptions = {}): DeliveryServices {
  const { webhooks, deliveryQueue: queue, dispatcherRecords: records, overrideMark } = stores
  const transitions: TransitionStores = { webhooks, queue, overrides: stores.overrides, halts: stores.halts }
  const sender = new WebhookSender({ allowPrivate: deps.config.delivery.allowPrivateTargets })
  const dispatcher = new Dispatcher(deps, { ...transitions, records, sender, overrideMark, claimer: deps.node.leadership.holder, isDeadClaimer: options.isDeadHolder })
  const streams = new StreamHub(deps, stores.streams, deps.node.leadership.holder)
  const calendarChanges = new CalendarChangeAnnouncer(deps, {
    changes: stores.calendarChanges,
    webhooks,
    queue,
    broadcast: (mic, frame) => streams.broadcast(mic, frame),
    sendQueued: () => dispatcher.sendQueued(),
  })
  return {
    streams,
    calendarChanges,
    webhooks,
    records,
    sender,
    queue,
    dispatcher,
    baseline: (mic, seen, now) => deps.transactor.run(() => recordBaseline(transitions, mic, seen, now), { name: 'webhook-baseline' }),
  }
}
