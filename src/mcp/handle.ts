// One POST to /mcp, from the request to the answer: the DNS-rebinding guard, framing, the
// protocol era (an initialize-era client, or a stateless 2026-07-28 request), who is calling and
// what they may still send, then dispatch. Refusals before dispatch run nothing and count nothing
// as usage. docs/mcp.md describes every answer.
import type { Server } from 'bun'
import type { McpDeps } from './deps'
import { jsonResponse, storageRefusal } from '../http/errors'
import { BodyError, readBody } from '../http/body'
import { clientAddress } from '../http/client-address'
import { rateLimitHeaders } from '../http/rate-limit'
import { API_VERSION } from '../version'
import { JSONRPC_ERRORS, errorFor, errorWithoutId, isModernVersion, isSupportedVersion, nestingExceeds, type JsonRpcId, type ModernVersion } from './protocol'
import { answerResponse } from './send'
import { batchTooLong, dispatchBody, type Era } from './dispatch'
import { mcpCaller } from './access'
import { utcDay } from './usage'
import type { Admission, Refusal } from './admission'
import type { rebindingGuard } from './rebinding'
import { declaredVersion, modernId, modernRequestProblem, unsupportedVersion } from './modern'
import { MCP_MAX_OUTSTANDING } from './limits'

/** Large enough for a batch of receipts to verify; a single verify_receipt is at most 16 KiB. */
export const MCP_MAX_BODY_BYTES = 256 * 1024
export const MCP_MAX_DEPTH = 32

export interface PostContext {
  deps: McpDeps
  admission: Admission
  guard: ReturnType<typeof rebindingGuard>
}

/**
 * A JSON-RPC error as the whole answer. `modern`: the request speaks 2026-07-28 (or a version this
 * server does not know), so an unknown id is left out rather than sent as null.
 */
const rpcError = (modern: boolean, status: number, code: number, message: string, headers: Record<string, string> = {}, data?: unknown, id: JsonRpcId = null) =>
  jsonResponse(errorFor(modern, id, code, message, data), status, headers)

/** A failure before any message could be answered, as JSON-RPC: a storage error is 503 with the error object, anything else 500. */
function requestFailure(deps: McpDeps, modern: boolean, error: unknown): Response {
  const refusal = storageRefusal(error)
  if (refusal) {
    deps.log.error('tool endpoint: storage refused the request', { error: refusal.errorCode })
    return rpcError(modern, refusal.status, JSONRPC_ERRORS.INTERNAL_ERROR, refusal.message, refusal.headers, refusal.body())
  }
  deps.log.error('tool endpoint: internal error', { error: (error as Error).message })
  return rpcError(modern, 500, JSONRPC_ERRORS.INTERNAL_ERROR, 'internal error')
}

/** 429 for a caller over its message rate or with too many messages outstanding: -32000 with the spec's error object in `data`. */
function limitReached(modern: boolean, refusal: Refusal, anonymous: boolean): Response {
  if (refusal.kind === 'outstanding') {
    const error = { error: 'TOO_MANY_OUTSTANDING', message: `at most ${refusal.limit} messages of one ${anonymous ? 'client address' : 'key'} are answered at once (a batch counts each element); read the answers you asked for before sending more`, limit: refusal.limit, retry_after_seconds: 1 }
    return rpcError(modern, 429, JSONRPC_ERRORS.LIMIT_REACHED, error.message, { 'retry-after': '1' }, error)
  }
  const { decision } = refusal
  const who = anonymous ? 'anonymous callers may send' : 'a key may send'
  const tail = anonymous ? ', or use a bearer token from /oauth/token' : ''
  const error = { error: 'RATE_LIMITED', message: `${who} ${decision.limit} messages a minute${anonymous ? ' from one address' : ''} (a batch counts each element); retry in ${decision.retryAfterSeconds} s${tail}`, retry_after_seconds: decision.retryAfterSeconds }
  return rpcError(modern, 429, JSONRPC_ERRORS.LIMIT_REACHED, error.message, rateLimitHeaders(decision), error)
}

/** How many messages in a parsed body are requests or notifications (for usage counts and rates). */
const messageCount = (body: unknown) => (Array.isArray(body) ? body.length : 1)

export async function answerPost({ deps, admission, guard }: PostContext, request: Request, server: Server<unknown> | null): Promise<Response> {
  // A connection that stops reading its answers (or sending its body) is closed after
  // BODY_TIMEOUT_MS without progress, not the 30 s Elysia gives every connection.
  server?.timeout(request, Math.ceil(deps.config.bodyTimeoutMs / 1000))
  const header = request.headers.get('mcp-protocol-version')
  // Until the body is read, an error's id is unknown: null for initialize-era clients (as ever), left out otherwise.
  const modernHint = header !== null && !isSupportedVersion(header)
  const rebinding = guard.check(request)
  if (rebinding) return rpcError(true, 403, JSONRPC_ERRORS.INVALID_REQUEST, rebinding.message, {}, rebinding)
  const type = request.headers.get('content-type') ?? ''
  if (!/^application\/json\b/i.test(type)) return rpcError(modernHint, 415, JSONRPC_ERRORS.INVALID_REQUEST, 'Content-Type must be application/json')
  const now = deps.clock.now()
  const address = clientAddress(request, deps.config.clientIpHeader, server)
  // Anonymous callers are counted per address before the body is read (one per request), and
  // each further element of a batch once it is parsed; a bearer call is counted on its key.
  const anonymous = !request.headers.has('authorization')
  if (anonymous) {
    const refused = admission.countMessages(`address:${address}`, now)
    if (refused) return limitReached(modernHint, refused, true)
  }
  // Content-Length first, then counted while reading; a stalled body gets 408 (http/body.ts).
  let text: string
  try {
    text = new TextDecoder().decode(await readBody(request, { limit: MCP_MAX_BODY_BYTES, timeoutMs: deps.config.bodyTimeoutMs }))
  } catch (error) {
    if (!(error instanceof BodyError)) throw error
    if (error.failure === 'timeout') deps.log.warn('request body timed out', { path: '/mcp', timeout_ms: deps.config.bodyTimeoutMs })
    return error.failure === 'too_large'
      ? rpcError(modernHint, 413, JSONRPC_ERRORS.INVALID_REQUEST, `request body is limited to ${MCP_MAX_BODY_BYTES} bytes`)
      : rpcError(modernHint, 408, JSONRPC_ERRORS.INVALID_REQUEST, 'the request body did not arrive in time', { connection: 'close' })
  }
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    return rpcError(modernHint, 400, JSONRPC_ERRORS.PARSE_ERROR, 'parse error: the body is not JSON')
  }
  if (nestingExceeds(body, MCP_MAX_DEPTH)) return rpcError(modernHint, 400, JSONRPC_ERRORS.INVALID_REQUEST, `input nested deeper than ${MCP_MAX_DEPTH} levels`)

  const era = eraOf(body, request.headers)
  if ('refused' in era) return era.refused
  const modern = era.kind === 'modern'
  const tooLong = batchTooLong(body)
  if (tooLong) return rpcError(modern, 400, JSONRPC_ERRORS.INVALID_REQUEST, tooLong)
  if (anonymous && Array.isArray(body) && body.length > 1) {
    const refused = admission.countMessages(`address:${address}`, now, body.length - 1)
    if (refused) return limitReached(modern, refused, true)
  }

  let place: { release(): void } | null = null
  try {
    const access = await mcpCaller(deps, request, address, now)
    if (access.kind === 'rejected') return access.response
    if (!anonymous) {
      const refused = admission.countMessages(access.counted, now, messageCount(body))
      if (refused) return limitReached(modern, refused, false)
    }
    place = admission.enter(access.counted, messageCount(body))
    if (!place) return limitReached(modern, { kind: 'outstanding', limit: MCP_MAX_OUTSTANDING }, anonymous)
    // Counted once admitted: refused requests are not usage (a batch is one client, N requests).
    deps.mcpUsage.record(utcDay(now), access.clientHash, messageCount(body))

    const outcome = await dispatchBody(body, { deps, caller: access.caller, era, serverVersion: API_VERSION })
    if (outcome.status === 202) {
      place.release()
      return new Response(null, { status: 202 })
    }
    const held = place
    return answerResponse(
      outcome.text,
      { status: outcome.status, headers: outcome.headers ?? {} },
      deps.config.bodyTimeoutMs,
      (taken, total) => deps.log.warn('tool endpoint: the client did not read its answer in time; connection closed', { taken_bytes: taken, answer_bytes: total, timeout_ms: deps.config.bodyTimeoutMs }),
      () => held.release(),
    )
  } catch (error) {
    place?.release()
    return requestFailure(deps, modern, error)
  }
}

/**
 * The era of a parsed body, or the refusal of a request that names a version it cannot be
 * served in: a version unknown here (-32022), a 2026-07-28 batch, or a 2026-07-28 request whose
 * headers or `_meta` do not check out (modern.ts).
 */
function eraOf(body: unknown, headers: Headers): Era | { refused: Response } {
  const header = headers.get('mcp-protocol-version')
  const meta = Array.isArray(body) ? undefined : declaredVersion(body)
  if (header !== null && !isSupportedVersion(header) && !isModernVersion(header)) {
    const refusal = unsupportedVersion(modernId(body), header)
    return { refused: rpcError(true, 400, refusal.code, refusal.message, {}, refusal.data, refusal.id) }
  }
  if (!isModernVersion(header) && meta === undefined) return { kind: 'legacy', version: isSupportedVersion(header) ? header : null }
  if (Array.isArray(body)) return { refused: rpcError(true, 400, JSONRPC_ERRORS.INVALID_REQUEST, `${header} sends one JSON-RPC message per POST: a batch is not a request`) }
  const isObject = typeof body === 'object' && body !== null
  if (!isObject || ('id' in body && modernId(body) === null)) {
    return { refused: jsonResponse(errorWithoutId(true, JSONRPC_ERRORS.INVALID_REQUEST, 'invalid request: a message is an object whose id, when present, is a string or an integer'), 400) }
  }
  const problem = modernRequestProblem(body as Record<string, unknown>, headers)
  if (problem) return { refused: rpcError(true, problem.status, problem.code, problem.message, {}, problem.data, problem.id) }
  return { kind: 'modern', version: header as ModernVersion }
}
