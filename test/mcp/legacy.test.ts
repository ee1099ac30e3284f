// Clients of the initialize era keep working exactly as before 2026-07-28 was added: the answers
// captured before that work (test/fixtures/mcp/legacy-answers.json, by capture-legacy.ts) are
// replayed and compared, the only change being the full tool descriptions 2025-11-25 asked for;
// each message is valid under its own revision's published schema; and the official SDK client,
// several releases side by side, works against the same endpoint as a 2026-07-28 client.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Client as Client1322 } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport as Transport1322 } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { Client as Client1133 } from 'mcp-sdk-1-13/client/index.js'
import { StreamableHTTPClientTransport as Transport1133 } from 'mcp-sdk-1-13/client/streamableHttp.js'
import { Client as Client1102 } from 'mcp-sdk-1-10/client/index.js'
import { StreamableHTTPClientTransport as Transport1102 } from 'mcp-sdk-1-10/client/streamableHttp.js'
import fixture from '../fixtures/mcp/legacy-answers.json'
import { makeTestApp, type TestApp } from '../helpers/app'
import { SLOW_SETUP_MS } from '../helpers/process'
import { validate, type SchemaVersion } from '../helpers/mcp-schemas'
import { SUPPORTED_MICS } from '../../src/calendar/mics'

type Case = { version: string | null; request: string; status: number; answer: unknown }

/** What may move with the calendar data and the venue list, not with the protocol: a tool answer's JSON and the MIC list. */
function normalise(value: unknown, mics: readonly string[]): unknown {
  const text = JSON.stringify(value, (key, member) => {
    if (key === 'content' && Array.isArray(member)) return member.map((block: { type: string; text: string }) => ({ type: block.type, text: typeof JSON.parse(block.text) }))
    if (key === 'structuredContent') return '<the text, parsed>'
    return member
  })
  return JSON.parse(text.replaceAll(mics.join(', '), '<MICS>').replaceAll(`${mics.length} exchanges`, '<N> exchanges'))
}

/**
 * The one addition since the capture: verify_receipt's optional `proof` argument (issue 36) and the
 * sentence saying what it does. Optional and additive, so a legacy client's calls answer as before;
 * taken out here so that everything else still has to be unchanged.
 */
function withoutProofArgument(answer: any): any {
  const tools = answer?.result?.tools
  if (!Array.isArray(tools)) return answer
  const strip = (tool: any) => {
    if (tool.name !== 'verify_receipt') return tool
    const { proof: _proof, ...properties } = tool.inputSchema.properties
    return { ...tool, description: tool.description.replace(/; with its tlog-proof .*$/, '.'), inputSchema: { ...tool.inputSchema, properties } }
  }
  return { ...answer, result: { ...answer.result, tools: tools.map(strip) } }
}

const CAPTURED_MICS = (() => {
  const list = (fixture.cases as Case[]).find((entry) => JSON.stringify(entry.answer).includes('one of XNYS'))!
  const match = /one of (X[A-Z]{3}(?:, X[A-Z]{3})*); default/.exec(JSON.stringify(list.answer))!
  return match[1]!.split(', ')
})()

describe('initialize-era answers are unchanged', () => {
  const t = makeTestApp({ env: { MCP_ANON_DAILY_LIMIT: '50' } })

  test('every captured request answers as it did (2025-11-25 tools/list: plus annotations and outputSchema)', async () => {
    let compared = 0
    for (const entry of fixture.cases as Case[]) {
      if (entry.version !== null && !['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'].includes(entry.version)) continue
      const headers: Record<string, string> = { 'content-type': 'application/json', 'cf-connecting-ip': '203.0.113.9' }
      if (entry.version) headers['mcp-protocol-version'] = entry.version
      const response = await t.request('/mcp', { method: 'POST', headers, body: entry.request })
      const text = await response.text()
      let answer = withoutProofArgument(text ? JSON.parse(text) : null)
      if (entry.version === '2025-11-25' && answer?.result?.tools) {
        for (const tool of answer.result.tools) {
          expect(Object.keys(tool)).toEqual(['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations'])
        }
        answer = { ...answer, result: { tools: answer.result.tools.map(({ outputSchema: _o, annotations: _a, ...rest }: Record<string, unknown>) => rest) } }
      }
      expect({ request: entry.request, version: entry.version, status: response.status, answer: normalise(answer, SUPPORTED_MICS) }).toEqual({
        request: entry.request,
        version: entry.version,
        status: entry.status,
        answer: normalise(entry.answer, CAPTURED_MICS),
      })
      compared++
    }
    expect(compared).toBe(80)
  })

  test("each version's answers are valid under its own published schema (id null only where JSON-RPC requires it)", async () => {
    const versions: SchemaVersion[] = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25']
    for (const version of versions) {
      const send = async (message: object) => {
        const response = await t.request('/mcp', { method: 'POST', headers: { 'content-type': 'application/json', 'mcp-protocol-version': version, 'cf-connecting-ip': '203.0.113.10' }, body: JSON.stringify(message) })
        return (await response.json()) as Record<string, any>
      }
      const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'schema-check', version: '1' } } }
      expect(validate(version, 'InitializeRequest', initialize)).toBeNull()
      const init = await send(initialize)
      expect(init.result.protocolVersion).toBe(version)
      expect(validate(version, 'JSONRPCResponse', init)).toBeNull()
      expect(validate(version, 'InitializeResult', init.result)).toBeNull()
      const list = await send({ jsonrpc: '2.0', id: 2, method: 'tools/list' })
      expect(validate(version, 'ListToolsResult', list.result)).toBeNull()
      const calls: [string, object][] = [['get_market_status', { mic: 'XNYS' }], ['get_market_schedule', { mic: 'XHKG' }], ['get_market_calendar', { mic: 'XLON' }], ['list_exchanges', {}], ['get_payment_options', {}], ['verify_receipt', { receipt: {} }], ['get_market_status', { mic: 'XXXX' }], ['get_market_calendar', { from: 'soon' }]]
      for (const [name, args] of calls) {
        const request = { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name, arguments: args } }
        expect(validate(version, 'CallToolRequest', request)).toBeNull()
        const answer = await send(request)
        expect(validate(version, 'JSONRPCResponse', answer)).toBeNull()
        expect(validate(version, 'CallToolResult', answer.result)).toBeNull()
      }
      const unknown = await send({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'nope', arguments: {} } })
      expect(validate(version, version === '2025-11-25' ? 'JSONRPCErrorResponse' : 'JSONRPCError', unknown)).toBeNull()
    }
  })
})

describe('the official SDK client, three releases, beside a 2026-07-28 client on one endpoint', () => {
  let t: TestApp
  let url: URL
  beforeAll(() => {
    t = makeTestApp({ env: { MCP_ANON_DAILY_LIMIT: '50' } })
    t.app.listen({ port: 0, hostname: '127.0.0.1' })
    url = new URL(`http://127.0.0.1:${t.app.server!.port}/mcp`)
  }, SLOW_SETUP_MS)
  afterAll(async () => {
    await t.app.stop(true)
  })

  const clients = [
    { release: '1.32.2', expected: '2025-11-25', make: () => [new Client1322({ name: 'sdk-1.32.2', version: '1' }), new Transport1322(url)] as const },
    { release: '1.13.3', expected: '2025-06-18', make: () => [new Client1133({ name: 'sdk-1.13.3', version: '1' }), new Transport1133(url)] as const },
    { release: '1.10.2', expected: '2024-11-05', make: () => [new Client1102({ name: 'sdk-1.10.2', version: '1' }), new Transport1102(url)] as const },
  ]

  for (const { release, expected, make } of clients) {
    test(`SDK ${release} negotiates ${expected}, lists the tools and gets a receipt`, async () => {
      const [client, transport] = make()
      await client.connect(transport as never)
      // 1.10.2 keeps no negotiated version (and sends no MCP-Protocol-Version header): 2024-11-05 is its latest.
      expect((transport as { protocolVersion?: string }).protocolVersion ?? '2024-11-05').toBe(expected)
      const { tools } = await client.listTools()
      expect(tools.map((tool: { name: string }) => tool.name)).toContain('get_market_calendar')
      expect(tools.some((tool: object) => 'outputSchema' in tool)).toBe(expected >= '2025-11-25')
      const result = (await client.callTool({ name: 'get_market_status', arguments: { mic: 'XNYS' } })) as { content: { text: string }[]; structuredContent?: unknown; isError?: boolean }
      expect(result.isError).toBeFalsy()
      expect(JSON.parse(result.content[0]!.text)).toMatchObject({ mic: 'XNYS', receipt_mode: 'live' })
      expect(result.structuredContent !== undefined).toBe(expected >= '2025-06-18')
      const failed = (await client.callTool({ name: 'get_market_status', arguments: { mic: 'XXXX' } })) as { isError?: boolean }
      expect(failed.isError).toBe(true)
      // A 2026-07-28 request on the same endpoint in between.
      const modern = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'server/discover' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } }) })
      expect(modern.status).toBe(200)
      expect((await client.listTools()).tools.length).toBe(tools.length)
      await client.close()
    })
  }
})
