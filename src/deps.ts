// What the app is built from: the type only. The wiring that makes one over a backend lives in
// src/wiring/ (one function per backend); domain modules import this type, never the wiring.
import type { DomainDeps } from './domain-deps'
import type { DeliveryServices } from './delivery/services'

export type { DepsParts } from './domain-deps'

export interface AppDeps extends DomainDeps {
  /** Streams (one coordinator per MIC), webhook subscriptions and their dispatcher. */
  delivery: DeliveryServices
}
