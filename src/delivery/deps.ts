// What the delivery domain's routes take (types only: a full set of the app's dependencies
// satisfies it). What its long-lived parts take is in service-deps.ts.
import type { Transactor } from '../store/transaction'
import type { KeyCheckDeps } from '../accounts/deps'
import type { IssueDeps } from '../market/deps'
import type { DeliveryServices } from './services'

/** The delivery surfaces (routes/): /v5/stream, webhook subscriptions, test deliveries, the dispatcher's health. */
export interface DeliveryDeps extends KeyCheckDeps, IssueDeps {
  transactor: Transactor
  /** Streams (one coordinator per MIC), webhook subscriptions and their dispatcher. */
  delivery: DeliveryServices
}
