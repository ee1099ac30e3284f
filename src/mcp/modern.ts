// The 2026-07-28 revision on Streamable HTTP: a stateless request carries its protocol version and
// client capabilities in `_meta`, and mirrors its method (and tool name) in the Mcp-Method and
// Mcp-Name headers, which must match the body. This module decides whether a body is such a
// request and what is wrong with it; no HTTP here. docs/mcp.md, "2026-07-28".
import { ALL_PROTOCOL_VERSIONS, JSONRPC_ERRORS, isModernVersion, isSupportedVersion, type JsonRpcId } from './protocol'

export const META_PROTOCOL_VERSION = 'io.modelcontextprotocol/protocolVersion'
export const META_CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities'
export const META_SERVER_INFO = 'io.modelcontextprotocol/serverInfo'

/** Methods whose Mcp-Name header mirrors a body member (the transport's table). */
const NAMED_METHODS: Record<string, 'name' | 'uri'> = { 'tools/call': 'name', 'resources/read': 'uri', 'prompts/get': 'name' }

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** A refusal of a modern request before it runs: HTTP 400 with this JSON-RPC error. */
export interface ModernRefusal {
  status: 400
  id: JsonRpcId
  code: number
  message: string
  data?: unknown
}

/** The version a body declares in `params._meta` (a single message only), or undefined. */
export function declaredVersion(body: unknown): unknown {
  if (!isObject(body) || !isObject(body.params) || !isObject(body.params._meta)) return undefined
  return body.params._meta[META_PROTOCOL_VERSION]
}

/** A request id the 2026-07-28 schema admits (string or integer), else null: the error then carries none. */
export function modernId(body: unknown): JsonRpcId {
  if (!isObject(body)) return null
  const id = body.id
  return typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id)) ? id : null
}

export function unsupportedVersion(id: JsonRpcId, requested: string): ModernRefusal {
  // A version of the initialize era named in _meta: served here, but only after initialize.
  const why = isSupportedVersion(requested) ? ` per request (${requested} is served after an initialize handshake)` : ''
  return {
    status: 400,
    id,
    code: JSONRPC_ERRORS.UNSUPPORTED_PROTOCOL_VERSION,
    message: `Unsupported protocol version ${JSON.stringify(requested.slice(0, 32))}${why}: this server speaks ${ALL_PROTOCOL_VERSIONS.join(', ')}`,
    data: { supported: [...ALL_PROTOCOL_VERSIONS], requested: requested.slice(0, 64) },
  }
}

const mismatch = (id: JsonRpcId, message: string): ModernRefusal => ({ status: 400, id, code: JSONRPC_ERRORS.HEADER_MISMATCH, message: `Header mismatch: ${message}` })

/** An Mcp-Name value: plain visible ASCII, or the `=?base64?…?=` sentinel of UTF-8 bytes; null when malformed. */
export function decodeHeaderValue(value: string): string | null {
  const sentinel = /^=\?base64\?([A-Za-z0-9+/]*={0,2})\?=$/.exec(value)
  if (sentinel) {
    const bytes = Buffer.from(sentinel[1]!, 'base64')
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
    } catch {
      return null
    }
  }
  if (value.startsWith('=?base64?')) return null
  return /^[\x20-\x7e\t]*$/.test(value) ? value : null
}

/**
 * What is wrong with a single-message body served under 2026-07-28 (the header or `_meta` names
 * it), or null. Checked in the order the specification gives its errors: the version (the header
 * must be there and match `_meta`), the required `_meta` members (-32602), then Mcp-Method and
 * Mcp-Name against the body (-32020). Notifications carry no header rules in this revision.
 */
export function modernRequestProblem(body: Record<string, unknown>, headers: Headers): ModernRefusal | null {
  const id = modernId(body)
  const isNotification = !('id' in body)
  const headerVersion = headers.get('mcp-protocol-version')
  const meta = isObject(body.params) && isObject(body.params._meta) ? body.params._meta : null
  const metaVersion = meta?.[META_PROTOCOL_VERSION]
  if (headerVersion === null) return mismatch(id, 'the MCP-Protocol-Version header is required and must equal _meta["io.modelcontextprotocol/protocolVersion"]')
  if (metaVersion !== undefined && metaVersion !== headerVersion) {
    return mismatch(id, `MCP-Protocol-Version header value ${JSON.stringify(headerVersion.slice(0, 32))} does not match _meta["io.modelcontextprotocol/protocolVersion"] ${JSON.stringify(String(metaVersion).slice(0, 32))}`)
  }
  if (!isModernVersion(headerVersion)) return unsupportedVersion(id, headerVersion)
  if (isNotification) return null
  if (metaVersion === undefined || !isObject(meta?.[META_CLIENT_CAPABILITIES])) {
    const missing = [metaVersion === undefined ? META_PROTOCOL_VERSION : null, isObject(meta?.[META_CLIENT_CAPABILITIES]) ? null : META_CLIENT_CAPABILITIES].filter(Boolean)
    return { status: 400, id, code: JSONRPC_ERRORS.INVALID_PARAMS, message: `params._meta must carry ${missing.join(' and ')} (${missing.length > 1 ? 'they are' : 'it is'} required on every request of ${headerVersion})` }
  }
  const method = headers.get('mcp-method')
  if (method === null) return mismatch(id, 'the Mcp-Method header is required')
  if (method !== body.method) return mismatch(id, `Mcp-Method header value ${JSON.stringify(method.slice(0, 64))} does not match body value ${JSON.stringify(String(body.method).slice(0, 64))}`)
  const named = typeof body.method === 'string' ? NAMED_METHODS[body.method] : undefined
  if (named) {
    const source = isObject(body.params) ? body.params[named] : undefined
    const header = headers.get('mcp-name')
    if (header === null) return mismatch(id, `the Mcp-Name header is required for ${body.method}`)
    const decoded = decodeHeaderValue(header)
    if (decoded === null) return mismatch(id, 'the Mcp-Name header value is not visible ASCII or a well-formed =?base64?…?= value')
    if (decoded !== source) return mismatch(id, `Mcp-Name header value ${JSON.stringify(decoded.slice(0, 64))} does not match body value ${JSON.stringify(String(source).slice(0, 64))}`)
  }
  return null
}
