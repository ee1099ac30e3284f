// What a Paddle notification means for this service, as pure data: which plan a completed
// transaction bought, which plan a subscription is on, and which account status a subscription
// event sets.
import type { AccountStatus } from '../../catalogue/plans'
import type { PaddleProduct } from '../../config'

export interface PaddleEvent {
  event_id: string
  event_type: string
  occurred_at: string
  data: Record<string, unknown>
}

export const HANDLED_EVENTS = ['transaction.completed', 'subscription.updated', 'subscription.past_due', 'subscription.canceled'] as const

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** A notification body, or null when it lacks what every event has. */
export function parsePaddleEvent(body: unknown): PaddleEvent | null {
  if (!isObject(body) || !isObject(body.data)) return null
  const { event_id, event_type, occurred_at } = body
  if (typeof event_id !== 'string' || !/^[A-Za-z0-9_-]{1,100}$/.test(event_id)) return null
  if (typeof event_type !== 'string' || typeof occurred_at !== 'string' || Number.isNaN(Date.parse(occurred_at))) return null
  return { event_id, event_type, occurred_at: new Date(occurred_at).toISOString(), data: body.data }
}

/** The account status a subscription event sets (spec 3: active, suspended, cancelled). */
export function statusFromSubscriptionEvent(event: PaddleEvent): AccountStatus | null {
  if (event.event_type === 'subscription.past_due') return 'suspended'
  if (event.event_type === 'subscription.canceled') return 'cancelled'
  if (event.event_type !== 'subscription.updated') return null
  switch (event.data.status) {
    case 'active':
    case 'trialing':
      return 'active'
    case 'past_due':
    case 'paused':
      return 'suspended'
    case 'canceled':
      return 'cancelled'
    default:
      return null
  }
}

export interface CompletedPurchase {
  transactionId: string
  product: PaddleProduct
  customerId: string | null
  subscriptionId: string | null
  email: string | null
}

/** The product of a transaction's or subscription's items, matched by their price ids; null for none of ours. */
function productOfItems(data: Record<string, unknown>, prices: Partial<Record<PaddleProduct, string>>): PaddleProduct | null {
  const items = Array.isArray(data.items) ? data.items : []
  const priceIds = items.map((item) => (isObject(item) && isObject(item.price) ? item.price.id : isObject(item) ? item.price_id : null)).filter((id): id is string => typeof id === 'string')
  return (Object.entries(prices) as [PaddleProduct, string][]).find(([, price]) => priceIds.includes(price))?.[0] ?? null
}

/** The product a `subscription.updated` says the subscription is on now (a plan change), or null. */
export function subscribedProduct(event: PaddleEvent, prices: Partial<Record<PaddleProduct, string>>): PaddleProduct | null {
  return event.event_type === 'subscription.updated' ? productOfItems(event.data, prices) : null
}

/** The product a completed transaction bought, matched by its price ids; null for none of ours. */
export function purchaseFrom(event: PaddleEvent, prices: Partial<Record<PaddleProduct, string>>): CompletedPurchase | null {
  const { data } = event
  if (typeof data.id !== 'string') return null
  const product = productOfItems(data, prices)
  if (!product) return null
  const custom = isObject(data.custom_data) ? data.custom_data : {}
  const email = typeof custom.email === 'string' && /^[^\s@]{1,64}@[^\s@]{1,255}$/.test(custom.email) ? custom.email : null
  return {
    transactionId: data.id,
    product,
    customerId: typeof data.customer_id === 'string' ? data.customer_id : null,
    subscriptionId: typeof data.subscription_id === 'string' ? data.subscription_id : null,
    email,
  }
}
