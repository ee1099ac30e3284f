// Account writes that join another domain's unit of work (payments: creating a key, granting
// credits and recording the spent proof or the billing event together). Each is a step
// (src/store/transaction.ts): `yield*` it inside `deps.transactor.run`. The accounts domain owns
// these statements; others use this interface.
import type { Database } from 'bun:sqlite'
import { randomBytes } from 'node:crypto'
import type { Step } from '../store/transaction'
import { sqliteStep } from '../store/sqlite-transaction'
import { displayPrefix, hashKey } from './keys'
import { KEY_CLASSES, type AccountStatus, type KeyClass, type Plan } from '../catalogue/plans'

export interface NewKeyOptions {
  plan: Plan
  keyClass: KeyClass
  email: string | null
  creditBalance: number
  now: number
  expiresAt?: string | null
}

export interface AccountWrites {
  /** Creates a key; the account id and the key text (shown once, or only in the e-mail). */
  issueKey(options: NewKeyOptions): Step<{ accountId: number; key: string }>
  /** Sets the status; a key that is no longer active loses its OAuth tokens (docs/accounts.md). */
  setStatus(accountId: number, status: AccountStatus): Step<void>
  /** Moves a key to another plan (a subscription changed to another product). */
  setPlan(accountId: number, plan: Plan): Step<void>
  /** Adds credits; returns the new balance. */
  grantCredits(accountId: number, credits: number): Step<number>
}

/** A new key's text and the row values every backend stores for it. */
export function newKeyRow(options: NewKeyOptions) {
  const key = KEY_CLASSES[options.keyClass] + randomBytes(32).toString('hex')
  return {
    key,
    values: [hashKey(key), displayPrefix(key), options.keyClass, options.plan, new Date(options.now).toISOString(), options.expiresAt ?? null, options.email, options.creditBalance] as const,
  }
}

export const INSERT_KEY_SQL = `INSERT INTO api_keys (key_hash, key_prefix, class, plan, created_at, expires_at, calls_remaining, agent_id, email, credit_balance)
VALUES ($1, $2, $3, $4, $5, $6, NULL, NULL, $7, $8) RETURNING id`
export const GRANT_CREDITS_SQL = 'UPDATE api_keys SET credit_balance = credit_balance + $2 WHERE id = $1 RETURNING credit_balance'

export function sqliteAccountWrites(db: Database): AccountWrites {
  const insert = db.query(INSERT_KEY_SQL.replace(/\$(\d)/g, '?$1'))
  const setStatus = db.query('UPDATE api_keys SET status = ? WHERE id = ?')
  const revokeTokens = db.query('DELETE FROM oauth_tokens WHERE account_id = ?')
  const setPlan = db.query('UPDATE api_keys SET plan = ? WHERE id = ?')
  const grant = db.query(GRANT_CREDITS_SQL.replace(/\$(\d)/g, '?$1'))
  return {
    issueKey: (options) =>
      sqliteStep(() => {
        const { key, values } = newKeyRow(options)
        return { accountId: (insert.get(...values) as { id: number }).id, key }
      }),
    setStatus: (accountId, status) =>
      sqliteStep(() => {
        setStatus.run(status, accountId)
        if (status !== 'active') revokeTokens.run(accountId)
      }),
    setPlan: (accountId, plan) => sqliteStep(() => void setPlan.run(plan, accountId)),
    grantCredits: (accountId, credits) => sqliteStep(() => (grant.get(accountId, credits) as { credit_balance: number }).credit_balance),
  }
}
