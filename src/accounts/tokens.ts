// OAuth access tokens (client credentials). A token is 32 random bytes; only its SHA-256 is
// stored, with the key's account, so a token dies with its key (expiry, suspension, cancellation).
import type { Database } from 'bun:sqlite'
import { randomBytes } from 'node:crypto'
import { sha256Hex } from '../crypto/hash'
import type { AccountRow } from './store'

export const TOKEN_LIFETIME_SECONDS = 3600
export const TOKEN_SCOPE = 'mcp'
/** Live tokens kept per key; issuing more drops the oldest. */
export const MAX_TOKENS_PER_KEY = 100
export const TOKEN_PREFIX = 'obt_'
export const TOKEN_PATTERN = /^obt_[A-Za-z0-9_-]{43}$/

export const hashToken = (token: string) => sha256Hex(token)

export interface TokenStore {
  /** Stores a new token's hash; drops expired tokens and a key's oldest beyond the cap. Resolves after commit. */
  insert(row: { tokenHash: string; accountId: number; scope: string; createdAt: number; expiresAt: number }): Promise<void>
  /** The token's account and expiry, or null. */
  find(tokenHash: string): Promise<{ account: AccountRow; scope: string; expiresAt: number } | null>
  /** Removes every token of an account (it was suspended or cancelled). */
  revokeAccount(accountId: number): Promise<number>
}

export function sqliteTokenStore(db: Database): TokenStore {
  const insert = db.query('INSERT INTO oauth_tokens (token_hash, account_id, scope, created_at, expires_at) VALUES (?, ?, ?, ?, ?)')
  const pruneExpired = db.query('DELETE FROM oauth_tokens WHERE expires_at <= ?')
  const pruneOldest = db.query(
    `DELETE FROM oauth_tokens WHERE account_id = ?1 AND token_hash NOT IN
       (SELECT token_hash FROM oauth_tokens WHERE account_id = ?1 ORDER BY created_at DESC LIMIT ?2)`,
  )
  const find = db.query(
    `SELECT t.scope AS t_scope, t.expires_at AS t_expires_at, k.* FROM oauth_tokens t JOIN api_keys k ON k.id = t.account_id WHERE t.token_hash = ?`,
  )
  const revoke = db.query('DELETE FROM oauth_tokens WHERE account_id = ?')
  const insertTx = db.transaction((row: Parameters<TokenStore['insert']>[0]) => {
    pruneExpired.run(row.createdAt)
    insert.run(row.tokenHash, row.accountId, row.scope, row.createdAt, row.expiresAt)
    pruneOldest.run(row.accountId, MAX_TOKENS_PER_KEY)
  })
  return {
    async insert(row) {
      insertTx.immediate(row)
    },
    async find(tokenHash) {
      const row = find.get(tokenHash) as (AccountRow & { t_scope: string; t_expires_at: number }) | null
      if (!row) return null
      const { t_scope, t_expires_at, ...account } = row
      return { account, scope: t_scope, expiresAt: t_expires_at }
    },
    async revokeAccount(accountId) {
      return revoke.run(accountId).changes
    },
  }
}

/** A new random token (shown once, to the client) and its stored row. */
export function newToken(accountId: number, now: number) {
  const token = TOKEN_PREFIX + randomBytes(32).toString('base64url')
  return { token, row: { tokenHash: hashToken(token), accountId, scope: TOKEN_SCOPE, createdAt: now, expiresAt: now + TOKEN_LIFETIME_SECONDS * 1000 } }
}
