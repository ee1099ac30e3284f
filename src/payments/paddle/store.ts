// SQL for billing-provider notifications: every event id once (a redelivery changes nothing),
// the account each subscription and transaction paid for, and the newest subscription status and
// plan applied, each with the provider time of the event that set it (an older event arriving
// late never undoes a newer one).
import type { Database } from 'bun:sqlite'
import type { AccountStatus, Plan } from '../../catalogue/plans'
import type { Step } from '../../store/transaction'
import { sqliteStep } from '../../store/sqlite-transaction'
import { positional } from '../../store/sql-text'

export interface SubscriptionRow {
  subscription_id: string
  account_id: number | null
  status: AccountStatus | null
  status_at: string | null
  plan: Plan | null
  plan_at: string | null
}

/** The handler's statements, each a step of its one unit of work per event (handler.ts). */
export interface PaddleStore {
  /** False when the event id was seen before. */
  recordEvent(id: string, type: string, occurredAt: string, outcome: string, receivedAt: string): Step<boolean>
  /** Whether the event id was recorded (a redelivery). */
  seenEvent(id: string): Step<boolean>
  accountOfTransaction(id: string): Step<number | null>
  recordTransaction(id: string, accountId: number, product: string, at: string): Step<void>
  subscription(id: string): Step<SubscriptionRow | null>
  setSubscriptionStatus(id: string, status: AccountStatus, at: string): Step<void>
  setSubscriptionPlan(id: string, plan: Plan, at: string): Step<void>
  linkSubscription(id: string, accountId: number): Step<void>
}

// The statements both backends run ($n parameters; SQLite binds them as ?n).
export const PADDLE_SQL = {
  insertEvent: `INSERT INTO paddle_events (event_id, event_type, occurred_at, outcome, received_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (event_id) DO NOTHING RETURNING event_id`,
  seenEvent: `SELECT 1 AS seen FROM paddle_events WHERE event_id = $1`,
  transaction: `SELECT account_id FROM paddle_transactions WHERE transaction_id = $1`,
  insertTransaction: `INSERT INTO paddle_transactions (transaction_id, account_id, product, created_at) VALUES ($1, $2, $3, $4)`,
  subscription: `SELECT subscription_id, account_id, status, status_at, plan, plan_at FROM paddle_subscriptions WHERE subscription_id = $1`,
  upsertStatus: `INSERT INTO paddle_subscriptions (subscription_id, account_id, status, status_at) VALUES ($1, NULL, $2, $3)
ON CONFLICT (subscription_id) DO UPDATE SET status = excluded.status, status_at = excluded.status_at`,
  upsertPlan: `INSERT INTO paddle_subscriptions (subscription_id, account_id, plan, plan_at) VALUES ($1, NULL, $2, $3)
ON CONFLICT (subscription_id) DO UPDATE SET plan = excluded.plan, plan_at = excluded.plan_at`,
  linkAccount: `INSERT INTO paddle_subscriptions (subscription_id, account_id) VALUES ($1, $2)
ON CONFLICT (subscription_id) DO UPDATE SET account_id = excluded.account_id`,
} as const

export function sqlitePaddleStore(db: Database): PaddleStore {
  const q = Object.fromEntries(Object.entries(PADDLE_SQL).map(([name, text]) => [name, db.query(positional(text))])) as Record<keyof typeof PADDLE_SQL, ReturnType<Database['query']>>
  return {
    recordEvent: (id, type, occurredAt, outcome, receivedAt) => sqliteStep(() => q.insertEvent.get(id, type, occurredAt, outcome, receivedAt) !== null),
    seenEvent: (id) => sqliteStep(() => q.seenEvent.get(id) !== null),
    accountOfTransaction: (id) => sqliteStep(() => (q.transaction.get(id) as { account_id: number } | null)?.account_id ?? null),
    recordTransaction: (id, accountId, product, at) => sqliteStep(() => void q.insertTransaction.run(id, accountId, product, at)),
    subscription: (id) => sqliteStep(() => (q.subscription.get(id) as SubscriptionRow | null) ?? null),
    setSubscriptionStatus: (id, status, at) => sqliteStep(() => void q.upsertStatus.run(id, status, at)),
    setSubscriptionPlan: (id, plan, at) => sqliteStep(() => void q.upsertPlan.run(id, plan, at)),
    linkSubscription: (id, accountId) => sqliteStep(() => void q.linkAccount.run(id, accountId)),
  }
}
