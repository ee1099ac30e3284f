// POST /oauth/token: client credentials (form body) → a bearer token for the tool endpoint.
// Errors in the RFC 6749 shape {error, error_description}; other methods 405.
import { Elysia, t } from 'elysia'
import type { AccountsDeps } from '../deps'
import { BodyError, readBody } from '../../http/body'
import { responses } from '../../http/openapi'
import { clientCredentialsGrant, OAuthError } from '../oauth'

const MAX_FORM_BYTES = 4096
const FORM_TYPE = /^application\/x-www-form-urlencoded\s*(;|$)/i

const notAllowed = () => new OAuthError(405, 'invalid_request', 'the token endpoint takes POST only').toResponse({ allow: 'POST, OPTIONS' })

const OAuthErrorSchema = t.Object({ error: t.String(), error_description: t.String() })

const notAllowedDoc = { detail: { tags: ['accounts'], summary: 'Not supported (POST only)', responses: responses({ 405: ['invalid_request, with Allow: POST, OPTIONS', OAuthErrorSchema] }) } }

export function oauthTokenRoute(deps: AccountsDeps) {
  return new Elysia({ name: 'accounts-oauth-token' })
    .post(
      '/oauth/token',
      async ({ request }) => {
        try {
          if (!FORM_TYPE.test(request.headers.get('content-type') ?? '')) throw new OAuthError(400, 'invalid_request', 'send the parameters as application/x-www-form-urlencoded')
          let text: string
          try {
            text = new TextDecoder('utf-8', { fatal: true }).decode(await readBody(request, { limit: MAX_FORM_BYTES, timeoutMs: deps.config.bodyTimeoutMs }))
          } catch (error) {
            if (error instanceof BodyError) throw new OAuthError(error.failure === 'too_large' ? 413 : 408, 'invalid_request', error.message)
            throw new OAuthError(400, 'invalid_request', 'the body is not UTF-8')
          }
          const token = await clientCredentialsGrant(deps, new URLSearchParams(text), request.headers.get('authorization'))
          return new Response(JSON.stringify(token), { status: 200, headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', pragma: 'no-cache' } })
        } catch (error) {
          if (error instanceof OAuthError) return error.toResponse()
          throw error
        }
      },
      {
        parse: 'none',
        detail: {
          tags: ['accounts'],
          summary: 'OAuth 2.0 client credentials: an API key (client_id) for a bearer token of 3600 s',
          description: 'Form body grant_type=client_credentials&client_id=<API key>. The token authenticates the tool endpoint (Authorization: Bearer). Discovery: /.well-known/oauth-authorization-server.',
          requestBody: {
            content: { 'application/x-www-form-urlencoded': { schema: t.Object({ grant_type: t.Literal('client_credentials'), client_id: t.String(), scope: t.Optional(t.String()), resource: t.Optional(t.String()) }) as never } },
          },
          responses: responses({
            200: ['Token (Cache-Control: no-store)', t.Object({ access_token: t.String(), token_type: t.Literal('bearer'), expires_in: t.Integer(), scope: t.String() })],
            400: ['invalid_request (missing client_id or grant_type, wrong content type, repeated parameter), unsupported_grant_type, invalid_scope, invalid_target', OAuthErrorSchema],
            401: ['invalid_client (unknown, expired, suspended or cancelled key), with WWW-Authenticate', OAuthErrorSchema],
            405: ['invalid_request: POST only', OAuthErrorSchema],
          }),
        },
      },
    )
    .get('/oauth/token', notAllowed, notAllowedDoc)
    .put('/oauth/token', notAllowed, notAllowedDoc)
    .patch('/oauth/token', notAllowed, notAllowedDoc)
    .delete('/oauth/token', notAllowed, notAllowedDoc)
}
