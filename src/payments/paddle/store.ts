// SQL for billing-provider notifications: every event id once (a redelivery changes nothing),
// the account each subscription and transaction paid for, and the newest subscription status and
// plan applied, each with the provider time of the event that set it (an older event arriving
// late never undoes a newer one).
import type { Database } from 'bun:sqlite'
import type { AccountStatus, Plan } from '../../accounts/plans'

export const PADDLE_SCHEMA_V1 = `
CREATE TABLE paddle_events (
  event_id TEXT PRIMARY KEY,
  event_type TEXT NOT NULL,
  occurred_at TEXT NOT NULL,
  outcome TEXT NOT NULL,
  received_at TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE paddle_transactions (
  transaction_id TEXT PRIMARY KEY,
  account_id INTEGER NOT NULL REFERENCES api_keys (id),
  product TEXT NOT NULL,
  created_at TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE paddle_subscriptions (
  subscription_id TEXT PRIMARY KEY,
  account_id INTEGER REFERENCES api_keys (id),
  status TEXT CHECK (status IN ('active', 'suspended', 'cancelled')),
  status_at TEXT
) WITHOUT ROWID;
`

/** Migration 29: the plan a subscription is on and the provider time of the event that set it. */
export const PADDLE_SCHEMA_V29 = `
ALTER TABLE paddle_subscriptions ADD COLUMN plan TEXT CHECK (plan IN ('builder', 'pro', 'evidence_starter', 'evidence'));
ALTER TABLE paddle_subscriptions ADD COLUMN plan_at TEXT;
`

export interface SubscriptionRow {
  subscription_id: string
  account_id: number | null
  status: AccountStatus | null
  status_at: string | null
  plan: Plan | null
  plan_at: string | null
}

/** Synchronous statements, to be run inside one transaction by the event handler. */
export function paddleStatements(db: Database) {
  const insertEvent = db.query(`INSERT INTO paddle_events (event_id, event_type, occurred_at, outcome, received_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (event_id) DO NOTHING RETURNING event_id`)
  const transaction = db.query(`SELECT account_id FROM paddle_transactions WHERE transaction_id = ?`)
  const insertTransaction = db.query(`INSERT INTO paddle_transactions (transaction_id, account_id, product, created_at) VALUES (?, ?, ?, ?)`)
  const subscription = db.query(`SELECT * FROM paddle_subscriptions WHERE subscription_id = ?`)
  const upsertStatus = db.query(
    `INSERT INTO paddle_subscriptions (subscription_id, account_id, status, status_at) VALUES (?1, NULL, ?2, ?3)
     ON CONFLICT (subscription_id) DO UPDATE SET status = ?2, status_at = ?3`,
  )
  const upsertPlan = db.query(
    `INSERT INTO paddle_subscriptions (subscription_id, account_id, plan, plan_at) VALUES (?1, NULL, ?2, ?3)
     ON CONFLICT (subscription_id) DO UPDATE SET plan = ?2, plan_at = ?3`,
  )
  const linkAccount = db.query(
    `INSERT INTO paddle_subscriptions (subscription_id, account_id) VALUES (?1, ?2)
     ON CONFLICT (subscription_id) DO UPDATE SET account_id = ?2`,
  )
  return {
    /** False when the event id was seen before. */
    recordEvent: (id: string, type: string, occurredAt: string, outcome: string, receivedAt: string) => insertEvent.get(id, type, occurredAt, outcome, receivedAt) !== null,
    accountOfTransaction: (id: string) => (transaction.get(id) as { account_id: number } | null)?.account_id ?? null,
    recordTransaction: (id: string, accountId: number, product: string, at: string) => void insertTransaction.run(id, accountId, product, at),
    subscription: (id: string) => (subscription.get(id) as SubscriptionRow | null) ?? null,
    setSubscriptionStatus: (id: string, status: AccountStatus, at: string) => void upsertStatus.run(id, status, at),
    setSubscriptionPlan: (id: string, plan: Plan, at: string) => void upsertPlan.run(id, plan, at),
    linkSubscription: (id: string, accountId: number) => void linkAccount.run(id, accountId),
  }
}
