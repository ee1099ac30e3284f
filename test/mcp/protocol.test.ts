// Raw JSON-RPC against /mcp: everything the SDK never sends, the anonymous allowance and usage counts.
import { describe, expect, test } from 'bun:test'
import { makeTestApp, type TestApp } from '../helpers/app'
import { MCP_MAX_BODY_BYTES, MCP_MAX_DEPTH } from '../../src/mcp/routes'
import { AnonymousAllowance } from '../../src/mcp/allowance'
import { Signer } from '../../src/crypto/signer'
import { SUPPORTED_MICS } from '../../src/calendar/mics'

const post = (t: TestApp, body: string, headers: Record<string, string> = {}) =>
  t.request('/mcp', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body })
const rpc = async (t: TestApp, message: unknown, headers: Record<string, string> = {}) => {
  const response = await post(t, JSON.stringify(message), headers)
  const text = await response.text()
  return { status: response.status, headers: response.headers, text, body: text ? JSON.parse(text) : null }
}
const call = (id: number, name: string, args: Record<string, unknown> = {}) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } })

describe('JSON-RPC framing', () => {
  const t = makeTestApp()

  test('a body that is not JSON is a parse error with id null', async () => {
    const response = await post(t, '{"jsonrpc": "2.0", "id": 1,')
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.any(String) } })
  })

  test('invalid requests: wrong jsonrpc, no method, non-object params, bad id type', async () => {
    const cases: [unknown, unknown][] = [
      [{ jsonrpc: '1.0', id: 1, method: 'ping' }, 1],
      [{ jsonrpc: '2.0', id: 2 }, 2],
      [{ jsonrpc: '2.0', id: 3, method: 'ping', params: [1] }, 3],
      [{ jsonrpc: '2.0', id: { x: 1 }, method: 'ping' }, null],
      ['ping', null],
    ]
    for (const [message, id] of cases) {
      const { status, body } = await rpc(t, message)
      expect(status).toBe(200)
      expect(body.id).toBe(id)
      expect(body.error.code).toBe(-32600)
    }
  })

  test('ping answers {}, an unknown method is -32601, a missing tool name is -32602', async () => {
    expect((await rpc(t, { jsonrpc: '2.0', id: 'a', method: 'ping' })).body).toEqual({ jsonrpc: '2.0', id: 'a', result: {} })
    expect((await rpc(t, { jsonrpc: '2.0', id: 2, method: 'resources/list' })).body.error.code).toBe(-32601)
    expect((await rpc(t, { jsonrpc: '2.0', id: 3, method: 'tools/call', params: {} })).body.error.code).toBe(-32602)
    expect((await rpc(t, call(4, 'get_market_status', { mic: 7 }))).body.error.code).toBe(-32602)
  })

  test('arguments that are not an object (null included) are -32602; a failure inside a tool that is not the spec\'s error object is -32603 with nothing leaked', async () => {
    for (const args of [null, [], 'XNYS']) {
      for (const version of ['2025-06-18', '2025-11-25']) {
        const { body } = await rpc(t, { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'list_exchanges', arguments: args } }, { 'mcp-protocol-version': version })
        expect(body.error.code).toBe(-32602)
      }
    }
    const calendars = t.deps.calendars
    t.deps.calendars = Object.assign(Object.create(calendars), {
      snapshot: () => {
        throw new Error('disk I/O error at /secret/path')
      },
    })
    try {
      const { status, body } = await rpc(t, [call(6, 'list_exchanges'), { jsonrpc: '2.0', id: 7, method: 'ping' }])
      expect(status).toBe(200)
      expect(body[0]).toEqual({ jsonrpc: '2.0', id: 6, error: { code: -32603, message: 'internal error' } })
      // One failing request does not take the rest of the batch with it.
      expect(body[1]).toEqual({ jsonrpc: '2.0', id: 7, result: {} })
      expect(t.log.lines.some((line) => line.msg === 'tool endpoint: internal error')).toBe(true)
    } finally {
      t.deps.calendars = calendars
    }
  })

  test('arguments that fail the schema: -32602 up to 2025-06-18 (and without a version header), an isError result from 2025-11-25', async () => {
    const bad = call(8, 'get_market_status', { mic: 7 })
    for (const headers of [{}, { 'mcp-protocol-version': '2025-06-18' }] as Record<string, string>[]) expect((await rpc(t, bad, headers)).body.error.code).toBe(-32602)
    const { body } = await rpc(t, bad, { 'mcp-protocol-version': '2025-11-25' })
    expect(body.error).toBeUndefined()
    expect(body.result.isError).toBe(true)
    expect(body.result.structuredContent).toMatchObject({ error: 'INVALID_ARGUMENTS' })
    // An unknown tool is a protocol error in every version.
    expect((await rpc(t, call(9, 'nope'), { 'mcp-protocol-version': '2025-11-25' })).body.error.code).toBe(-32602)
  })

  test('initialize echoes each supported version and answers 2024-11-05 to any other', async () => {
    for (const version of ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25']) {
      const { body } = await rpc(t, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'c', version: '1' } } })
      expect(body.result.protocolVersion).toBe(version)
      expect(body.result.capabilities).toEqual({ tools: { listChanged: false } })
      expect(body.result.serverInfo.name).toBe('openbell')
    }
    // Stateless: no session is issued, so a client never has to send or resume one.
    const { headers } = await rpc(t, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } } })
    expect(headers.get('mcp-session-id')).toBeNull()
    const { body } = await rpc(t, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2099-01-01', capabilities: {}, clientInfo: { name: 'c', version: '1' } } })
    expect(body.result.protocolVersion).toBe('2024-11-05')
  })

  test('notifications and client responses get 202 with no body; so does a batch of only notifications', async () => {
    for (const message of [{ jsonrpc: '2.0', method: 'notifications/initialized' }, { jsonrpc: '2.0', id: 9, result: {} }, [{ jsonrpc: '2.0', method: 'notifications/initialized' }, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } }]]) {
      const { status, text } = await rpc(t, message)
      expect(status).toBe(202)
      expect(text).toBe('')
    }
  })

  test('a batch is answered as an array in order, skipping notifications; an empty batch is invalid', async () => {
    const { status, body } = await rpc(t, [{ jsonrpc: '2.0', id: 1, method: 'ping' }, { jsonrpc: '2.0', method: 'notifications/initialized' }, call(2, 'list_exchanges'), { jsonrpc: '2.0', id: 3, method: 'nope' }])
    expect(status).toBe(200)
    expect(body.map((answer: { id: number }) => answer.id)).toEqual([1, 2, 3])
    expect(body[1].result.content[0].type).toBe('text')
    expect(body[2].error.code).toBe(-32601)
    expect((await rpc(t, [])).body.error.code).toBe(-32600)
  })

  test('structuredContent only for clients that declare 2025-06-18 or later', async () => {
    const old = await rpc(t, call(1, 'list_exchanges'), { 'mcp-protocol-version': '2025-03-26' })
    expect(old.body.result.structuredContent).toBeUndefined()
    const recent = await rpc(t, call(1, 'list_exchanges'), { 'mcp-protocol-version': '2025-06-18' })
    expect(recent.body.result.structuredContent.exchanges).toHaveLength(SUPPORTED_MICS.length)
    const bad = await rpc(t, call(1, 'list_exchanges'), { 'mcp-protocol-version': '1999-01-01' })
    expect(bad.status).toBe(400)
    // UnsupportedProtocolVersionError (2026-07-28): the versions served, and what was asked; no id null.
    expect(bad.body.error.code).toBe(-32022)
    expect(bad.body.error.data).toEqual({ supported: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'], requested: '1999-01-01' })
    expect(bad.body.id).toBe(1)
  })

  test('oversized, deeply nested and non-JSON content types are refused clearly', async () => {
    const big = await post(t, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(MCP_MAX_BODY_BYTES) } }))
    expect(big.status).toBe(413)
    expect(((await big.json()) as any).error.code).toBe(-32600)
    const deep = await post(t, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { a: JSON.parse('['.repeat(MCP_MAX_DEPTH + 2) + ']'.repeat(MCP_MAX_DEPTH + 2)) } }))
    expect(deep.status).toBe(400)
    expect(((await deep.json()) as any).error).toMatchObject({ code: -32600, message: expect.stringContaining('nested') })
    const plain = await t.request('/mcp', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' })
    expect(plain.status).toBe(415)
  })

  test('GET, DELETE, PUT and PATCH answer 405 with Allow: POST; OPTIONS is a CORS preflight', async () => {
    for (const method of ['GET', 'DELETE', 'PUT', 'PATCH']) {
      const response = await t.request('/mcp', { method })
      expect(response.status).toBe(405)
      expect(response.headers.get('allow')).toContain('POST')
      expect(response.headers.get('allow')).not.toContain('GET')
    }
    // The service's own pages (and CORS_ALLOWED_ORIGINS) only: other origins are refused (rebinding.test.ts).
    const preflight = await t.request('/mcp', { method: 'OPTIONS', headers: { origin: 'https://oracle.test', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, mcp-protocol-version, authorization' } })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://oracle.test')
    expect(preflight.headers.get('access-control-allow-headers')).toContain('mcp-protocol-version')
    const foreign = await t.request('/mcp', { method: 'OPTIONS', headers: { origin: 'https://agent.example', 'access-control-request-method': 'POST' } })
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull()
  })
})

describe('anonymous allowance and usage counts', () => {
  test('exactly the daily limit of anonymous status calls succeeds under a concurrent burst, per address and day', async () => {
    const t = makeTestApp({ env: { MCP_ANON_DAILY_LIMIT: '10', CLIENT_IP_HEADER: 'x-test-ip' } })
    const burst = await Promise.all(Array.from({ length: 40 }, (_, i) => rpc(t, call(i, 'get_market_status', { mic: 'XNYS' }), { 'x-test-ip': '203.0.113.7' })))
    const ok = burst.filter((answer) => !answer.body.result.isError)
    const refused = burst.filter((answer) => answer.body.result.isError)
    expect(ok).toHaveLength(10)
    expect(refused).toHaveLength(30)
    // Each receipt answered is in the audit log (anonymous: a client reference, no key); refused calls are not.
    const logged = t.db.query("SELECT receipt_id, client_ref, key_hash FROM audit_log WHERE surface = '/mcp:get_market_status'").all() as { receipt_id: string; client_ref: string; key_hash: null }[]
    expect(logged.map((row) => row.receipt_id).sort()).toEqual(ok.map((answer) => JSON.parse(answer.body.result.content[0].text).receipt_id).sort())
    expect(new Set(logged.map((row) => row.client_ref)).size).toBe(1)
    expect(logged[0]!.client_ref).toStartWith('anon:')
    expect(JSON.parse(refused[0]!.body.result.content[0].text)).toMatchObject({ error: 'ANONYMOUS_LIMIT_REACHED' })
    // Schedules stay free; another address has its own allowance; a new UTC day starts afresh.
    expect((await rpc(t, call(1, 'get_market_schedule'), { 'x-test-ip': '203.0.113.7' })).body.result.isError).toBeUndefined()
    expect((await rpc(t, call(1, 'get_market_status'), { 'x-test-ip': '198.51.100.1' })).body.result.isError).toBeUndefined()
    t.clock.advance(24 * 3600_000)
    expect((await rpc(t, call(1, 'get_market_status'), { 'x-test-ip': '203.0.113.7' })).body.result.isError).toBeUndefined()
  })

  test('a status call that signs nothing (signer offline) does not use the anonymous allowance', async () => {
    const t = makeTestApp({ signer: Signer.offline('test: key file unreadable'), env: { MCP_ANON_DAILY_LIMIT: '2', CLIENT_IP_HEADER: 'x-test-ip' } })
    for (let i = 0; i < 4; i++) {
      const { body } = await rpc(t, call(i, 'get_market_status', { mic: 'XNYS' }), { 'x-test-ip': '203.0.113.8' })
      expect(body.result.isError).toBe(true)
      expect(JSON.parse(body.result.content[0].text)).toMatchObject({ error: 'CRITICAL_FAILURE' })
    }
    // The whole allowance is still there once signing is back.
    const hash = await t.deps.mcpUsage.clientHash('203.0.113.8')
    expect(await Promise.all([t.deps.mcpAllowance.take(hash, 2), t.deps.mcpAllowance.take(hash, 2), t.deps.mcpAllowance.take(hash, 2)])).toEqual([true, true, false])
  })

  test('used allowance survives a restart once written behind (a new allowance over the same store)', async () => {
    const t = makeTestApp({ env: { MCP_ANON_DAILY_LIMIT: '3', CLIENT_IP_HEADER: 'x-test-ip' } })
    for (let i = 0; i < 2; i++) await rpc(t, call(i, 'get_market_status'), { 'x-test-ip': '203.0.113.9' })
    await t.deps.mcpAllowance.flush()
    const restarted = new AnonymousAllowance(t.deps.mcpStore, t.clock, t.log)
    const hash = await t.deps.mcpUsage.clientHash('203.0.113.9')
    expect(await Promise.all([restarted.take(hash, 3), restarted.take(hash, 3)])).toEqual([true, false])
  })

  test('requests and distinct clients today are counted from salted hashes; no address is stored', async () => {
    const t = makeTestApp({ env: { CLIENT_IP_HEADER: 'x-test-ip' } })
    for (const ip of ['192.0.2.1', '192.0.2.1', '192.0.2.2']) await rpc(t, { jsonrpc: '2.0', id: 1, method: 'ping' }, { 'x-test-ip': ip })
    await rpc(t, [{ jsonrpc: '2.0', id: 1, method: 'ping' }, { jsonrpc: '2.0', id: 2, method: 'ping' }], { 'x-test-ip': '192.0.2.3' })
    expect(await t.deps.mcpUsage.today()).toEqual({ requests: 5, clients: 3 })
    const stored = JSON.stringify(t.db.query('SELECT * FROM mcp_daily_clients').all())
    expect(stored).not.toContain('192.0.2')
    t.clock.advance(24 * 3600_000)
    expect(await t.deps.mcpUsage.today()).toEqual({ requests: 0, clients: 0 })
  })
})
