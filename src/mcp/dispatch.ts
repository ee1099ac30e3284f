// Answering JSON-RPC messages: initialize, ping, tools/list, tools/call; batches; notifications.
// Stateless: nothing is remembered between HTTP requests (no Mcp-Session-Id is issued).
import type { McpDeps, McpToolDeps } from './deps'
import { ApiError, storageFull, storageRefusal, storageUnavailable } from '../http/errors'
import { SUPPORTED_MICS } from '../calendar/mics'
import { RECEIPT_TTL_SECONDS } from '../crypto/receipt-fields'
import {
  JSONRPC_ERRORS,
  argumentErrorsAsResults,
  classify,
  errorResponse,
  hasStructuredContent,
  negotiateVersion,
  resultResponse,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type ProtocolVersion,
} from './protocol'
import { argumentProblem, findTool, toolList, toolResult, type ToolCaller } from './tools'
import { MCP_ANSWER_RESERVE_BYTES, MCP_MAX_BATCH, MCP_MAX_RESPONSE_BYTES } from './limits'

export const SERVER_NAME = 'openbell'

const INSTRUCTIONS =
  `Signed market-state receipts for ${SUPPORTED_MICS.length} exchanges. Call get_market_status before acting: a receipt is valid for ${RECEIPT_TTL_SECONDS} seconds, ` +
  'UNKNOWN means treat the market as CLOSED, and the Ed25519 signature verifies offline with the key at /v5/keys ' +
  '(or with verify_receipt). get_market_schedule is the unsigned calendar view; get_market_calendar lists sessions, holidays and phases by date.'

export interface DispatchContext {
  deps: McpToolDeps & Pick<McpDeps, 'log'>
  caller: ToolCaller
  /** The version the client declared in the MCP-Protocol-Version header, if any. */
  version: ProtocolVersion | null
  serverVersion: string
}

/**
 * The serialised answer: 200, or 503 (with Retry-After) when the one message of a body failed for
 * a full disk (a batch stays 200 with that element's error); 202 when nothing is to be answered.
 */
export type DispatchOutcome = { status: 202 } | { status: 200 | 503; text: string; headers?: Record<string, string> }

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
      return errorResponse(message.id, JSONRPC_ERRORS.INVALID_REQUEST, `invalid request: ${message.reason}`)
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
      return resultResponse(id, { tools: toolList() })
    case 'tools/call':
      return callTool(id, params, context)
    default:
      return errorResponse(id, JSONRPC_ERRORS.METHOD_NOT_FOUND, `method not found: ${method}`)
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
  const structured = context.version !== null && hasStructuredContent(context.version)
  const problem = argumentProblem(tool, args)
  if (problem) {
    const message = `invalid arguments for ${tool.name}: ${problem}`
    if (context.version !== null && argumentErrorsAsResults(context.version)) return resultResponse(id, toolResult({ error: 'INVALID_ARGUMENTS', message }, true, structured))
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
