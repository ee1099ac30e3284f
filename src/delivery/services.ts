// The delivery domain's long-lived parts over one database: the stream hub (one coordinator per
// MIC), the webhook store, the sender and the dispatcher. Built after the rest of the deps, since
// they issue receipts through them.
import type { Database } from 'bun:sqlite'
import type { AppDeps } from '../deps'
import { StreamHub } from './stream/coordinator'
import { sqliteWebhookStore, type WebhookStore } from './webhooks/store'
import { dispatcherRecords, type DispatcherRecords } from './webhooks/health'
import { WebhookSender } from './webhooks/send'

export interface DeliveryServices {
  streams: StreamHub
  webhooks: WebhookStore
  records: DispatcherRecords
  sender: WebhookSender
}

export function deliveryServices(db: Database, deps: AppDeps): DeliveryServices {
  return {
    streams: new StreamHub(deps),
    webhooks: sqliteWebhookStore(db),
    records: dispatcherRecords(db),
    sender: new WebhookSender({ allowPrivate: deps.config.delivery.allowPrivateTargets }),
  }
}
