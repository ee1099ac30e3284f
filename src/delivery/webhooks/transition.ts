// Recording a market state change for webhooks, as one unit of work that reads what it compares
// against. A node resolves a MIC's state from caches (overrides up to a second old, the halt view
// it last adopted), so its view can lag another node's change: with two processes on one file a
// dispatcher once queued HALTED→CLOSED 0.88 s after the other process set HALTED. So the
// transaction that stores a new state and queues its deliveries first reads the overrides and the
// shared halt view from the database and refuses a state they contradict ('stale': the
// dispatcher looks again once its caches have caught up), then reads the stored state it
// compares against, and the subscriptions it queues for. On PostgreSQL the body runs SERIALIZABLE:
// a concurrent write to what it read makes it run again.
import type { Step } from '../../store/transaction'
import type { OverrideStore } from '../../market/overrides/store'
import type { HaltSnapshot } from '../../market/halts/monitor'
import type { HaltStore } from '../../market/halts/store'
import type { MarketReceipt } from '../../market/receipt'
import type { DeliveryQueue, NewDelivery } from './queue'
import type { WebhookStore } from './store'
import { deliveryBody } from './payload'
import { newMessageId } from './signing'

export interface TransitionStores {
  webhooks: WebhookStore
  queue: DeliveryQueue
  overrides: OverrideStore
  halts: HaltStore
}

/** A state as a resolution or a receipt states it. */
export interface SeenState {
  status: string
  source: string
}

/**
 * Why `seen` (this node's view of `mic`) disagrees with the overrides and the shared halt view
 * stored now, read in the caller's transaction; null when it agrees. The calendar needs no check:
 * every node reads the same files at the same instant.
 */
export function* staleness(stores: Pick<TransitionStores, 'overrides' | 'halts'>, mic: string, seen: SeenState, now: number): Step<string | null> {
  const override = (yield* stores.overrides.current()).find((row) => row.mic === mic && Date.parse(row.expires_at) > now)
  if (override) return seen.source === 'OVERRIDE' && seen.status === override.status ? null : `the override ${override.status} is in force`
  if (seen.source === 'OVERRIDE') return 'no override is in force'
  const published = yield* stores.halts.current()
  // No node publishes a halt view (no feed, or a test's private monitor): this node's own is the only one.
  if (!published) return null
  const halted = mic in (JSON.parse(published.snapshot) as HaltSnapshot).halts
  if (halted && seen.status !== 'HALTED') return 'a real-time halt is in force'
  if (!halted && seen.source === 'REALTIME') return 'no real-time halt is in force'
  return null
}

export type TransitionOutcome = { kind: 'stale'; reason: string } | { kind: 'unchanged' } | { kind: 'recorded'; from: string; deliveries: number }

/** Stores the receipt's state as the MIC's new state and queues one delivery per active subscription, unless stale or unchanged. */
export function* recordTransition(stores: TransitionStores, receipt: MarketReceipt, now: number): Step<TransitionOutcome> {
  const reason = yield* staleness(stores, receipt.mic, receipt, now)
  if (reason) return { kind: 'stale', reason }
  const stored = yield* stores.queue.state(receipt.mic)
  // No stored state (nobody watches it any more, or it was forgotten meanwhile): the next cycle takes a baseline.
  if (!stored || stored.status === receipt.status) return { kind: 'unchanged' }
  const deliveries: NewDelivery[] = (yield* stores.webhooks.activeForMic(receipt.mic))
    .filter((webhook) => webhook.events.includes('status_change'))
    .map((webhook) => ({ id: newMessageId(), webhook, body: JSON.stringify(deliveryBody({ webhook_id: webhook.id, mic: receipt.mic, previous_status: stored.status, current_status: receipt.status, receipt, occurred_at: receipt.issued_at })) }))
  yield* stores.queue.record({ mic: receipt.mic, status: receipt.status, source: receipt.source, changed_at: receipt.issued_at }, deliveries, now)
  return { kind: 'recorded', from: stored.status, deliveries: deliveries.length }
}

/** Stores a first state for a MIC nobody watched (nothing delivered), unless one is stored or the view is stale; true when it did. */
export function* recordBaseline(stores: TransitionStores, mic: string, seen: SeenState, now: number): Step<boolean> {
  if (yield* staleness(stores, mic, seen, now)) return false
  return yield* stores.queue.baseline({ mic, status: seen.status, source: seen.source, changed_at: new Date(now).toISOString() })
}
