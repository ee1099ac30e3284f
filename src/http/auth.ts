// Authentication guards. API keys arrive in X-Oracle-Key (spec 5); what a key is worth is the
// accounts domain's business (accounts/key-check.ts), handed in as a resolver. Operator
// endpoints take ADMIN_KEY in the same header.
import { Elysia } from 'elysia'
import { timingSafeEqual } from 'node:crypto'
import { sha256 } from '../crypto/hash'
import { ApiError } from './errors'

export const API_KEY_HEADER = 'x-oracle-key'

/** Constant-time comparison of the presented admin key with ADMIN_KEY (both hashed first). */
export function isAdminKey(configured: string | null, presented: string | null | undefined): boolean {
  if (!configured || !presented) return false
  return timingSafeEqual(sha256(configured), sha256(presented))
}

const noResolver = async (): Promise<never> => {
  throw new Error('authPlugin: { apiKey: true } needs a resolveAccount')
}

/**
 * Elysia macros: `{ admin: true }` admits only the operator's ADMIN_KEY; `{ apiKey: true }`
 * resolves `account` with `resolveAccount` (accounts/key-check.ts `requireAccount`), which
 * throws the 401/402/403 answer.
 */
export function authPlugin<Account = never>(deps: { config: { adminKey: string | null } }, resolveAccount: (key: string | undefined) => Promise<Account> = noResolver) {
  return new Elysia({ name: 'openbell-auth' }).macro({
    apiKey: {
      async resolve({ headers }) {
        return { account: await resolveAccount(headers[API_KEY_HEADER]) }
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
