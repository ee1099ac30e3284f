// A 2026-07-28 client, written from that revision's text (basic/transports/streamable-http,
// basic/versioning, server/discover, server/utilities/caching) with no SDK, over real HTTP: no
// initialize, the version and capabilities in `_meta`, Mcp-Method and Mcp-Name headers. Every
// message sent and received is validated against the revision's published JSON schema.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { makeTestApp, type TestApp } from '../helpers/app'
import { SLOW_SETUP_MS } from '../helpers/process'
import { validate } from '../helpers/mcp-schemas'
import { verifyWithRegistry, type KeyRegistry } from '../helpers/verify'
import { API_VERSION } from '../../src/version'

const V = '2026-07-28'
let t: TestApp
let base: string
let registry: KeyRegistry

beforeAll(async () => {
  t = makeTestApp({ env: { MCP_ANON_DAILY_LIMIT: '50' } })
  t.app.listen({ port: 0, hostname: '127.0.0.1' })
  base = `http://127.0.0.1:${t.app.server!.port}`
  registry = (await (await fetch(`${base}/v5/keys`)).json()) as KeyRegistry
}, SLOW_SETUP_MS)
afterAll(async () => {
  await t.app.stop(true)
})

const meta = (version = V) => ({ 'io.modelcontextprotocol/protocolVersion': version, 'io.modelcontextprotocol/clientInfo': { name: 'spec-client', version: '0.1.0' }, 'io.modelcontextprotocol/clientCapabilities': {} })

let nextId = 1
/** A request as the transport says: its own POST, both Accept types, the version and Mcp-* headers. */
async function send(method: string, params: Record<string, unknown> = {}, options: { headers?: Record<string, string | null>; id?: unknown; raw?: string } = {}) {
  const id = options.id === undefined ? nextId++ : options.id
  const message = { jsonrpc: '2.0', ...(id === null ? {} : { id }), method, params: { ...params, _meta: (params._meta as object) ?? meta() } }
  if (options.raw === undefined && id !== null) expect(validate(V, 'JSONRPCRequest', message)).toBeNull()
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': V, 'mcp-method': method }
  if (method === 'tools/call') headers['mcp-name'] = String(params.name)
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (value === null) delete headers[name]
    else headers[name] = value
  }
  const response = await fetch(`${base}/mcp`, { method: 'POST', headers, body: options.raw ?? JSON.stringify(message) })
  const text = await response.text()
  return { status: response.status, type: response.headers.get('content-type'), body: text ? JSON.parse(text) : null }
}

/** Every error answer of this revision: a JSONRPCErrorResponse, never with id null. */
function expectModernError(body: Record<string, unknown>, code: number) {
  expect(validate(V, 'JSONRPCErrorResponse', body)).toBeNull()
  expect(body.id).not.toBeNull()
  expect((body.error as { code: number }).code).toBe(code)
}

describe('2026-07-28, stateless', () => {
  test('server/discover answers the versions, capabilities, identity and caching hints without initialize', async () => {
    const discover = await send('server/discover')
    expect(discover.status).toBe(200)
    expect(discover.type).toStartWith('application/json')
    expect(validate(V, 'DiscoverResultResponse', discover.body)).toBeNull()
    expect(discover.body.result).toMatchObject({
      resultType: 'complete',
      supportedVersions: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'],
      capabilities: { tools: { listChanged: false } },
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'openbell', version: API_VERSION } },
      cacheScope: 'public',
    })
    expect(discover.body.result.ttlMs).toBeGreaterThan(0)
    expect(discover.body.result.instructions).toContain('UNKNOWN')
  })

  test('tools/list carries resultType, ttlMs and cacheScope, and every tool fully described in a fixed order', async () => {
    const first = await send('tools/list')
    expect(validate(V, 'ListToolsResultResponse', first.body)).toBeNull()
    const { result } = first.body
    expect(result).toMatchObject({ resultType: 'complete', cacheScope: 'public', ttlMs: 3_600_000 })
    for (const tool of result.tools) {
      expect(validate(V, 'Tool', tool)).toBeNull()
      expect(Object.keys(tool.annotations).length).toBe(4)
      expect(tool.outputSchema.type).toBe('object')
    }
    expect((await send('tools/list')).body.result.tools).toEqual(result.tools)
  })

  test('tools/call: a signed receipt with resultType and structuredContent; argument errors are tool errors; an unknown tool is -32602', async () => {
    const status = await send('tools/call', { name: 'get_market_status', arguments: { mic: 'XLON' } })
    expect(status.status).toBe(200)
    expect(validate(V, 'CallToolResultResponse', status.body)).toBeNull()
    expect(status.body.result.resultType).toBe('complete')
    const receipt = status.body.result.structuredContent
    expect(JSON.parse(status.body.result.content[0].text)).toEqual(receipt)
    expect(receipt).toMatchObject({ mic: 'XLON', receipt_mode: 'live' })
    expect(verifyWithRegistry(registry, receipt)).toBe(true)

    const bad = await send('tools/call', { name: 'get_market_calendar', arguments: { mic: 'XNYS', from: 'yesterday' } })
    expect(validate(V, 'CallToolResultResponse', bad.body)).toBeNull()
    expect(bad.body.result).toMatchObject({ isError: true, resultType: 'complete', structuredContent: { error: 'INVALID_FROM' } })
    const schemaError = await send('tools/call', { name: 'get_market_status', arguments: { market: 'XNYS' } })
    expect(schemaError.body.result).toMatchObject({ isError: true, structuredContent: { error: 'INVALID_ARGUMENTS' } })

    const unknown = await send('tools/call', { name: 'no_such_tool', arguments: {} })
    expect(unknown.status).toBe(200)
    expectModernError(unknown.body, -32602)
  })

  test('Mcp-Name may come Base64-encoded (the =?base64?…?= sentinel) and is compared after decoding', async () => {
    const encoded = `=?base64?${Buffer.from('list_exchanges').toString('base64')}?=`
    const answer = await send('tools/call', { name: 'list_exchanges', arguments: {} }, { headers: { 'mcp-name': encoded } })
    expect(answer.status).toBe(200)
    expect(answer.body.result.structuredContent.exchanges.length).toBeGreaterThan(40)
    const wrong = await send('tools/call', { name: 'list_exchanges', arguments: {} }, { headers: { 'mcp-name': `=?base64?${Buffer.from('verify_receipt').toString('base64')}?=` } })
    expect(wrong.status).toBe(400)
    expectModernError(wrong.body, -32020)
    const malformed = await send('tools/call', { name: 'list_exchanges', arguments: {} }, { headers: { 'mcp-name': '=?base64?%%%?=' } })
    expectModernError(malformed.body, -32020)
  })

  test('headers that are missing or do not match the body: 400 HeaderMismatch (-32020)', async () => {
    const cases: [string, Record<string, unknown>, Record<string, string | null>][] = [
      ['tools/list', {}, { 'mcp-method': null }],
      ['tools/list', {}, { 'mcp-method': 'tools/call' }],
      ['tools/call', { name: 'list_exchanges', arguments: {} }, { 'mcp-name': null }],
      ['tools/call', { name: 'list_exchanges', arguments: {} }, { 'mcp-name': 'get_market_status' }],
      ['tools/list', { _meta: meta() }, { 'mcp-protocol-version': null }],
      ['tools/list', { _meta: meta() }, { 'mcp-protocol-version': '2025-11-25' }],
    ]
    for (const [method, params, headers] of cases) {
      const answer = await send(method, params, { headers })
      expect([method, headers, answer.status]).toEqual([method, headers, 400])
      expect(validate(V, 'HeaderMismatchError', answer.body)).toBeNull()
      expectModernError(answer.body, -32020)
    }
  })

  test('an unsupported version gets UnsupportedProtocolVersionError (-32022) listing the versions served', async () => {
    for (const [header, version] of [['2099-01-01', '2099-01-01'], ['1900-01-01', '1900-01-01']] as const) {
      const answer = await send('tools/list', { _meta: meta(version) }, { headers: { 'mcp-protocol-version': header } })
      expect(answer.status).toBe(400)
      expect(validate(V, 'UnsupportedProtocolVersionError', answer.body)).toBeNull()
      expect(answer.body.error.data).toEqual({ supported: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'], requested: header })
      expect(answer.body.id).toBeNumber()
    }
  })

  test('a request missing a required _meta member is -32602 with HTTP 400', async () => {
    for (const partial of [{ 'io.modelcontextprotocol/protocolVersion': V }, { 'io.modelcontextprotocol/clientCapabilities': {} }, {}]) {
      const answer = await send('tools/list', { _meta: partial })
      expect(answer.status).toBe(400)
      expectModernError(answer.body, -32602)
    }
    const none = await send('tools/list', {}, { raw: JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/list' }) })
    expect(none.status).toBe(400)
    expectModernError(none.body, -32602)
  })

  test('initialize, ping and unknown methods are 404 with -32601; what cannot be parsed is 400 with no id member', async () => {
    for (const method of ['initialize', 'ping', 'resources/list', 'subscriptions/listen']) {
      const answer = await send(method)
      expect([method, answer.status]).toEqual([method, 404])
      expectModernError(answer.body, -32601)
    }
    const parse = await send('tools/list', {}, { raw: '{"jsonrpc":' })
    expect(parse.status).toBe(400)
    expect('id' in parse.body).toBe(false)
    expectModernError(parse.body, -32700)
    const batch = await send('tools/list', {}, { raw: JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta() } }]) })
    expect(batch.status).toBe(400)
    expectModernError(batch.body, -32600)
    const fractional = await send('tools/list', {}, { raw: JSON.stringify({ jsonrpc: '2.0', id: 1.5, method: 'tools/list', params: { _meta: meta() } }) })
    expect(fractional.status).toBe(400)
    expectModernError(fractional.body, -32600)
  })

  test('a notification is accepted with 202 and no body', async () => {
    const answer = await send('notifications/cancelled', { requestId: 1 }, { id: null })
    expect(answer.status).toBe(202)
    expect(answer.body).toBeNull()
  })

  test('the DNS-rebinding refusal is a valid error of this revision (no id)', async () => {
    const response = await t.app.handle(new Request('http://localhost/mcp', { method: 'POST', headers: { host: 'evil.example.com', origin: 'http://evil.example.com', 'content-type': 'application/json', 'mcp-protocol-version': V }, body: '{}' }))
    expect(response.status).toBe(403)
    const body = (await response.json()) as Record<string, unknown>
    expect(validate(V, 'JSONRPCErrorResponse', body)).toBeNull()
    expect('id' in body).toBe(false)
  })
})

describe('a version of the initialize era named in _meta', () => {
  test('is refused with -32022: those versions are served after initialize, not per request', async () => {
    const answer = await send('tools/list', { _meta: meta('2025-11-25') }, { headers: { 'mcp-protocol-version': '2025-11-25' } })
    expect(answer.status).toBe(400)
    expect(validate(V, 'UnsupportedProtocolVersionError', answer.body)).toBeNull()
    expect(answer.body.error.message).toContain('initialize')
  })
})
