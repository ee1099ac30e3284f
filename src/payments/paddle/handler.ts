// Applying one verified Paddle notification: in one unit of work (one transaction, on either
// backend) the event id is recorded (a redelivery finds it and changes nothing) and its effect applied — a key for a
// completed purchase (stored hashed, its text only in the mail outbox; a renewal of a subscription
// that already has a key makes none), the plan a purchase or a subscription change puts the key
// on, or the account status a subscription event sets. Per subscription, events apply in provider
// time (occurred_at): the status and the plan each change only for an event newer than the one
// that last set them, so an older event arriving late changes nothing.
import type { AccountStatus, KeyClass, Plan } from '../../catalogue/plans'
import type { AccountWrites } from '../../accounts/account-writes'
import type { PaddleProduct } from '../../config'
import type { Step, Transactor } from '../../store/transaction'
import { purchaseFrom, statusFromSubscriptionEvent, subscribedProduct, type CompletedPurchase, type PaddleEvent } from './events'
import type { PaddleStore } from './store'
import type { CreditLedger } from '../credits'

/** What the handler writes to, each a store of steps joined into one unit of work per event. */
export interface PaddleHandlerParts {
  store: PaddleStore
  ledger: CreditLedger
  /** The accounts domain's writes (a key, its status and plan). */
  writes: AccountWrites
  /** Stores the e-mail carrying a new key in the outbox (sent by the mail job after commit). */
  keyMail: (mail: { to: string; key: string; product: PaddleProduct; now: number }) => Step<unknown>
  transactor: Transactor
}

/** What each product buys. Credits: a credit key holding 1,000 credits. */
export const PRODUCT_GRANTS: Record<PaddleProduct, { plan: Plan; keyClass: KeyClass; credits: number }> = {
  builder: { plan: 'builder', keyClass: 'paid', credits: 0 },
  pro: { plan: 'pro', keyClass: 'paid', credits: 0 },
  credits: { plan: 'free', keyClass: 'credit', credits: 1000 },
  custody_90d: { plan: 'evidence_starter', keyClass: 'paid', credits: 0 },
  custody_1y: { plan: 'evidence', keyClass: 'paid', credits: 0 },
}

export type EventOutcome = 'applied' | 'duplicate' | 'stale' | 'ignored'

export interface HandledEvent {
  outcome: EventOutcome
  accountId?: number
}

/** Applies one verified event once; `email` is the purchase's address when it had to be looked up first. */
export type PaddleEventHandler = (event: PaddleEvent, email: string | null, now: number) => Promise<HandledEvent>

export function paddleEventHandler(parts: PaddleHandlerParts, prices: Partial<Record<PaddleProduct, string>>): PaddleEventHandler {
  const { store, ledger, writes, keyMail, transactor } = parts

  /**
   * Puts the subscription (and its key, once it has one) on `plan`, unless the plan was set by an
   * event that occurred later: then nothing changes ('stale' when that later plan is another one).
   * Events of the same instant apply in the order they arrive.
   */
  function* applyPlan(subscriptionId: string, plan: Plan, event: PaddleEvent): Step<'applied' | 'unchanged' | 'stale'> {
    const known = yield* store.subscription(subscriptionId)
    if (known?.plan_at && known.plan_at > event.occurred_at) return known.plan === plan ? 'unchanged' : 'stale'
    yield* store.setSubscriptionPlan(subscriptionId, plan, event.occurred_at)
    if (known?.account_id) yield* writes.setPlan(known.account_id, plan)
    return 'applied'
  }

  function* complete(event: PaddleEvent, purchase: CompletedPurchase, email: string, now: number): Step<HandledEvent> {
    if ((yield* store.accountOfTransaction(purchase.transactionId)) !== null) return { outcome: 'duplicate' }
    const grant = PRODUCT_GRANTS[purchase.product]
    const at = new Date(now).toISOString()
    const linked = purchase.subscriptionId ? (yield* store.subscription(purchase.subscriptionId))?.account_id ?? null : null
    if (linked !== null) {
      // A renewal (Paddle completes a new transaction every billing period) or a change of plan
      // within the subscription: the subscription's key goes on, on the plan paid for, unless a
      // later event already set another plan; a second key would escape a later cancellation.
      const plan = grant.keyClass === 'paid' ? yield* applyPlan(purchase.subscriptionId!, grant.plan, event) : 'unchanged'
      yield* store.recordTransaction(purchase.transactionId, linked, purchase.product, at)
      return { outcome: plan === 'stale' ? 'stale' : 'applied', accountId: linked }
    }
    const { accountId, key } = yield* writes.issueKey({ plan: grant.plan, keyClass: grant.keyClass, email, creditBalance: grant.credits, now })
    yield* store.recordTransaction(purchase.transactionId, accountId, purchase.product, at)
    if (grant.credits > 0) yield* ledger.record(accountId, grant.credits, 'grant', `paddle:${purchase.transactionId}`, at)
    yield* keyMail({ to: email, key, product: purchase.product, now })
    if (purchase.subscriptionId) {
      // Subscription events that arrived before this purchase already say how the account stands.
      const known = yield* store.subscription(purchase.subscriptionId)
      yield* store.linkSubscription(purchase.subscriptionId, accountId)
      if (known?.status && known.status !== 'active' && known.status_at !== null && known.status_at > event.occurred_at) yield* writes.setStatus(accountId, known.status)
      if (grant.keyClass === 'paid' && (yield* applyPlan(purchase.subscriptionId, grant.plan, event)) === 'stale' && known?.plan) yield* writes.setPlan(accountId, known.plan)
    }
    return { outcome: 'applied', accountId }
  }

  /** subscription.* events: the account status, and (subscription.updated) the plan its items name; each only when newer than what set it. */
  function* subscriptionChange(event: PaddleEvent, status: AccountStatus | null, plan: Plan | null): Step<HandledEvent> {
    const id = typeof event.data.id === 'string' ? event.data.id : null
    if (!id) return { outcome: 'ignored' }
    const known = yield* store.subscription(id)
    let applied = false
    if (status && !(known?.status_at && known.status_at >= event.occurred_at)) {
      yield* store.setSubscriptionStatus(id, status, event.occurred_at)
      if (known?.account_id) yield* writes.setStatus(known.account_id, status)
      applied = true
    }
    if (plan && (yield* applyPlan(id, plan, event)) === 'applied') applied = true
    return { outcome: applied ? 'applied' : 'stale', accountId: known?.account_id ?? undefined }
  }

  /**
   * One unit of work per event: the event id, its effect, and the account writes and key mail it
   * causes commit together or not at all. On PostgreSQL, two nodes applying events of the same
   * subscription at once are serialized (one runs again after the other committed), so the
   * provider-time rule holds across nodes; a redelivery that races its first delivery finds it
   * recorded when it runs again.
   */
  return async function handle(event, email, now) {
    const purchase = event.event_type === 'transaction.completed' ? purchaseFrom(event, prices) : null
    const status = statusFromSubscriptionEvent(event)
    const product = subscribedProduct(event, prices)
    const plan = product && PRODUCT_GRANTS[product].keyClass === 'paid' ? PRODUCT_GRANTS[product].plan : null
    try {
      return await transactor.run(function* (): Step<HandledEvent> {
        if (yield* store.seenEvent(event.event_id)) return { outcome: 'duplicate' }
        let result: HandledEvent = { outcome: 'ignored' }
        if (purchase && email) result = yield* complete(event, purchase, email, now)
        else if (status || plan) result = yield* subscriptionChange(event, status, plan)
        // Recorded last, with the outcome. Seen meanwhile: undo whatever this attempt did.
        if (!(yield* store.recordEvent(event.event_id, event.event_type, event.occurred_at, result.outcome, new Date(now).toISOString()))) throw new DuplicateEvent()
        return result
      }, { name: 'paddle-event' })
    } catch (error) {
      if (error instanceof DuplicateEvent) return { outcome: 'duplicate' }
      throw error
    }
  }
}

class DuplicateEvent extends Error {}
