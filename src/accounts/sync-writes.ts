// Synchronous account writes for callers that must commit them with their own rows in one SQLite
// transaction (payments: creating a key, granting credits and recording the spent proof or the
// billing event together). The accounts domain owns these statements; others use this interface.
import type { Database } from 'bun:sqlite'
import { randomBytes } from 'node:crypto'
import { displayPrefix, hashKey } from './keys'
import { KEY_CLASSES, type AccountStatus, type KeyClass, type Plan } from './plans'

export interface SyncAccountWrites {
  issueKey(options: { plan: Plan; keyClass: KeyClass; email: string | null; creditBalance: number; now: number; expiresAt?: string | null }): { accountId: number; key: string }
  setStatus(accountId: number, status: AccountStatus): void
  /** Moves a key to another plan (a subscription changed to another product). */
  setPlan(accountId: number, plan: Plan): void
  /** Adds credits; returns the new balance. */
  grantCredits(accountId: number, credits: number): number
}

export function sqliteSyncAccountWrites(db: Database): SyncAccountWrites {
  const insert = db.query(
    `INSERT INTO api_keys (key_hash, key_prefix, class, plan, created_at, expires_at, calls_remaining, agent_id, email, credit_balance)
     VALUES (?, ?, ?, ?, ?, ?, NULL, NULL, ?, ?) RETURNING id`,
  )
  const setStatus = db.query('UPDATE api_keys SET status = ? WHERE id = ?')
  const revokeTokens = db.query('DELETE FROM oauth_tokens WHERE account_id = ?')
  const setPlan = db.query('UPDATE api_keys SET plan = ? WHERE id = ?')
  const grant = db.query('UPDATE api_keys SET credit_balance = credit_balance + ? WHERE id = ? RETURNING credit_balance')
  return {
    issueKey({ plan, keyClass, email, creditBalance, now, expiresAt = null }) {
      const key = KEY_CLASSES[keyClass] + randomBytes(32).toString('hex')
      const row = insert.get(hashKey(key), displayPrefix(key), keyClass, plan, new Date(now).toISOString(), expiresAt, email, creditBalance) as { id: number }
      return { accountId: row.id, key }
    },
    setStatus(accountId, status) {
      // Runs inside the caller's transaction; tokens die with their key (docs/accounts.md).
      setStatus.run(status, accountId)
      if (status !== 'active') revokeTokens.run(accountId)
    },
    setPlan(accountId, plan) {
      setPlan.run(plan, accountId)
    },
    grantCredits(accountId, credits) {
      return (grant.get(credits, accountId) as { credit_balance: number }).credit_balance
    },
  }
}
