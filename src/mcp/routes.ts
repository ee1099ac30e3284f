// POST /mcp: the tool endpoint (JSON-RPC 2.0 over Streamable HTTP, JSON responses only).
// GET and every other method answer 405 with Allow: POST (spec 4.5); OPTIONS is the CORS preflight.
import { Elysia, t } from 'elysia'
import type { McpDeps } from './deps'
import { jsonResponse, storageRefusal } from '../http/errors'
import { BodyError, readBody } from '../http/body'
import { responses } from '../http/openapi'
import { clientAddress } from '../http/client-address'
import { API_VERSION } from '../version'
import { JSONRPC_ERRORS, errorResponse, isSupportedVersion, nestingExceeds } from './protocol'
import { RateLimiter, rateLimitHeaders, type RateDecision } from '../http/rate-limit'
import { MCP_MAX_BATCH } from './limits'
import { answerResponse } from './send'
import { batchTooLong, dispatchBody } from './dispatch'
import { mcpCaller } from './access'
import { utcDay } from './usage'

/** Large enough for a batch of receipts to verify; a single verify_receipt is at most 16 KiB. */
export const MCP_MAX_BODY_BYTES = 256 * 1024
export const MCP_MAX_DEPTH = 32

const rpcError = (status: number, code: number, message: string, headers: Record<string, string> = {}, data?: unknown) =>
  jsonResponse(errorResponse(null, code, message, data), status, headers)

/** A failure before any message could be answered, as JSON-RPC: a storage error is 503 with the error object, anything else 500. */
function requestFailure(deps: Pick<McpDeps, 'log'>, error: unknown): Response {
  const refusal = storageRefusal(error)
  if (refusal) {
    deps.log.error('tool endpoint: storage refused the request', { error: refusal.errorCode })
    return rpcError(refusal.status, JSONRPC_ERRORS.INTERNAL_ERROR, refusal.message, refusal.headers, refusal.body())
  }
  deps.log.error('tool endpoint: internal error', { error: (error as Error).message })
  return rpcError(500, JSONRPC_ERRORS.INTERNAL_ERROR, 'internal error')
}

const methodNotAllowed = () =>
  jsonResponse({ error: 'METHOD_NOT_ALLOWED', message: 'the tool endpoint takes JSON-RPC messages by POST only' }, 405, { allow: 'POST, OPTIONS' })

const JsonRpcId = t.Union([t.String(), t.Number(), t.Null()])
const JsonRpcAnswer = t.Object({ jsonrpc: t.Literal('2.0'), id: JsonRpcId, result: t.Optional(t.Object({}, { additionalProperties: true })), error: t.Optional(t.Object({ code: t.Integer(), message: t.String() }, { additionalProperties: true })) }, { additionalProperties: false, description: 'a JSON-RPC 2.0 response: result or error' })
const JsonRpcFailure = t.Object({ jsonrpc: t.Literal('2.0'), id: t.Null(), error: t.Object({ code: t.Integer(), message: t.String() }, { additionalProperties: true }) }, { description: 'a JSON-RPC 2.0 error response (id null)' })

/** RFC 6750 error body of a refused Authorization header (accounts/bearer.ts), with WWW-Authenticate. */
const BearerFailure = t.Object({ error: t.Union([t.Literal('invalid_request'), t.Literal('invalid_token')]), error_description: t.String() }, { additionalProperties: false, description: 'RFC 6750 error body' })

const notAllowedDoc = (why: string) => ({
  detail: { tags: ['tools'], summary: `Not supported (${why})`, responses: responses({ 405: 'METHOD_NOT_ALLOWED, with Allow: POST, OPTIONS' }) },
})

/** How many messages in a parsed body are requests or notifications (for usage counts). */
const messageCount = (body: unknown) => (Array.isArray(body) ? body.length : 1)

export function mcpRoutes(deps: McpDeps) {
  const anonymousRate = new RateLimiter(deps.config.mcp.anonymousRatePerMinute)
  const rateLimited = (decision: RateDecision) => {
    const error = { error: 'RATE_LIMITED', message: `anonymous callers may send ${decision.limit} messages a minute from one address (a batch counts each element); retry in ${decision.retryAfterSeconds} s, or use a bearer token from /oauth/token`, retry_after_seconds: decision.retryAfterSeconds }
    return rpcError(429, JSONRPC_ERRORS.LIMIT_REACHED, error.message, rateLimitHeaders(decision), error)
  }
  return new Elysia({ name: 'mcp' })
    .post(
      '/mcp',
      async ({ request, server }) => {
        // A connection that stops reading its answers (or sending its body) is closed after
        // BODY_TIMEOUT_MS without progress, not the 30 s Elysia gives every connection.
        server?.timeout(request, Math.ceil(deps.config.bodyTimeoutMs / 1000))
        const type = request.headers.get('content-type') ?? ''
        if (!/^application\/json\b/i.test(type)) return rpcError(415, JSONRPC_ERRORS.INVALID_REQUEST, 'Content-Type must be application/json')
        const version = request.headers.get('mcp-protocol-version')
        if (version !== null && !isSupportedVersion(version)) {
          return rpcError(400, JSONRPC_ERRORS.INVALID_REQUEST, `unsupported MCP-Protocol-Version ${JSON.stringify(version.slice(0, 32))}`)
        }
        const now = deps.clock.now()
        const address = clientAddress(request, deps.config.clientIpHeader, server)
        // Anonymous callers are counted per address before the body is read (one per request),
        // and each further element of a batch once it is parsed; a bearer call is its key's.
        const anonymous = !request.headers.has('authorization')
        if (anonymous) {
          const decision = anonymousRate.hit(address, now)
          if (!decision.allowed) return rateLimited(decision)
        }
        // Content-Length first, then counted while reading; a stalled body gets 408 (http/body.ts).
        let text: string
        try {
          text = new TextDecoder().decode(await readBody(request, { limit: MCP_MAX_BODY_BYTES, timeoutMs: deps.config.bodyTimeoutMs }))
        } catch (error) {
          if (!(error instanceof BodyError)) throw error
          if (error.failure === 'timeout') deps.log.warn('request body timed out', { path: '/mcp', timeout_ms: deps.config.bodyTimeoutMs })
          return error.failure === 'too_large'
            ? rpcError(413, JSONRPC_ERRORS.INVALID_REQUEST, `request body is limited to ${MCP_MAX_BODY_BYTES} bytes`)
            : rpcError(408, JSONRPC_ERRORS.INVALID_REQUEST, 'the request body did not arrive in time', { connection: 'close' })
        }
        let body: unknown
        try {
          body = JSON.parse(text)
        } catch {
          return rpcError(400, JSONRPC_ERRORS.PARSE_ERROR, 'parse error: the body is not JSON')
        }
        if (nestingExceeds(body, MCP_MAX_DEPTH)) return rpcError(400, JSONRPC_ERRORS.INVALID_REQUEST, `input nested deeper than ${MCP_MAX_DEPTH} levels`)
        const tooLong = batchTooLong(body)
        if (tooLong) return rpcError(400, JSONRPC_ERRORS.INVALID_REQUEST, tooLong)
        if (anonymous && Array.isArray(body) && body.length > 1) {
          const decision = anonymousRate.hit(address, now, body.length - 1)
          if (!decision.allowed) return rateLimited(decision)
        }

        try {
          const access = await mcpCaller(deps, request, address, now)
          if (access.kind === 'rejected') return access.response
          // Counted once admitted: refused requests are not usage (a batch is one client, N requests).
          deps.mcpUsage.record(utcDay(now), access.clientHash, messageCount(body))

          const outcome = await dispatchBody(body, {
            deps,
            caller: access.caller,
            version: version !== null && isSupportedVersion(version) ? version : null,
            serverVersion: API_VERSION,
          })
          if (outcome.status === 202) return new Response(null, { status: 202 })
          return answerResponse(outcome.text, { status: outcome.status, headers: outcome.headers ?? {} }, deps.config.bodyTimeoutMs, (taken, total) =>
            deps.log.warn('tool endpoint: the client did not read its answer in time; connection closed', { taken_bytes: taken, answer_bytes: total, timeout_ms: deps.config.bodyTimeoutMs }),
          )
        } catch (error) {
          return requestFailure(deps, error)
        }
      },
      {
        parse: 'none',
        detail: {
          tags: ['tools'],
          summary: 'Tool endpoint: JSON-RPC 2.0 over Streamable HTTP (MCP); see docs/mcp.md',
          description: 'Anonymous, or Authorization: Bearer <token from /oauth/token>. Answers application/json; 202 with no body for notifications.',
          requestBody: { content: { 'application/json': { schema: t.Object({}, { additionalProperties: true }) as never } } },
          responses: {
            ...responses({
              200: ['JSON-RPC response (or array of responses for a batch)', t.Union([JsonRpcAnswer, t.Array(JsonRpcAnswer)])],
              400: [`JSON-RPC parse error or invalid request (id null), a batch of more than ${MCP_MAX_BATCH} messages among them; or an Authorization header that is not Bearer (RFC 6750 invalid_request)`, t.Union([JsonRpcFailure, BearerFailure])],
              401: ['Invalid or expired bearer token (RFC 6750 invalid_token; WWW-Authenticate names the protected-resource metadata)', BearerFailure],
              408: ['The body did not arrive within BODY_TIMEOUT_MS (Connection: close)', JsonRpcFailure],
              413: ['Body over the size limit', JsonRpcFailure],
              415: ['Content-Type is not application/json', JsonRpcFailure],
              429: ['Anonymous rate per address reached (MCP_ANON_RATE_PER_MINUTE; a batch counts each element): -32000 with data {error: RATE_LIMITED, retry_after_seconds}, Retry-After', JsonRpcFailure],
              500: ['Unexpected failure before any message was answered (-32603)', JsonRpcFailure],
              503: ['Storage full or unreachable: -32603 with data {error: STORAGE_FULL or STORAGE_UNAVAILABLE, message} (Retry-After)', JsonRpcFailure],
            }),
            202: { description: 'Accepted: the body held only notifications or responses' },
          },
        },
      },
    )
    .get('/mcp', methodNotAllowed, notAllowedDoc('there is no server-initiated stream'))
    .delete('/mcp', methodNotAllowed, notAllowedDoc('no session is issued, so there is none to end'))
    .put('/mcp', methodNotAllowed, notAllowedDoc('POST only'))
    .patch('/mcp', methodNotAllowed, notAllowedDoc('POST only'))
}
