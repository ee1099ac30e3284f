// Who is calling the tool endpoint, and what a status call costs them. Anonymous callers get a
// small daily allowance of live receipts per client address (spec 5 rule 4 keeps the endpoint
// public); a bearer token from /oauth/token makes the call its key's, metered like /v5/status.
import type { AppDeps } from '../deps'
import { ApiError } from '../http/errors'
import { issueReceipt } from '../market/issue'
import type { ToolCaller } from './tools'
import { utcDay } from './usage'

export type McpAccess = { kind: 'ok'; caller: ToolCaller; clientHash: string } | { kind: 'rejected'; response: Response }

function anonymousLimitReached(deps: AppDeps, limit: number): ApiError {
  const base = deps.config.publicBaseUrl
  return new ApiError(
    429,
    'ANONYMOUS_LIMIT_REACHED',
    `anonymous callers get ${limit} signed receipts per UTC day from this endpoint; get a free key (POST ${base}/v5/keys/instant {"agent_id": "…"}), ` +
      `exchange it for a bearer token at ${base}/oauth/token, and send Authorization: Bearer <token>`,
    { instant_key_url: `${base}/v5/keys/instant`, token_url: `${base}/oauth/token` },
  )
}

export async function mcpCaller(deps: AppDeps, _request: Request, address: string, now: number): Promise<McpAccess> {
  const day = utcDay(now)
  const clientHash = await deps.mcpUsage.clientHash(address, day)
  const limit = deps.config.mcp.anonymousDailyLimit
  const caller: ToolCaller = {
    async admitStatusCall() {
      if (!(await deps.mcpAllowance.take(clientHash, limit))) throw anonymousLimitReached(deps, limit)
    },
    async issueLiveReceipt(mic) {
      return { ...(await issueReceipt(deps, mic, 'live')) }
    },
  }
  return { kind: 'ok', caller, clientHash }
}
