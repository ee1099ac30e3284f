// The Paddle handler still takes its account writes synchronously, inside its own SQLite
// transaction (payments/paddle/handler.ts); the accounts domain now gives them as steps. Until the
// handler is written as steps (issue 23: the `paddleEvents` store), this runs each step at once,
// which is what a step does on SQLite. On PostgreSQL the handler does not exist yet
// (postgresStores names it missing), so these never meet a PostgreSQL step.
import type { AccountWrites } from '../accounts/account-writes'
import type { DomainDeps } from '../domain-deps'
import type { PaddleAccountWrites } from '../payments/paddle/handler'
import { runSync } from '../store/sqlite-transaction'

export function paddleAccountWrites(writes: AccountWrites, keyMail: DomainDeps['keyMail']): PaddleAccountWrites {
  return {
    issueKey: (options) => runSync(writes.issueKey(options)),
    setStatus: (accountId, status) => runSync(writes.setStatus(accountId, status)),
    setPlan: (accountId, plan) => runSync(writes.setPlan(accountId, plan)),
    enqueueKeyMail: (mail) => void runSync(keyMail(mail)),
  }
}
