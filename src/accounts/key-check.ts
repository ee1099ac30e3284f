// Resolving the API key a request presents (X-Oracle-Key, spec 5): missing → 401, unknown → 403,
// suspended/cancelled/expired → 402. The accounts domain's entry point for every surface that
// takes a key; src/http/auth.ts only knows the header and the admin key.
import type { KeyCheckDeps } from './deps'
import { accountUsable, findAccountByKey } from './keys'
import type { AccountRow } from './store'
import { ApiError } from '../http/errors'
import { sandboxExhausted } from './meter-answer'

export type KeyCheck =
  | { kind: 'missing' }
  | { kind: 'unknown' }
  | { kind: 'inactive'; account: AccountRow }
  | { kind: 'ok'; account: AccountRow }

/** Classifies a presented key without throwing, for routes with alternatives (x402 payment). */
export async function checkApiKey(deps: Pick<KeyCheckDeps, 'accounts' | 'clock'>, key: string | null | undefined): Promise<KeyCheck> {
  if (!key) return { kind: 'missing' }
  const account = await findAccountByKey(deps.accounts, key)
  if (!account) return { kind: 'unknown' }
  return accountUsable(account, deps.clock.now()) ? { kind: 'ok', account } : { kind: 'inactive', account }
}

export function keyCheckError(check: Exclude<KeyCheck, { kind: 'ok' }>, deps: Pick<KeyCheckDeps, 'config'>): ApiError {
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

export async function requireAccount(deps: KeyCheckDeps, key: string | null | undefined): Promise<AccountRow> {
  const check = await checkApiKey(deps, key)
  if (check.kind !== 'ok') throw keyCheckError(check, deps)
  return check.account
}
