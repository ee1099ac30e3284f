// JSON-RPC 2.0 framing for the tool endpoint: classifying incoming messages, error objects and
// protocol-version negotiation. No HTTP and no tools here.

export const JSONRPC_ERRORS = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
  /** Implementation-defined server error (JSON-RPC reserves -32000 to -32099): a limit of this server was reached (rate, answer size). */
  LIMIT_REACHED: -32000,
  /** 2026-07-28: the Mcp-* headers are missing or do not match the body. */
  HEADER_MISMATCH: -32020,
  /** 2026-07-28: the requested protocol version is not served here; data {supported, requested}. */
  UNSUPPORTED_PROTOCOL_VERSION: -32022,
} as const

/** The version spec 9 names; answered when a client asks for one this server does not speak. */
export const DEFAULT_PROTOCOL_VERSION = '2024-11-05'
/** The versions opened by an initialize handshake, oldest first (docs/mcp.md says what differs). */
export const SUPPORTED_PROTOCOL_VERSIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'] as const
export type ProtocolVersion = (typeof SUPPORTED_PROTOCOL_VERSIONS)[number]
/** The stateless versions: each request carries its version in `_meta` and the MCP-Protocol-Version header (no initialize). */
export const MODERN_PROTOCOL_VERSIONS = ['2026-07-28'] as const
export type ModernVersion = (typeof MODERN_PROTOCOL_VERSIONS)[number]
/** Every version served, oldest first (the discovery documents list them). */
export const SERVED_PROTOCOL_VERSIONS: readonly string[] = [...SUPPORTED_PROTOCOL_VERSIONS, ...MODERN_PROTOCOL_VERSIONS]
/** Every version served, newest first (server/discover and UnsupportedProtocolVersionError list them). */
export const ALL_PROTOCOL_VERSIONS: readonly string[] = [...MODERN_PROTOCOL_VERSIONS, ...[...SUPPORTED_PROTOCOL_VERSIONS].reverse()]

/** A version an initialize handshake can open. */
export function isSupportedVersion(value: unknown): value is ProtocolVersion {
  return typeof value === 'string' && (SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(value)
}

export function isModernVersion(value: unknown): value is ModernVersion {
  return typeof value === 'string' && (MODERN_PROTOCOL_VERSIONS as readonly string[]).includes(value)
}

/** The client's requested version when this server speaks it, else the spec's default. */
export function negotiateVersion(requested: unknown): ProtocolVersion {
  return isSupportedVersion(requested) ? requested : DEFAULT_PROTOCOL_VERSION
}

/** structuredContent arrived with 2025-06-18; older clients get text content only. */
export function hasStructuredContent(version: ProtocolVersion | ModernVersion): boolean {
  return version >= '2025-06-18'
}

/**
 * 2025-11-25 (SEP-1303): arguments that fail a tool's input schema are a tool execution error
 * (isError, so the model sees it and can correct the call); earlier versions make them -32602.
 * An unknown tool stays -32602 in every version.
 */
export function argumentErrorsAsResults(version: ProtocolVersion | ModernVersion): boolean {
  return version >= '2025-11-25'
}

/** Tools described fully (annotations, outputSchema) from 2025-11-25 on; earlier clients get the list as before. */
export function hasFullToolDescriptions(version: ProtocolVersion | ModernVersion): boolean {
  return version >= '2025-11-25'
}

export type JsonRpcId = string | number | null

export interface JsonRpcRequest {
  id: string | number
  method: string
  params?: Record<string, unknown>
}

export interface JsonRpcNotification {
  method: string
  params?: Record<string, unknown>
}

export type JsonRpcResponse =
  | { jsonrpc: '2.0'; id: JsonRpcId; result: unknown }
  /** `id` is left out only where 2026-07-28 forbids null (errorWithoutId). */
  | { jsonrpc: '2.0'; id?: JsonRpcId; error: { code: number; message: string; data?: unknown } }

export type IncomingMessage =
  | { kind: 'request'; message: JsonRpcRequest }
  | { kind: 'notification'; message: JsonRpcNotification }
  /** A response or error the client sends back (to a server request); acknowledged, not answered. */
  | { kind: 'client_response' }
  | { kind: 'invalid'; id: JsonRpcId; reason: string }

export function errorResponse(id: JsonRpcId, code: number, message: string, data?: unknown): JsonRpcResponse {
  return { jsonrpc: '2.0', id, error: data === undefined ? { code, message } : { code, message, data } }
}

/** An error whose request id is not known: 2026-07-28 forbids `"id": null` (the member is left out); earlier versions keep JSON-RPC's null. */
export function errorWithoutId(modern: boolean, code: number, message: string, data?: unknown): JsonRpcResponse {
  if (!modern) return errorResponse(null, code, message, data)
  return { jsonrpc: '2.0', error: data === undefined ? { code, message } : { code, message, data } }
}

/** An error for a known id, or (id null) errorWithoutId. */
export function errorFor(modern: boolean, id: JsonRpcId, code: number, message: string, data?: unknown): JsonRpcResponse {
  return id === null ? errorWithoutId(modern, code, message, data) : errorResponse(id, code, message, data)
}

export function resultResponse(id: JsonRpcId, result: unknown): JsonRpcResponse {
  return { jsonrpc: '2.0', id, result }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)
const isId = (value: unknown): value is string | number => typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value))

/** Classifies one element of a POST body (JSON-RPC 2.0 section 4, 5). */
export function classify(value: unknown): IncomingMessage {
  if (!isObject(value)) return { kind: 'invalid', id: null, reason: 'a JSON-RPC message must be an object' }
  const id = isId(value.id) ? value.id : null
  if (value.jsonrpc !== '2.0') return { kind: 'invalid', id, reason: 'jsonrpc must be "2.0"' }
  if (!('method' in value)) {
    if (('result' in value || 'error' in value) && 'id' in value) return { kind: 'client_response' }
    return { kind: 'invalid', id, reason: 'a request needs a method' }
  }
  if (typeof value.method !== 'string' || value.method === '') return { kind: 'invalid', id, reason: 'method must be a non-empty string' }
  if ('params' in value && value.params !== undefined && !isObject(value.params)) return { kind: 'invalid', id, reason: 'params must be an object' }
  const params = value.params as Record<string, unknown> | undefined
  if (!('id' in value)) return { kind: 'notification', message: { method: value.method, params } }
  if (!isId(value.id)) return { kind: 'invalid', id: null, reason: 'id must be a string or a number' }
  return { kind: 'request', message: { id: value.id, method: value.method, params } }
}

/** Depth of nested arrays and objects, stopping once past the limit (hostile input can be deep). */
export function nestingExceeds(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 1]]
  while (stack.length) {
    const [item, depth] = stack.pop()!
    if (typeof item !== 'object' || item === null) continue
    if (depth > limit) return true
    for (const child of Array.isArray(item) ? item : Object.values(item)) stack.push([child, depth + 1])
  }
  return false
}
