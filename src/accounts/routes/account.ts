// GET /v5/account: the calling key's plan, account status and key prefix (spec 2.7 Account).
import { Elysia, t } from 'elysia'
import type { AccountsDeps } from '../deps'
import { API_KEY_HEADER } from '../../http/auth'
import { checkApiKey, keyCheckError } from '../key-check'
import { accountUsable } from '../keys'
import { ApiError } from '../../http/errors'
import { responses } from '../../http/openapi'

export const AccountSchema = t.Object({ plan: t.String(), status: t.Union([t.Literal('active'), t.Literal('suspended'), t.Literal('cancelled')]), key_prefix: t.Union([t.String(), t.Null()]) })

export function accountRoute(deps: AccountsDeps) {
  return new Elysia({ name: 'accounts-account' }).get(
    '/v5/account',
    async ({ request }) => {
      const check = await checkApiKey(deps, request.headers.get(API_KEY_HEADER))
      if (check.kind === 'missing' || check.kind === 'unknown') throw keyCheckError(check, deps)
      // Read again past the one-second cache: the answer (and its 402) states the account as it is now.
      const current = await deps.accounts.findByHashFresh(check.account.key_hash)
      if (!current) throw new ApiError(404, 'ACCOUNT_NOT_FOUND', 'no account holds this key any more')
      if (!accountUsable(current, deps.clock.now())) throw keyCheckError({ kind: 'inactive', account: current }, deps)
      return { plan: current.plan, status: current.status, key_prefix: current.key_prefix }
    },
    {
      detail: {
        tags: ['accounts'],
        summary: 'Plan, status and key prefix of the calling key (X-Oracle-Key)',
        responses: responses({ 200: ['Account', AccountSchema], 401: 'API_KEY_REQUIRED', 402: 'ACCOUNT_INACTIVE (suspended or cancelled; body has status), KEY_EXPIRED or SANDBOX_KEY_EXHAUSTED', 403: 'INVALID_API_KEY', 404: 'ACCOUNT_NOT_FOUND' }),
      },
    },
  )
}
