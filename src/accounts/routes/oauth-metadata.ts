// OAuth discovery: RFC 8414 authorization server metadata, RFC 9728 protected resource metadata
// (at the root and path-inserted for /mcp), and an authorization endpoint that only says no.
import { Elysia, t } from 'elysia'
import type { AccountsDeps } from '../deps'
import { responses } from '../../http/openapi'
import { authorizationServerMetadata, OAuthError, protectedResourceMetadata } from '../oauth'

const JSON_CACHED = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'public, max-age=300' }

const unsupported = () =>
  new OAuthError(400, 'unsupported_response_type', 'this server has no interactive authorization; get a token with grant_type=client_credentials at the token endpoint').toResponse()

export function oauthMetadataRoutes(deps: AccountsDeps) {
  const resourceDoc = { detail: { tags: ['accounts'], summary: 'RFC 9728 protected resource metadata of the tool endpoint (/mcp)', responses: responses({ 200: ['Protected resource metadata', t.Object({ resource: t.String(), authorization_servers: t.Array(t.String()) }, { additionalProperties: true })] }) } }
  // RFC 6749 3.1: the authorization endpoint MUST ignore unrecognised request parameters, so its
  // query is declared open-ended (the one exception to the unknown-parameter refusal).
  const authorizeDoc = { query: t.Object({}, { additionalProperties: true, description: 'any OAuth request parameters (ignored: the answer is always unsupported_response_type)' }), detail: { tags: ['accounts'], summary: 'Authorization endpoint: always the RFC 6749 error unsupported_response_type (client credentials only)', responses: responses({ 400: ['unsupported_response_type (never a redirect)', t.Object({ error: t.String(), error_description: t.String() })] }) } }
  const resource = () => new Response(JSON.stringify(protectedResourceMetadata(deps.config.publicBaseUrl)), { headers: JSON_CACHED })
  return new Elysia({ name: 'accounts-oauth-metadata' })
    .get('/.well-known/oauth-authorization-server', () => new Response(JSON.stringify(authorizationServerMetadata(deps.config.publicBaseUrl)), { headers: JSON_CACHED }), {
      detail: { tags: ['accounts'], summary: 'RFC 8414 authorization server metadata (issuer = PUBLIC_BASE_URL)', responses: responses({ 200: ['Authorization server metadata', t.Object({ issuer: t.String(), token_endpoint: t.String() }, { additionalProperties: true })] }) },
    })
    .get('/.well-known/oauth-protected-resource', resource, resourceDoc)
    .get('/.well-known/oauth-protected-resource/mcp', resource, resourceDoc)
    .get('/oauth/authorize', unsupported, authorizeDoc)
    .post('/oauth/authorize', unsupported, { parse: 'none', ...authorizeDoc })
}
