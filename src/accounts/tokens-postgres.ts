// OAuth access tokens on PostgreSQL (tokens.ts says what they are): only hashes are stored.
import type { SQL } from 'bun'
import { MAX_TOKENS_PER_KEY, type TokenStore } from './tokens'
import { ACCOUNT_COLUMNS } from './store-postgres'
import type { AccountRow } from './store'

export function postgresTokenStore(sql: SQL): TokenStore {
  const accountColumns = ACCOUNT_COLUMNS.split(', ').map((column) => `k.${column}`).join(', ')
  return {
    async insert(row) {
      await sql.begin(async (tx) => {
        await tx`DELETE FROM oauth_tokens WHERE expires_at <= ${row.createdAt}`
        await tx`INSERT INTO oauth_tokens (token_hash, account_id, scope, created_at, expires_at) VALUES (${row.tokenHash}, ${row.accountId}, ${row.scope}, ${row.createdAt}, ${row.expiresAt})`
        await tx`DELETE FROM oauth_tokens WHERE account_id = ${row.accountId} AND token_hash NOT IN
          (SELECT token_hash FROM oauth_tokens WHERE account_id = ${row.accountId} ORDER BY created_at DESC, token_hash LIMIT ${MAX_TOKENS_PER_KEY})`
      })
    },
    async find(tokenHash) {
      const [row] = (await sql.unsafe(
        `SELECT t.scope AS t_scope, t.expires_at::float8 AS t_expires_at, ${accountColumns} FROM oauth_tokens t JOIN api_keys k ON k.id = t.account_id WHERE t.token_hash = $1`,
        [tokenHash],
      )) as (AccountRow & { t_scope: string; t_expires_at: number })[]
      if (!row) return null
      const { t_scope, t_expires_at, ...account } = row
      return { account, scope: t_scope, expiresAt: t_expires_at }
    },
    async revokeAccount(accountId) {
      return (await sql`DELETE FROM oauth_tokens WHERE account_id = ${accountId}`).count
    },
  }
}
