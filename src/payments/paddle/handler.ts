// Applying one verified Paddle notification: in one IMMEDIATE transaction the event id is
// recorded (a redelivery finds it and changes nothing) and its effect applied — a key for a
// completed purchase (stored hashed, its text only in the mail outbox; a renewal of a subscription
// that already has a key makes none), the plan a purchase or a subscription change puts the key
// on, or the account status a subscription event sets. Per subscription, events apply in provider
// time (occurred_at): the status and the plan each change only for an event newer than the one
// that last set them, so an older event arriving late changes nothing.
import type { Database } from 'bun:sqlite'
import type { AccountStatus, KeyClass, Plan } from '../../accounts/plans'
import type { PaddleProduct } from '../../config'
import { purchaseFrom, statusFromSubscriptionEvent, subscribedProduct, type CompletedPurchase, type PaddleEvent } from './events'
import { paddleStatements } from './store'
import { creditLedger } from '../credits'

/** Account writes the handler needs, synchronous so they join its transaction. */
export interface PaddleAccountWrites {
  /** Creates a key; returns the account id and the key text (shown nowhere but the e-mail). */
  issueKey(options: { plan: Plan; keyClass: KeyClass; email: string; creditBalance: number; now: number }): { accountId: number; key: string }
  setStatus(accountId: number, status: AccountStatus): void
  setPlan(accountId: number, plan: Plan): void
  /** Stores the e-mail carrying a new key in the outbox (sent by the mail job after commit). */
  enqueueKeyMail(options: { to: string; key: string; product: PaddleProduct; now: number }): void
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

export type PaddleEventHandler = ReturnType<typeof paddleEventHandler>

export function paddleEventHandler(db: Database, writes: PaddleAccountWrites, prices: Partial<Record<PaddleProduct, string>>) {
  const sql = paddleStatements(db)
  const ledger = creditLedger(db)

  /**
   * Puts the subscription (and its key, once it has one) on `plan`, unless the plan was set by an
   * event that occurred later: then nothing changes ('stale' when that later plan is another one).
   * Events of the same instant apply in the order they arrive.
   */
  const applyPlan = (subscriptionId: string, plan: Plan, event: PaddleEvent): 'applied' | 'unchanged' | 'stale' => {
    const known = sql.subscription(subscriptionId)
    if (known?.plan_at && known.plan_at > event.occurred_at) return known.plan === plan ? 'unchanged' : 'stale'
    sql.setSubscriptionPlan(subscriptionId, plan, event.occurred_at)
    if (known?.account_id) writes.setPlan(known.account_id, plan)
    return 'applied'
  }

  const complete = (event: PaddleEvent, purchase: CompletedPurchase, email: string, now: number): HandledEvent => {
    if (sql.accountOfTransaction(purchase.transactionId) !== null) return { outcome: 'duplicate' }
    const grant = PRODUCT_GRANTS[purchase.product]
    const linked = purchase.subscriptionId ? sql.subscription(purchase.subscriptionId)?.account_id ?? null : null
    if (linked !== null) {
      // A renewal (Paddle completes a new transaction every billing period) or a change of plan
      // within the subscription: the subscription's key goes on, on the plan paid for, unless a
      // later event already set another plan; a second key would escape a later cancellation.
      const plan = grant.keyClass === 'paid' ? applyPlan(purchase.subscriptionId!, grant.plan, event) : 'unchanged'
      sql.recordTransaction(purchase.transactionId, linked, purchase.product, new Date(now).toISOString())
      return { outcome: plan === 'stale' ? 'stale' : 'applied', accountId: linked }
    }
    const { accountId, key } = writes.issueKey({ plan: grant.plan, keyClass: grant.keyClass, email, creditBalance: grant.credits, now })
    sql.recordTransaction(purchase.transactionId, accountId, purchase.product, new Date(now).toISOString())
    if (grant.credits > 0) ledger.record(accountId, grant.credits, 'grant', `paddle:${purchase.transactionId}`, new Date(now).toISOString())
    writes.enqueueKeyMail({ to: email, key, product: purchase.product, now })
    if (purchase.subscriptionId) {
      // Subscription events that arrived before this purchase already say how the account stands.
      const known = sql.subscription(purchase.subscriptionId)
      sql.linkSubscription(purchase.subscriptionId, accountId)
      if (known?.status && known.status !== 'active' && known.status_at !== null && known.status_at > event.occurred_at) writes.setStatus(accountId, known.status)
      if (grant.keyClass === 'paid' && applyPlan(purchase.subscriptionId, grant.plan, event) === 'stale' && known?.plan) writes.setPlan(accountId, known.plan)
    }
    return { outcome: 'applied', accountId }
  }

  /** subscription.* events: the account status, and (subscription.updated) the plan its items name; each only when newer than what set it. */
  const subscriptionChange = (event: PaddleEvent, status: AccountStatus | null, plan: Plan | null): HandledEvent => {
    const id = typeof event.data.id === 'string' ? event.data.id : null
    if (!id) return { outcome: 'ignored' }
    const known = sql.subscription(id)
    let applied = false
    if (status && !(known?.status_at && known.status_at >= event.occurred_at)) {
      sql.setSubscriptionStatus(id, status, event.occurred_at)
      if (known?.account_id) writes.setStatus(known.account_id, status)
      applied = true
    }
    if (plan && applyPlan(id, plan, event) === 'applied') applied = true
    return { outcome: applied ? 'applied' : 'stale', accountId: known?.account_id ?? undefined }
  }

  /**
   * Applies an event. `email` is the purchase's address when the caller had to look it up (the
   * look-up is a network call, so it happens before this transaction).
   */
  return function handle(event: PaddleEvent, email: string | null, now: number): HandledEvent {
    return db
      .transaction((): HandledEvent => {
        const purchase = event.event_type === 'transaction.completed' ? purchaseFrom(event, prices) : null
        const status = statusFromSubscriptionEvent(event)
        const product = subscribedProduct(event, prices)
        const plan = product && PRODUCT_GRANTS[product].keyClass === 'paid' ? PRODUCT_GRANTS[product].plan : null
        let result: HandledEvent = { outcome: 'ignored' }
        if (purchase && email) result = complete(event, purchase, email, now)
        else if (status || plan) result = subscriptionChange(event, status, plan)
        if (!sql.recordEvent(event.event_id, event.event_type, event.occurred_at, result.outcome, new Date(now).toISOString())) {
          // Seen before: undo whatever this attempt did.
          throw new DuplicateEvent()
        }
        return result
      })
      .immediate()
  }
}

class DuplicateEvent extends Error {}

/** Runs the handler, turning a redelivered event into the "duplicate" outcome with nothing changed. */
export function applyOnce(handle: ReturnType<typeof paddleEventHandler>, event: PaddleEvent, email: string | null, now: number): HandledEvent {
  try {
    return handle(event, email, now)
  } catch (error) {
    if (error instanceof DuplicateEvent) return { outcome: 'duplicate' }
    throw error
  }
}
