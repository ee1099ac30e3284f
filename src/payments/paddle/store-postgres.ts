// Billing-provider notifications on PostgreSQL (store.ts says what is kept). Every statement is a
// step of the handler's SERIALIZABLE unit of work, so two nodes applying events of one
// subscription at once apply them one after the other.
import type { SQL } from 'bun'
import { postgresStep } from '../../store/postgres-transaction'
import { PADDLE_SQL, type PaddleStore, type SubscriptionRow } from './store'

export function postgresPaddleStore(_pool?: SQL): PaddleStore {
  const rows = <T>(text: string, values: unknown[]) => postgresStep(async (tx) => (await tx.unsafe(text, values)) as T[])
  return {
    *recordEvent(id, type, occurredAt, outcome, receivedAt) {
      return (yield* rows(PADDLE_SQL.insertEvent, [id, type, occurredAt, outcome, receivedAt])).length > 0
    },
    *seenEvent(id) {
      return (yield* rows(PADDLE_SQL.seenEvent, [id])).length > 0
    },
    *accountOfTransaction(id) {
      return (yield* rows<{ account_id: number }>(PADDLE_SQL.transaction, [id]))[0]?.account_id ?? null
    },
    *recordTransaction(id, accountId, product, at) {
      yield* rows(PADDLE_SQL.insertTransaction, [id, accountId, product, at])
    },
    *subscription(id) {
      return (yield* rows<SubscriptionRow>(PADDLE_SQL.subscription, [id]))[0] ?? null
    },
    *setSubscriptionStatus(id, status, at) {
      yield* rows(PADDLE_SQL.upsertStatus, [id, status, at])
    },
    *setSubscriptionPlan(id, plan, at) {
      yield* rows(PADDLE_SQL.upsertPlan, [id, plan, at])
    },
    *linkSubscription(id, accountId) {
      yield* rows(PADDLE_SQL.linkAccount, [id, accountId])
    },
  }
}
