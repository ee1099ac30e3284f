// The OAuth 2.0 client-credentials grant (RFC 6749 section 4.4) with the API key as client_id
// (a public client: token_endpoint_auth_method "none"), and the metadata documents that let a
// standard client find it (RFC 8414 authorization server, RFC 9728 protected resource).
import type { AccountsDeps } from './deps'
import { accountUsable, findAccountByKey } from './keys'
import { newToken, TOKEN_LIFETIME_SECONDS, TOKEN_SCOPE } from './tokens'

export type OAuthErrorCode = 'invalid_request' | 'invalid_client' | 'unsupported_grant_type' | 'invalid_scope' | 'invalid_target' | 'unsupported_response_type'

export class OAuthError extends Error {
  constructor(readonly status: number, readonly code: OAuthErrorCode, readonly description: string, readonly extra: Record<string, unknown> = {}) {
    super(description)
    this.name = 'OAuthError'
  }

  toResponse(headers: Record<string, string> = {}): Response {
    const extraHeaders: Record<string, string> = this.code === 'invalid_client' ? { 'www-authenticate': 'Basic realm="openbell", charset="UTF-8"' } : {}
    // A body that stopped arriving: the rest of it may still come, so the connection ends here (as on every route).
    if (this.status === 408) extraHeaders.connection = 'close'
    return new Response(JSON.stringify({ error: this.code, error_description: this.description, ...this.extra }), {
      status: this.status,
      headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', pragma: 'no-cache', ...extraHeaders, ...headers },
    })
  }
}

export interface TokenResponse {
  access_token: string
  token_type: 'bearer'
  expires_in: number
  scope: string
}

const tokenEndpointOf = (base: string) => `${base}/oauth/token`
const resourceOf = (base: string) => `${base}/mcp`

/** client_id from HTTP Basic (client_secret_basic with an empty secret), if the client sent it that way. */
function basicClientId(authorization: string | null): string | null {
  const match = authorization && /^Basic +([A-Za-z0-9+/=]+) *$/i.exec(authorization)
  if (!match) return null
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  try {
    return decodeURIComponent((colon < 0 ? decoded : decoded.slice(0, colon)).replace(/\+/g, ' '))
  } catch {
    return null
  }
}

/** Each parameter at most once (RFC 6749 section 3.2). */
function single(params: URLSearchParams, name: string): string | null {
  const values = params.getAll(name)
  if (values.length > 1) throw new OAuthError(400, 'invalid_request', `${name} is given more than once`)
  return values[0] ?? null
}

/** Issues a token for a form body that has already been read; throws OAuthError. Resolves after the token is stored. */
export async function clientCredentialsGrant(deps: Pick<AccountsDeps, 'config' | 'clock' | 'accounts' | 'tokens' | 'log'>, params: URLSearchParams, authorization: string | null): Promise<TokenResponse> {
  const grantType = single(params, 'grant_type')
  const bodyClientId = single(params, 'client_id')
  const scope = single(params, 'scope')
  const resource = single(params, 'resource')
  if (!grantType) throw new OAuthError(400, 'invalid_request', 'grant_type is required (client_credentials)')
  if (grantType !== 'client_credentials') throw new OAuthError(400, 'unsupported_grant_type', 'this server supports only grant_type=client_credentials')
  const headerClientId = basicClientId(authorization)
  if (bodyClientId && headerClientId && bodyClientId !== headerClientId) throw new OAuthError(400, 'invalid_request', 'client_id differs between the body and the Authorization header')
  const clientId = bodyClientId ?? headerClientId
  if (!clientId) throw new OAuthError(400, 'invalid_request', 'client_id is required: your API key')
  if (scope !== null && scope.split(' ').some((item) => item !== TOKEN_SCOPE)) throw new OAuthError(400, 'invalid_scope', `the only scope is "${TOKEN_SCOPE}"`)
  const base = deps.config.publicBaseUrl
  if (resource !== null && resource !== resourceOf(base) && resource !== base) throw new OAuthError(400, 'invalid_target', `tokens are issued for ${resourceOf(base)}`)
  const account = await findAccountByKey(deps.accounts, clientId)
  if (!account) throw new OAuthError(401, 'invalid_client', 'client_id is not a recognised API key')
  const now = deps.clock.now()
  if (!accountUsable(account, now)) {
    const state = account.status === 'active' ? 'expired' : account.status
    throw new OAuthError(401, 'invalid_client', `the key is ${state}`, account.status === 'active' ? {} : { status: account.status })
  }
  const { token, row } = newToken(account.id, now)
  await deps.tokens.insert(row)
  deps.log.info('oauth token issued', { key_prefix: account.key_prefix, expires_in: TOKEN_LIFETIME_SECONDS })
  return { access_token: token, token_type: 'bearer', expires_in: TOKEN_LIFETIME_SECONDS, scope: TOKEN_SCOPE }
}

/** RFC 8414 authorization server metadata; `issuer` is PUBLIC_BASE_URL exactly. */
export function authorizationServerMetadata(base: string) {
  return {
    issuer: base,
    token_endpoint: tokenEndpointOf(base),
    // Present because some clients' metadata parsers require it; it answers unsupported_response_type.
    authorization_endpoint: `${base}/oauth/authorize`,
    grant_types_supported: ['client_credentials'],
    token_endpoint_auth_methods_supported: ['none'],
    response_types_supported: [] as string[],
    scopes_supported: [TOKEN_SCOPE],
    service_documentation: `${base}/docs`,
  }
}

/** RFC 9728 protected resource metadata of the tool endpoint. */
export function protectedResourceMetadata(base: string) {
  return {
    resource: resourceOf(base),
    authorization_servers: [base],
    bearer_methods_supported: ['header'],
    scopes_supported: [TOKEN_SCOPE],
    resource_name: 'openbell tool endpoint (JSON-RPC 2.0, MCP)',
    resource_documentation: `${base}/docs`,
  }
}
