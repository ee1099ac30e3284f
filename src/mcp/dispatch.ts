// Answering JSON-RPC messages: initialize, ping, tools/list, tools/call; batches; notifications.
// Stateless: nothing is remembered between HTTP requests (no Mcp-Session-Id is issued).
import type { AppDeps } from '../deps'
import { ApiError } from '../http/errors'
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

export const SERVER_NAME = 'openbell'

const INSTRUCTIONS =
  `Signed market-state receipts for ${SUPPORTED_MICS.length} exchanges. Call get_market_status before acting: a receipt is valid for ${RECEIPT_TTL_SECONDS} seconds, ` +
  'UNKNOWN means treat the market as CLOSED, and the Ed25519 signature verifies offline with the key at /v5/keys ' +
  '(or with verify_receipt). get_market_schedule is the unsigned calendar view; get_market_calendar lists sessions, holidays and phases by date.'

export interface DispatchContext {
  deps: AppDeps
  caller: ToolCaller
  /** The version the client declared in the MCP-Protocol-Version header, if any. */
  version: ProtocolVersion | null
  serverVersion: string
}

export type DispatchOutcome = { status: 202 } | { status: 200; body: JsonRpcResponse | JsonRpcResponse[] }

/** Answers one POST body that already parsed as JSON. */
export async function dispatchBody(body: unknown, context: DispatchContext): Promise<DispatchOutcome> {
  if (Array.isArray(body)) {
    if (body.length === 0) return { status: 200, body: errorResponse(null, JSONRPC_ERRORS.INVALID_REQUEST, 'an empty batch is not a request') }
    const answers: JsonRpcResponse[] = []
    // One after another: a batch is small and its status calls are metered in order.
    for (const element of body) {
      const answer = await dispatchOne(element, context)
      if (answer) answers.push(answer)
    }
    return answers.length ? { status: 200, body: answers } : { status: 202 }
  }
  const answer = await dispatchOne(body, context)
  return answer ? { status: 200, body: answer } : { status: 202 }
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
