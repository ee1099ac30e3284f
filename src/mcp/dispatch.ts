// Answering JSON-RPC messages: initialize, ping, tools/list, tools/call; batches; notifications.
// Stateless: nothing is remembered between HTTP requests (no Mcp-Session-Id is issued).
import type { McpDeps, McpToolDeps } from './deps'
import { ApiError, storageFull, storageRefusal, storageUnavailable } from '../http/errors'
import { SUPPORTED_MICS } from '../calendar/mics'
import { RECEIPT_TTL_SECONDS } from '../crypto/receipt-fields'
import {
  ALL_PROTOCOL_VERSIONS,
  JSONRPC_ERRORS,
  argumentErrorsAsResults,
  classify,
  errorFor,
  errorResponse,
  hasFullToolDescriptions,
  hasStructuredContent,
  negotiateVersion,
  resultResponse,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type ModernVersion,
  type ProtocolVersion,
} from './protocol'
import { argumentProblem, findTool, toolList, toolResult, type ToolCaller } from './tools'
import { META_SERVER_INFO } from './modern'
import { MCP_ANSWER_RESERVE_BYTES, MCP_MAX_BATCH, MCP_MAX_RESPONSE_BYTES } from './limits'

export const SERVER_NAME = 'openbell'

const INSTRUCTIONS =
  `Signed market-state receipts for ${SUPPORTED_MICS.length} exchanges. Call get_market_status before acting: a receipt is valid for ${RECEIPT_TTL_SECONDS} seconds, ` +
  'UNKNOWN means treat the market as CLOSED, and the Ed25519 signature verifies offline with the key at /v5/keys ' +
  '(or with verify_receipt). get_market_schedule is the unsigned calendar view; get_market_calendar lists sessions, holidays and phases by date.'

/**
 * How the client speaks: after an initialize handshake (the version it declared in the
 * MCP-Protocol-Version header, if any), or statelessly (2026-07-28: the version in each request's
 * `_meta`, already checked against the headers by the route).
 */
export type Era = { kind: 'legacy'; version: ProtocolVersion | null } | { kind: 'modern'; version: ModernVersion }

export interface DispatchContext {
  deps: McpToolDeps & Pick<McpDeps, 'log'>
  caller: ToolCaller
  era: Era
  serverVersion: string
}

/** How long a 2026-07-28 client may keep tools/list and server/discover: they change only with a new release. */
export const LIST_TTL_MS = 3_600_000

/**
 * The serialised answer: 200, or 503 (with Retry-After) when the one message of a body failed for
 * a full disk (a batch stays 200 with that element's error); 202 when nothing is to be answered.
 */
export type DispatchOutcome = { status: 202 } | { status: 200 | 400 | 404 | 503; text: string; headers?: Record<string, string> }

/** Why a batch is refused whole (one -32600 error): longer than MCP_MAX_BATCH; or null. */
export function batchTooLong(body: unknown): string | null {
  return Array.isArray(body) && body.length > MCP_MAX_BATCH ? `a batch holds at most ${MCP_MAX_BATCH} messages (this one has ${body.length}); send them in several requests` : null
}

/** The answer in place of an element that would not fit in the answer's byte budget (it is not run). */
function overBudget(element: unknown, maxBytes: number): JsonRpcResponse | null {
  const message = classify(element)
  if (message.kind !== 'request') return null
  const error = { error: 'RESPONSE_TOO_LARGE', message: `the answer to this batch reached ${maxBytes} bytes before this message; it was not run: send it again in another request`, limit_bytes: maxBytes }
  return errorResponse(message.message.id, JSONRPC_ERRORS.LIMIT_REACHED, error.message, error)
}

/**
 * Answers one POST body that already parsed as JSON (the route refuses a batch that is too long first). The answer is
 * built within `maxBytes`: each element runs only while the answer so far leaves room for one
 * more (MCP_ANSWER_RESERVE_BYTES), so nothing is run and then dropped.
 */
export async function dispatchBody(body: unknown, context: DispatchContext, maxBytes = MCP_MAX_RESPONSE_BYTES): Promise<DispatchOutcome> {
  if (Array.isArray(body)) {
    if (body.length === 0) return { status: 200, text: JSON.stringify(errorResponse(null, JSONRPC_ERRORS.INVALID_REQUEST, 'an empty batch is not a request')) }
    const tooLong = batchTooLong(body)
    if (tooLong) return { status: 200, text: JSON.stringify(errorResponse(null, JSONRPC_ERRORS.INVALID_REQUEST, tooLong)) }
    const parts: string[] = []
    let bytes = 1
    // One after another: a batch is small and its status calls are metered in order.
    for (const element of body) {
      const room = maxBytes - bytes - 1
      let answer = room >= MCP_ANSWER_RESERVE_BYTES ? await dispatchOne(element, context) : overBudget(element, maxBytes)
      if (!answer) continue
      let text = JSON.stringify(answer)
      if (Buffer.byteLength(text) > room) {
        answer = overBudget(element, maxBytes)!
        text = JSON.stringify(answer)
      }
      parts.push(text)
      bytes += Buffer.byteLength(text) + 1
    }
    return parts.length ? { status: 200, text: `[${parts.join(',')}]` } : { status: 202 }
  }
  const answer = await dispatchOne(body, context)
  if (!answer) return { status: 202 }
  let text = JSON.stringify(answer)
  if (Buffer.byteLength(text) > maxBytes) text = JSON.stringify(overBudget(body, maxBytes))
  const refused = storageRefusalOf(answer)
  if (refused) return { status: 503, text, headers: refused.headers }
  // 2026-07-28 on HTTP: an unknown method is 404 (a legacy HTTP+SSE server would answer 404 with no JSON-RPC body).
  if (context.era.kind === 'modern' && 'error' in answer) {
    if (answer.error.code === JSONRPC_ERRORS.METHOD_NOT_FOUND) return { status: 404, text }
    if (answer.error.code === JSONRPC_ERRORS.INVALID_REQUEST) return { status: 400, text }
  }
  return { status: 200, text }
}

/** The storage refusal a -32603 answer carries (dispatchOne puts it in `data`), or null. */
function storageRefusalOf(answer: JsonRpcResponse): ApiError | null {
  if (!('error' in answer)) return null
  const code = (answer.error.data as { error?: unknown } | undefined)?.error
  return code === 'STORAGE_FULL' ? storageFull() : code === 'STORAGE_UNAVAILABLE' ? storageUnavailable() : null
}

async function dispatchOne(element: unknown, context: DispatchContext): Promise<JsonRpcResponse | null> {
  const message = classify(element)
  switch (message.kind) {
    case 'invalid':
      return errorFor(context.era.kind === 'modern', message.id, JSONRPC_ERRORS.INVALID_REQUEST, `invalid request: ${message.reason}`)
    case 'notification':
    case 'client_response':
      return null
    case 'request':
      try {
        return await answerRequest(message.message, context)
      } catch (error) {
        const refusal = storageRefusal(error)
        if (refusal) {
          // The spec's error object rides in `data`, as on every other surface (503 STORAGE_FULL or STORAGE_UNAVAILABLE).
          context.deps.log.error('tool endpoint: storage refused the request', { method: message.message.method, error: refusal.errorCode })
          return errorResponse(message.message.id, JSONRPC_ERRORS.INTERNAL_ERROR, refusal.message, refusal.body())
        }
        context.deps.log.error('tool endpoint: internal error', { method: message.message.method, error: (error as Error).message })
        return errorResponse(message.message.id, JSONRPC_ERRORS.INTERNAL_ERROR, 'internal error')
      }
  }
}

async function answerRequest(request: JsonRpcRequest, context: DispatchContext): Promise<JsonRpcResponse> {
  if (context.era.kind === 'modern') return answerModern(request, context)
  const { id, method, params = {} } = request
  switch (method) {
    case 'initialize':
      return resultResponse(id, {
        protocolVersion: negotiateVersion(params.protocolVersion),
        capabilities: { tools: { listChanged: false } },
        serverInfo: { name: SERVER_NAME, title: 'openbell market-state attestation', version: context.serverVersion },
        instructions: INSTRUCTIONS,
      })
    case 'ping':
      return resultResponse(id, {})
    case 'tools/list':
      return resultResponse(id, { tools: toolList(context.era.version !== null && hasFullToolDescriptions(context.era.version)) })
    case 'tools/call':
      return callTool(id, params, context)
    default:
      return errorResponse(id, JSONRPC_ERRORS.METHOD_NOT_FOUND, `method not found: ${method}`)
  }
}

/**
 * 2026-07-28: no initialize and no ping; server/discover instead. Every result carries
 * `resultType` and the server's identity in `_meta`; the list results carry caching hints.
 */
async function answerModern(request: JsonRpcRequest, context: DispatchContext): Promise<JsonRpcResponse> {
  const { id, method, params = {} } = request
  const complete = (result: Record<string, unknown>) =>
    resultResponse(id, { resultType: 'complete', ...result, _meta: { [META_SERVER_INFO]: { name: SERVER_NAME, version: context.serverVersion } } })
  switch (method) {
    case 'server/discover':
      return complete({ supportedVersions: [...ALL_PROTOCOL_VERSIONS], capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS, ttlMs: LIST_TTL_MS, cacheScope: 'public' })
    case 'tools/list':
      // The same tools for every caller, anonymous or not: shared caches may keep it.
      return complete({ tools: toolList(true), ttlMs: LIST_TTL_MS, cacheScope: 'public' })
    case 'tools/call': {
      const answer = await callTool(id, params, context)
      return 'result' in answer ? complete(answer.result as Record<string, unknown>) : answer
    }
    default:
      return errorResponse(id, JSONRPC_ERRORS.METHOD_NOT_FOUND, `method not found: ${method}${method === 'initialize' || method === 'ping' ? ` (${context.era.version} has no ${method}: each request carries its version in _meta; see server/discover)` : ''}`)
  }
}

async function callTool(id: string | number, params: Record<string, unknown>, context: DispatchContext): Promise<JsonRpcResponse> {
  if (typeof params.name !== 'string') return errorResponse(id, JSONRPC_ERRORS.INVALID_PARAMS, 'params.name (the tool name) is required')
  const tool = findTool(params.name)
  if (!tool) return errorResponse(id, JSONRPC_ERRORS.INVALID_PARAMS, `unknown tool: ${params.name}`)
  // Absent arguments are {}; a present null is not an object and fails the schema like any other.
  const args = params.arguments === undefined ? {} : params.arguments
  // Not an object at all: the request itself is malformed (CallToolRequest), a protocol error in every version.
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return errorResponse(id, JSONRPC_ERRORS.INVALID_PARAMS, `invalid arguments for ${tool.name}: arguments must be an object`)
  const version = context.era.version
  const structured = version !== null && hasStructuredContent(version)
  const problem = argumentProblem(tool, args)
  if (problem) {
    const message = `invalid arguments for ${tool.name}: ${problem}`
    if (version !== null && argumentErrorsAsResults(version)) return resultResponse(id, toolResult({ error: 'INVALID_ARGUMENTS', message }, true, structured))
    return errorResponse(id, JSONRPC_ERRORS.INVALID_PARAMS, message)
  }
  try {
    const body = await tool.run(context.deps, args as Record<string, unknown>, context.caller)
    return resultResponse(id, toolResult(body, false, structured))
  } catch (error) {
    // The spec's error object (UNKNOWN_MIC, CRITICAL_FAILURE, a limit reached) as the tool's result.
    if (error instanceof ApiError) return resultResponse(id, toolResult(error.body(), true, structured))
    throw error
  }
}
