// POST /mcp: the tool endpoint (JSON-RPC 2.0 over Streamable HTTP, JSON responses only).
// GET and every other method answer 405 with Allow: POST (spec 4.5); OPTIONS is the CORS preflight.
import { Elysia, t } from 'elysia'
import type { McpDeps } from './deps'
import { jsonResponse } from '../http/errors'
import { responses } from '../http/openapi'
import { MCP_MAX_BATCH } from './limits'
import { Admission } from './admission'
import { rebindingGuard } from './rebinding'
import { answerPost } from './handle'
import { serverJson } from './server-json'

export { MCP_MAX_BODY_BYTES, MCP_MAX_DEPTH } from './handle'

const methodNotAllowed = () =>
  jsonResponse({ error: 'METHOD_NOT_ALLOWED', message: 'the tool endpoint takes JSON-RPC messages by POST only' }, 405, { allow: 'POST, OPTIONS' })

const JsonRpcId = t.Union([t.String(), t.Number(), t.Null()])
const JsonRpcAnswer = t.Object({ jsonrpc: t.Literal('2.0'), id: JsonRpcId, result: t.Optional(t.Object({}, { additionalProperties: true })), error: t.Optional(t.Object({ code: t.Integer(), message: t.String() }, { additionalProperties: true })) }, { additionalProperties: false, description: 'a JSON-RPC 2.0 response: result or error' })
const JsonRpcFailure = t.Object({ jsonrpc: t.Literal('2.0'), id: t.Optional(JsonRpcId), error: t.Object({ code: t.Integer(), message: t.String() }, { additionalProperties: true }) }, { description: 'a JSON-RPC 2.0 error response: id null when unknown for initialize-era clients, the id member left out for 2026-07-28 and for the Host/Origin refusal' })

/** RFC 6750 error body of a refused Authorization header (accounts/bearer.ts), with WWW-Authenticate. */
const BearerFailure = t.Object({ error: t.Union([t.Literal('invalid_request'), t.Literal('invalid_token')]), error_description: t.String() }, { additionalProperties: false, description: 'RFC 6750 error body' })

const ServerJson = t.Object(
  {
    $schema: t.String(),
    name: t.String(),
    title: t.String(),
    description: t.String({ maxLength: 100 }),
    version: t.String(),
    websiteUrl: t.String(),
    remotes: t.Array(t.Object({ type: t.Literal('streamable-http'), url: t.String(), headers: t.Array(t.Object({ name: t.String(), description: t.String(), isRequired: t.Boolean(), isSecret: t.Boolean() })) })),
  },
  { description: "the MCP registry's server.json of this deployment" },
)

const notAllowedDoc = (why: string) => ({
  detail: { tags: ['tools'], summary: `Not supported (${why})`, responses: responses({ 405: 'METHOD_NOT_ALLOWED, with Allow: POST, OPTIONS' }) },
})

export function mcpRoutes(deps: McpDeps) {
  const context = { deps, admission: new Admission(deps.config.mcp), guard: rebindingGuard(deps.config) }
  return new Elysia({ name: 'mcp' })
    .post(
      '/mcp',
      ({ request, server }) => answerPost(context, request, server ?? null),
      {
        parse: 'none',
        detail: {
          tags: ['tools'],
          summary: 'Tool endpoint: JSON-RPC 2.0 over Streamable HTTP (MCP 2024-11-05 to 2025-11-25 after initialize, and 2026-07-28 stateless); see docs/mcp.md',
          description:
            'Anonymous, or Authorization: Bearer <token from /oauth/token>. Answers application/json; 202 with no body for notifications. ' +
            'A 2026-07-28 request carries its version in params._meta and the MCP-Protocol-Version, Mcp-Method and (tools/call) Mcp-Name headers. ' +
            'Host must be a configured name or loopback and Origin, when sent, the service\'s own, CORS_ALLOWED_ORIGINS or the same loopback origin (DNS rebinding).',
          requestBody: { content: { 'application/json': { schema: t.Object({}, { additionalProperties: true }) as never } } },
          responses: {
            ...responses({
              200: ['JSON-RPC response (or array of responses for a batch)', t.Union([JsonRpcAnswer, t.Array(JsonRpcAnswer)])],
              400: [`JSON-RPC parse error or invalid request, a batch of more than ${MCP_MAX_BATCH} messages among them; an unsupported MCP-Protocol-Version (-32022, data {supported, requested}); for 2026-07-28, headers that do not match the body (-32020), missing _meta members (-32602) or a batch; or an Authorization header that is not Bearer (RFC 6750 invalid_request)`, t.Union([JsonRpcFailure, BearerFailure])],
              401: ['Invalid or expired bearer token (RFC 6750 invalid_token; WWW-Authenticate names the protected-resource metadata)', BearerFailure],
              403: ['Host not a configured name or loopback, or Origin not allowed (DNS rebinding): -32600 with data {error: HOST_NOT_ALLOWED or ORIGIN_NOT_ALLOWED, message}, no id', JsonRpcFailure],
              404: ['2026-07-28: a method this server does not implement (-32601), initialize and ping included', JsonRpcFailure],
              408: ['The body did not arrive within BODY_TIMEOUT_MS (Connection: close)', JsonRpcFailure],
              413: ['Body over the size limit', JsonRpcFailure],
              415: ['Content-Type is not application/json', JsonRpcFailure],
              429: ['Message rate reached (anonymous: MCP_ANON_RATE_PER_MINUTE per address; bearer: MCP_KEY_RATE_PER_MINUTE per key; a batch counts each element): -32000 with data {error: RATE_LIMITED, retry_after_seconds}, Retry-After; or 100 messages of the caller outstanding: data {error: TOO_MANY_OUTSTANDING, limit, retry_after_seconds}', JsonRpcFailure],
              500: ['Unexpected failure before any message was answered (-32603)', JsonRpcFailure],
              503: ['Storage full or unreachable: -32603 with data {error: STORAGE_FULL or STORAGE_UNAVAILABLE, message} (Retry-After)', JsonRpcFailure],
            }),
            202: { description: 'Accepted: the body held only notifications or responses' },
          },
        },
      },
    )
    .get('/.well-known/mcp/server.json', () => jsonResponse(serverJson(deps.config), 200, { 'cache-control': 'public, max-age=3600' }), {
      detail: { tags: ['tools'], summary: "This deployment's MCP registry entry (server.json, schema 2025-12-11): remote, Streamable HTTP, <PUBLIC_BASE_URL>/mcp", responses: responses({ 200: ['server.json (docs/mcp.md, Listing)', ServerJson] }) },
    })
    .get('/mcp', methodNotAllowed, notAllowedDoc('there is no server-initiated stream'))
    .delete('/mcp', methodNotAllowed, notAllowedDoc('no session is issued, so there is none to end'))
    .put('/mcp', methodNotAllowed, notAllowedDoc('POST only'))
    .patch('/mcp', methodNotAllowed, notAllowedDoc('POST only'))
}
