// SQL for API keys. Only the SHA-256 of a key is stored, never the key.
import type { Database } from 'bun:sqlite'
import type { AccountStatus, KeyClass, Plan } from '../catalogue/plans'

/** A LIKE pattern matching text that starts with `prefix` (its wildcards taken literally). */
export const startsWith = (prefix: string) => prefix.replace(/[\\%_]/g, (c) => `\\${c}`) + '%'

export interface AccountRow {
  id: number
  key_hash: string
  key_prefix: string
  class: KeyClass
  plan: Plan
  status: AccountStatus
  created_at: string
  expires_at: string | null
  calls_remaining: number | null
  agent_id: string | null
  email: string | null
  credit_balance: number
}

export type NewAccount = Omit<AccountRow, 'id' | 'status' | 'credit_balance'> & { credit_balance?: number }

/** Async so that a networked database can stand behind the same interface. */
export interface AccountStore {
  insert(account: NewAccount): Promise<AccountRow>
  findByHash(keyHash: string): Promise<AccountRow | null>
  /** The row as stored now, past any cache (for answers that state the account: /v5/account). */
  findByHashFresh(keyHash: string): Promise<AccountRow | null>
  findByPrefix(prefix: string): Promise<AccountRow[]>
  list(): Promise<AccountRow[]>
  setStatus(id: number, status: AccountStatus): Promise<void>
}

export function sqliteAccountStore(db: Database): AccountStore {
  const insert = db.query(
    `INSERT INTO api_keys (key_hash, key_prefix, class, plan, created_at, expires_at, calls_remaining, agent_id, email, credit_balance)
     VALUES ($key_hash, $key_prefix, $class, $plan, $created_at, $expires_at, $calls_remaining, $agent_id, $email, $credit_balance)
     RETURNING *`,
  )
  const byHash = db.query('SELECT * FROM api_keys WHERE key_hash = ?')
  const byPrefix = db.query(`SELECT * FROM api_keys WHERE key_prefix LIKE ? ESCAPE '\\' ORDER BY id`)
  const all = db.query('SELECT * FROM api_keys ORDER BY id')
  const setStatus = db.query('UPDATE api_keys SET status = ? WHERE id = ?')
  const revokeTokens = db.query('DELETE FROM oauth_tokens WHERE account_id = ?')
  // Tokens die with their key: a suspension or cancellation deletes them, so a later
  // reactivation does not bring them back.
  const setStatusTx = db.transaction((id: number, status: AccountStatus) => {
    setStatus.run(status, id)
    if (status !== 'active') revokeTokens.run(id)
  })
  return {
    async insert(account) {
      return insert.get({ ...account, credit_balance: account.credit_balance ?? 0 } as Record<string, string | number | null>) as AccountRow
    },
    async findByHash(keyHash) {
      return (byHash.get(keyHash) as AccountRow | null) ?? null
    },
    async findByHashFresh(keyHash) {
      return (byHash.get(keyHash) as AccountRow | null) ?? null
    },
    async findByPrefix(prefix) {
      return byPrefix.all(startsWith(prefix)) as AccountRow[]
    },
    async list() {
      return all.all() as AccountRow[]
    },
    async setStatus(id, status) {
      setStatusTx.immediate(id, status)
    },
  }
}
