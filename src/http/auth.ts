// Authentication guards. API keys arrive in X-Oracle-Key (spec 5): missing → 401, unknown →
// 403, suspended/cancelled/expired → 402. Operator endpoints take ADMIN_KEY in the same header.
import { Elysia } from 'elysia'
import { timingSafeEqual } from 'node:crypto'
import type { AppDeps } from '../deps'
import { accountUsable, findAccountByKey } from '../accounts/keys'
import type { AccountRow } from '../accounts/store'
import { sha256 } from '../crypto/hash'
import { ApiError } from './errors'
import { sandboxExhausted } from '../accounts/meter-answer'

export const API_KEY_HEADER = 'x-oracle-key'

export type KeyCheck =
  | { kind: 'missing' }
  | { kind: 'unknown' }
  | { kind: 'inactive'; account: AccountRow }
  | { kind: 'ok'; account: AccountRow }

/** Classifies a presented key without throwing, for routes with alternatives (x402 payment). */
export async function checkApiKey(deps: Pick<AppDeps, 'accounts' | 'clock'>, key: string | null | undefined): Promise<KeyCheck> {
  if (!key) return { kind: 'missing' }
  const account = await findAccountByKey(deps.accounts, key)
  if (!account) return { kind: 'unknown' }
  return accountUsable(account, deps.clock.now()) ? { kind: 'ok', account } : { kind: 'inactive', account }
}

export function keyCheckError(check: Exclude<KeyCheck, { kind: 'ok' }>, deps: Pick<AppDeps, 'config'>): ApiError {
  switch (check.kind) {
    case 'missing':
      return new ApiError(401, 'API_KEY_REQUIRED', 'send your API key in the X-Oracle-Key header')
    case 'unknown':
      return new ApiError(403, 'INVALID_API_KEY', 'the API key is not recognised')
    case 'inactive': {
      // Suspended or cancelled: 402 with the account status (issue 10). Past its expiry: a sandbox
      // key is exhausted; any other key has expired.
      const { account } = check
      if (account.status !== 'active') return new ApiError(402, 'ACCOUNT_INACTIVE', `the account is ${account.status}; renew or reactivate it`, { status: account.status })
      if (account.plan === 'sandbox') return sandboxExhausted(deps, account, null)
      return new ApiError(402, 'KEY_EXPIRED', `this key expired at ${account.expires_at}`, { expires_at: account.expires_at })
    }
  }
}

export async function requireAccount(deps: Pick<AppDeps, 'accounts' | 'clock' | 'config'>, key: string | null | undefined): Promise<AccountRow> {
  const check = await checkApiKey(deps, key)
  if (check.kind !== 'ok') throw keyCheckError(check, deps)
  return check.account
}

/** Constant-time comparison of the presented admin key with ADMIN_KEY (both hashed first). */
export function isAdminKey(configured: string | null, presented: string | null | undefined): boolean {
  if (!configured || !presented) return false
  return timingSafeEqual(sha256(configured), sha256(presented))
}

/**
 * Elysia macros: `{ apiKey: true }` resolves `account` or answers 401/402/403;
 * `{ admin: true }` admits only the operator's ADMIN_KEY.
 */
export function authPlugin(deps: Pick<AppDeps, 'accounts' | 'clock' | 'config'>) {
  return new Elysia({ name: 'openbell-auth' }).macro({
    apiKey: {
      async resolve({ headers }) {
        return { account: await requireAccount(deps, headers[API_KEY_HEADER]) }
      },
    },
    admin: {
      beforeHandle({ headers }) {
        const presented = headers[API_KEY_HEADER]
        if (!presented) throw new ApiError(401, 'ADMIN_KEY_REQUIRED', 'send the operator key in X-Oracle-Key')
        if (!deps.config.adminKey) throw new ApiError(403, 'ADMIN_DISABLED', 'ADMIN_KEY is not configured on this server')
        if (!isAdminKey(deps.config.adminKey, presented)) throw new ApiError(403, 'INVALID_ADMIN_KEY', 'the operator key is not recognised')
      },
    },
  })
}
