// Authorization: Bearer <token from /oauth/token>, for the tool endpoint. A valid token gives its
// key's account; an unknown, expired or revoked token (or one whose key is no longer usable) is a
// 401 answer (RFC 6750), never an anonymous call.
import type { BearerDeps } from './deps'
import { accountUsable } from './keys'
import type { AccountRow } from './store'
import { hashToken, TOKEN_PATTERN } from './tokens'

export type BearerResult =
  | { kind: 'none' }
  | { kind: 'ok'; account: AccountRow; scope: string; expiresAt: number }
  | { kind: 'rejected'; status: 400 | 401; error: 'invalid_request' | 'invalid_token'; description: string; response: Response }

/** The RFC 9728 metadata URL of the tool endpoint, named in every challenge. */
export const resourceMetadataUrl = (base: string) => `${base}/.well-known/oauth-protected-resource/mcp`

function rejected(deps: Pick<BearerDeps, 'config'>, status: 400 | 401, error: 'invalid_request' | 'invalid_token', description: string): BearerResult {
  const challenge = `Bearer realm="openbell", error="${error}", error_description="${description}", resource_metadata="${resourceMetadataUrl(deps.config.publicBaseUrl)}"`
  const response = new Response(JSON.stringify({ error, error_description: description }), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'www-authenticate': challenge, 'cache-control': 'no-store' },
  })
  return { kind: 'rejected', status, error, description, response }
}

/**
 * Resolves an Authorization header value. No header → `none` (the caller decides whether
 * anonymous calls are allowed). Anything else that is not a live token → `rejected`.
 */
export async function resolveBearer(deps: BearerDeps, header: string | null | undefined): Promise<BearerResult> {
  if (header === null || header === undefined) return { kind: 'none' }
  const match = /^Bearer +(\S+) *$/i.exec(header)
  if (!match) return rejected(deps, 400, 'invalid_request', 'send Authorization: Bearer <access_token from /oauth/token>')
  const token = match[1]!
  if (!TOKEN_PATTERN.test(token)) return rejected(deps, 401, 'invalid_token', 'the access token is not recognised')
  const found = await deps.tokens.find(hashToken(token))
  if (!found) return rejected(deps, 401, 'invalid_token', 'the access token is not recognised')
  const now = deps.clock.now()
  if (found.expiresAt <= now) return rejected(deps, 401, 'invalid_token', 'the access token has expired; get a new one from /oauth/token')
  if (!accountUsable(found.account, now)) {
    // The token dies with its key: a later reactivation does not bring it back.
    await deps.tokens.revokeAccount(found.account.id)
    return rejected(deps, 401, 'invalid_token', `the key behind this token is ${found.account.status === 'active' ? 'expired' : found.account.status}`)
  }
  return { kind: 'ok', account: found.account, scope: found.scope, expiresAt: found.expiresAt }
}
