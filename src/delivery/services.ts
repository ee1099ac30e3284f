// The delivery domain's long-lived parts over one database: the stream hub (one coordinator per
// MIC), the webhook store, the sender and the dispatcher. Built after the rest of the deps, since
// they issue receipts through them.
import type { Database } from 'bun:sqlite'
import type { AppDeps } from '../deps'
import { StreamHub } from './stream/coordinator'
import { sqliteWebhookStore, type WebhookStore } from './webhooks/store'
import { dispatcherRecords, type DispatcherRecords } from './webhooks/health'
import { WebhookSender } from './webhooks/send'
import { deliveryQueue, type DeliveryQueue } from './webhooks/queue'
import { Dispatcher } from './webhooks/dispatcher'

export interface DeliveryServices {
  streams: StreamHub
  webhooks: WebhookStore
  records: DispatcherRecords
  sender: WebhookSender
  queue: DeliveryQueue
  dispatcher: Dispatcher
}

export function deliveryServices(db: Database, deps: AppDeps): DeliveryServices {
  const webhooks = sqliteWebhookStore(db)
  const records = dispatcherRecords(db)
  const sender = new WebhookSender({ allowPrivate: deps.config.delivery.allowPrivateTargets })
  const queue = deliveryQueue(db)
  // override_events is append-only: its last id changes with every set or clear, from any process.
  const lastOverrideEvent = db.query('SELECT coalesce(max(id), 0) AS id FROM override_events')
  const overrideMark = () => (lastOverrideEvent.get() as { id: number }).id
  return { streams: new StreamHub(deps), webhooks, records, sender, queue, dispatcher: new Dispatcher(deps, { webhooks, queue, records, sender, overrideMark }) }
}
