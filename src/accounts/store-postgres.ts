// API keys on PostgreSQL (store.ts says what the store does). Only the SHA-256 of a key is stored.
import type { SQL } from 'bun'
import { startsWith, type AccountRow, type AccountStore } from './store'

/** The row as the SQLite store returns it (the same column types: numbers, text, null). */
export const ACCOUNT_COLUMNS = 'id, key_hash, key_prefix, class, plan, status, created_at, expires_at, calls_remaining, agent_id, email, credit_balance'

export function postgresAccountStore(sql: SQL): AccountStore {
  const byHash = async (keyHash: string) => ((await sql.unsafe(`SELECT ${ACCOUNT_COLUMNS} FROM api_keys WHERE key_hash = $1`, [keyHash])) as AccountRow[])[0] ?? null
  return {
    async insert(account) {
      const [row] = (await sql.unsafe(
        `INSERT INTO api_keys (key_hash, key_prefix, class, plan, created_at, expires_at, calls_remaining, agent_id, email, credit_balance)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING ${ACCOUNT_COLUMNS}`,
        [account.key_hash, account.key_prefix, account.class, account.plan, account.created_at, account.expires_at, account.calls_remaining, account.agent_id, account.email, account.credit_balance ?? 0],
      )) as AccountRow[]
      return { ...row! }
    },
    findByHash: byHash,
    findByHashFresh: byHash,
    async findByPrefix(prefix) {
      return [...((await sql.unsafe(`SELECT ${ACCOUNT_COLUMNS} FROM api_keys WHERE key_prefix LIKE $1 ESCAPE '\\' ORDER BY id`, [startsWith(prefix)])) as AccountRow[])]
    },
    async list() {
      return [...((await sql.unsafe(`SELECT ${ACCOUNT_COLUMNS} FROM api_keys ORDER BY id`)) as AccountRow[])]
    },
    async setStatus(id, status) {
      // Tokens die with their key, in the same transaction (docs/accounts.md).
      await sql.begin(async (tx) => {
        await tx`UPDATE api_keys SET status = ${status} WHERE id = ${id}`
        if (status !== 'active') await tx`DELETE FROM oauth_tokens WHERE account_id = ${id}`
      })
    },
  }
}
