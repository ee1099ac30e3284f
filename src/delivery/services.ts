// The delivery domain's long-lived parts over its stores: the stream hub (one coordinator per
// MIC), the webhook store, the sender and the dispatcher. Built after the rest of the deps, since
// they issue receipts through them.
import type { DomainDeps } from '../domain-deps'
import { StreamHub } from './stream/coordinator'
import type { WebhookStore } from './webhooks/store'
import type { DispatcherRecords } from './webhooks/health'
import { WebhookSender } from './webhooks/send'
import type { DeliveryQueue } from './webhooks/queue'
import { Dispatcher } from './webhooks/dispatcher'

/** The delivery domain's stores (a backend provides them). */
export interface DeliveryStores {
  webhooks: WebhookStore
  deliveryQueue: DeliveryQueue
  dispatcherRecords: DispatcherRecords
  /** Changes whenever any process sets or clears an override (absent where the override store pushes changes). */
  overrideMark?: () => number
}

export interface DeliveryServices {
  streams: StreamHub
  webhooks: WebhookStore
  records: DispatcherRecords
  sender: WebhookSender
  queue: DeliveryQueue
  dispatcher: Dispatcher
}

export function deliveryServices(stores: DeliveryStores, deps: DomainDeps): DeliveryServices {
  const { webhooks, deliveryQueue: queue, dispatcherRecords: records, overrideMark } = stores
  const sender = new WebhookSender({ allowPrivate: deps.config.delivery.allowPrivateTargets })
  return { streams: new StreamHub(deps), webhooks, records, sender, queue, dispatcher: new Dispatcher(deps, { webhooks, queue, records, sender, overrideMark }) }
}
