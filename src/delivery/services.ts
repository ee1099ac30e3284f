// The delivery domain's long-lived parts over one database: the stream hub (one coordinator per
// MIC), the webhook store and the dispatcher. Built after the rest of the deps, since they issue
// receipts through them.
import type { Database } from 'bun:sqlite'
import type { AppDeps } from '../deps'
import { StreamHub } from './stream/coordinator'

export interface DeliveryServices {
  streams: StreamHub
}

export function deliveryServices(_db: Database, deps: AppDeps): DeliveryServices {
  return { streams: new StreamHub(deps) }
}
