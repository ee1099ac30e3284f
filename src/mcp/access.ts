// Who is calling the tool endpoint, and what a status call costs them. Anonymous callers get a
// small daily allowance of live receipts per client address (spec 5 rule 4 keeps the endpoint
// public); a bearer token from /oauth/token makes the call its key's, metered like /v5/status.
import type { McpDeps } from './deps'
import { resolveBearer } from '../accounts/bearer'
import { meter } from '../accounts/meter-answer'
import type { AccountRow } from '../accounts/store'
import { ApiError } from '../http/errors'
import { issueLiveReceipt } from '../market/issue'
import type { ToolCaller } from './tools'
import { utcDay } from './usage'

import type { CallerKey } from './admission'

/** `counted`: whose message rate and in-flight places the call uses (the key, or the client address). */
export type McpAccess = { kind: 'ok'; caller: ToolCaller; clientHash: string; counted: CallerKey } | { kind: 'rejected'; response: Response }

function anonymousLimitReached(deps: Pick<McpDeps, 'config'>, limit: number): ApiError {
  const base = deps.config.publicBaseUrl
  return new ApiError(
    429,
    'ANONYMOUS_LIMIT_REACHED',
    `anonymous callers get ${limit} signed receipts per UTC day from this endpoint; get a free key (POST ${base}/v5/keys/instant {"agent_id": "…"}), ` +
      `exchange it for a bearer token at ${base}/oauth/token, and send Authorization: Bearer <token>`,
    { instant_key_url: `${base}/v5/keys/instant`, token_url: `${base}/oauth/token` },
  )
}

/** The status tool's price when a key's free quota is spent (the same as /v5/status). */
const statusOffer = (deps: Pick<McpDeps, 'config'>) => ({ resourceUrl: `${deps.config.publicBaseUrl}/v5/status`, price: deps.config.x402.statusPrice, description: 'Signed market status receipt' })

function keyCaller(deps: McpDeps, account: AccountRow): ToolCaller {
  return {
    async admitStatusCall() {
      const metered = await meter(deps, account, '/mcp:get_market_status', statusOffer(deps))
      if (!metered.admitted) throw metered.error
      return { refund: metered.refund }
    },
    async issueLiveReceipt(mic) {
      return { ...(await issueLiveReceipt(deps, mic, { surface: '/mcp:get_market_status', keyHash: account.key_hash })) }
    },
  }
}

/**
 * Anonymous (no Authorization header), or the key behind a bearer token from /oauth/token. A
 * header that is not a live token is a 401 with the RFC 9728 challenge, never an anonymous call.
 */
export async function mcpCaller(deps: McpDeps, request: Request, address: string, now: number): Promise<McpAccess> {
  const day = utcDay(now)
  const clientHash = await deps.mcpUsage.clientHash(address, day)
  const bearer = await resolveBearer(deps, request.headers.get('authorization'))
  if (bearer.kind === 'rejected') return { kind: 'rejected', response: bearer.response }
  if (bearer.kind === 'ok') return { kind: 'ok', caller: keyCaller(deps, bearer.account), clientHash, counted: `key:${bearer.account.key_hash}` }
  const limit = deps.config.mcp.anonymousDailyLimit
  const caller: ToolCaller = {
    async admitStatusCall() {
      if (!(await deps.mcpAllowance.take(clientHash, limit))) throw anonymousLimitReached(deps, limit)
      // Signing offline or the audit log unavailable: the call gave nothing, so it is not counted.
      return { refund: async () => deps.mcpAllowance.giveBack(clientHash) }
    },
    async issueLiveReceipt(mic) {
      // Anonymous: no key, no payment; the audit row carries the salted daily address hash.
      return { ...(await issueLiveReceipt(deps, mic, { surface: '/mcp:get_market_status', clientRef: `anon:${clientHash}` })) }
    },
  }
  return { kind: 'ok', caller, clientHash, counted: `address:${address}` }
}
