// SQL for per-key request counts (one row per key and UTC day; a month is the sum of its days)
// and the account writes metering needs at once: debiting a credit, spending a sandbox call, and
// claiming part of a day's quota (shared counting: several processes or nodes over one database).
// Each write is one statement or one transaction, so that the check and the write are one step.
// The PostgreSQL side is in usage-store-postgres.ts. A credit taken or given back writes its
// credit_ledger row (payments' table) in the same transaction, with its own statement, as the
// PostgreSQL side does: metering owns these writes; payments' ledger store writes purchases.
import type { Database } from 'bun:sqlite'

export interface UsageCounts {
  day: number
  month: number
}

export interface UsageRow {
  accountId: number
  day: string
  requests: number
}

/** Async reads and batched writes. */
export interface UsageStore {
  /** Stored requests of a key on a UTC day (YYYY-MM-DD) and in that day's month. */
  counts(accountId: number, day: string): Promise<UsageCounts>
  /** Adds counted requests (negative: refunded ones), one transaction for all of them. */
  add(rows: readonly UsageRow[]): Promise<void>
  /** Stored requests of every key on a day (for `keys list`). */
  onDay(day: string): Promise<Map<number, number>>
}

/** Account writes on the request path; each is one statement or one transaction, exact under concurrency. */
export interface MeterWrites {
  /** Takes one credit when the balance is positive (with its ledger row); the new balance, or null when there was none. */
  debitCredit(accountId: number, reference: string, at: string): Promise<number | null>
  /** Spends one sandbox call (a key without a stored allowance starts at `allowance`); calls left, or null when none. */
  spendSandboxCall(accountId: number, allowance: number): Promise<number | null>
  /**
   * Claims `want` requests of a key's day when the day's stored count stays within `limit`
   * with them: the new stored count, or null when they do not fit (nothing changes). One statement.
   */
  claim(accountId: number, day: string, limit: number, want: number): Promise<number | null>
  /** Adds requests to a key's day at once (negative: refunds or unused claims given back; never below 0). */
  addRequests(accountId: number, day: string, requests: number): Promise<void>
  /** Gives back a credit taken for a request that then failed (a ledger grant row `refund:…`). */
  refundCredit(accountId: number, reference: string, at: string): Promise<void>
  /** Gives back a sandbox call spent on a request that then failed. */
  refundSandboxCall(accountId: number): Promise<void>
  /** Fresh credit balance (the cached account row may be a second old). */
  creditBalance(accountId: number): Promise<number>
  /** Sandbox calls left (a key without a stored allowance has `allowance`). */
  sandboxCallsLeft(accountId: number, allowance: number): Promise<number>
}

/** Both dialects: $1 account, $2 day, $3 limit, $4 wanted. */
export const CLAIM_SQL = `INSERT INTO key_usage (account_id, day, requests) SELECT CAST($1 AS INTEGER), CAST($2 AS TEXT), CAST($4 AS INTEGER) WHERE CAST($4 AS INTEGER) <= CAST($3 AS INTEGER)
ON CONFLICT (account_id, day) DO UPDATE SET requests = key_usage.requests + excluded.requests WHERE key_usage.requests + excluded.requests <= CAST($3 AS INTEGER)
RETURNING requests`
export const SPEND_SANDBOX_CALL_SQL = 'UPDATE api_keys SET calls_remaining = coalesce(calls_remaining, $2) - 1 WHERE id = $1 AND coalesce(calls_remaining, $2) > 0 RETURNING calls_remaining'
export const REFUND_SANDBOX_CALL_SQL = 'UPDATE api_keys SET calls_remaining = calls_remaining + 1 WHERE id = $1 AND calls_remaining IS NOT NULL'

const positional = (text: string) => text.replace(/\$(\d)/g, '?$1')

export function sqliteUsageStore(db: Database): UsageStore {
  const day = db.query('SELECT requests FROM key_usage WHERE account_id = ? AND day = ?')
  const month = db.query('SELECT coalesce(sum(requests), 0) AS n FROM key_usage WHERE account_id = ? AND day >= ? AND day <= ?')
  // A negative figure is a refund (a counted request that failed before its answer).
  const add = db.query('INSERT INTO key_usage (account_id, day, requests) VALUES (?1, ?2, max(0, ?3)) ON CONFLICT (account_id, day) DO UPDATE SET requests = max(0, requests + ?3)')
  const onDay = db.query('SELECT account_id, requests FROM key_usage WHERE day = ?')
  const addAll = db.transaction((rows: readonly UsageRow[]) => {
    for (const row of rows) if (row.requests !== 0) add.run(row.accountId, row.day, row.requests)
  })
  return {
    async counts(accountId, today) {
      const prefix = today.slice(0, 8)
      return {
        day: (day.get(accountId, today) as { requests: number } | null)?.requests ?? 0,
        month: (month.get(accountId, `${prefix}01`, `${prefix}31`) as { n: number }).n,
      }
    },
    async add(rows) {
      addAll(rows)
    },
    async onDay(today) {
      return new Map((onDay.all(today) as { account_id: number; requests: number }[]).map((row) => [row.account_id, row.requests]))
    },
  }
}

export function sqliteMeterWrites(db: Database): MeterWrites {
  const ledger = db.query('INSERT INTO credit_ledger (account_id, delta, kind, reference, created_at) VALUES (?1, ?2, ?3, ?4, ?5)')
  const debit = db.query('UPDATE api_keys SET credit_balance = credit_balance - 1 WHERE id = ? AND credit_balance > 0 RETURNING credit_balance')
  const spend = db.query(positional(SPEND_SANDBOX_CALL_SQL))
  const claim = db.query(positional(CLAIM_SQL))
  const addRequests = db.query('INSERT INTO key_usage (account_id, day, requests) VALUES (?1, ?2, max(0, ?3)) ON CONFLICT (account_id, day) DO UPDATE SET requests = max(0, requests + ?3)')
  const credit = db.query('UPDATE api_keys SET credit_balance = credit_balance + 1 WHERE id = ?')
  const call = db.query(positional(REFUND_SANDBOX_CALL_SQL))
  const refundTx = db.transaction((accountId: number, reference: string, at: string) => {
    credit.run(accountId)
    ledger.run(accountId, 1, 'grant', `refund:${reference}`, at)
  })
  const balance = db.query('SELECT credit_balance FROM api_keys WHERE id = ?')
  const callsLeft = db.query('SELECT coalesce(calls_remaining, ?2) AS n FROM api_keys WHERE id = ?1')
  const debitTx = db.transaction((accountId: number, reference: string, at: string) => {
    const row = debit.get(accountId) as { credit_balance: number } | null
    if (!row) return null
    ledger.run(accountId, -1, 'debit', reference, at)
    return row.credit_balance
  })
  return {
    debitCredit: async (accountId, reference, at) => debitTx.immediate(accountId, reference, at),
    async spendSandboxCall(accountId, allowance) {
      return (spend.get(accountId, allowance) as { calls_remaining: number } | null)?.calls_remaining ?? null
    },
    async claim(accountId, day, limit, want) {
      return (claim.get(accountId, day, limit, want) as { requests: number } | null)?.requests ?? null
    },
    async addRequests(accountId, day, requests) {
      addRequests.run(accountId, day, requests)
    },
    refundCredit: async (accountId, reference, at) => refundTx.immediate(accountId, reference, at),
    async refundSandboxCall(accountId) {
      call.run(accountId)
    },
    async sandboxCallsLeft(accountId, allowance) {
      return (callsLeft.get(accountId, allowance) as { n: number } | null)?.n ?? 0
    },
    async creditBalance(accountId) {
      return (balance.get(accountId) as { credit_balance: number } | null)?.credit_balance ?? 0
    },
  }
}
