// Issue 30: with a bearer token, /mcp had no message rate on any tool but get_market_status, and
// nothing bounded a key's outstanding work (150 non-reading connections of one token sending
// 100-element get_market_calendar batches grew the process by 281 MB for 10 s). Now every message
// of a key counts against MCP_KEY_RATE_PER_MINUTE, and one caller has at most MCP_MAX_OUTSTANDING
// messages being answered at once; both refusals are 429 with the spec's error object, nothing run.
import { describe, expect, test } from 'bun:test'
import { makeTestApp, type TestApp } from '../helpers/app'
import { issueKey } from '../../src/accounts/keys'
import { MCP_MAX_OUTSTANDING } from '../../src/mcp/limits'

const RATE = 250

async function bearer(t: TestApp): Promise<string> {
  const { key } = await issueKey(t.deps.accounts, { plan: 'free', now: new Date(t.clock.now()) })
  const token = await t.json('/oauth/token', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `grant_type=client_credentials&client_id=${key}` })
  expect(token.status).toBe(200)
  return token.body.access_token as string
}

const calendarCall = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'get_market_calendar', arguments: { mic: 'XLON' } } })
const batchOf = (n: number, make: (id: number) => unknown = calendarCall) => Array.from({ length: n }, (_, i) => make(i + 1))

const send = async (t: TestApp, body: unknown, headers: Record<string, string>) => {
  const response = await t.request('/mcp', { method: 'POST', headers: { 'content-type': 'application/json', 'mcp-protocol-version': '2025-11-25', ...headers }, body: JSON.stringify(body) })
  return { status: response.status, headers: response.headers, body: (await response.json()) as any }
}

describe('message rate per key', () => {
  const t = makeTestApp({ env: { MCP_KEY_RATE_PER_MINUTE: String(RATE), FREE_DAILY_LIMIT: '100000' } })

  test('every tool counts: batches of get_market_calendar past the minute are refused whole with 429 RATE_LIMITED, nothing run', async () => {
    const token = await bearer(t)
    const auth = { authorization: `Bearer ${token}` }
    expect((await send(t, batchOf(100), auth)).status).toBe(200)
    expect((await send(t, batchOf(100), auth)).status).toBe(200)
    const before = t.log.lines.length
    const refused = await send(t, batchOf(100), auth)
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/)
    expect(refused.headers.get('x-ratelimit-limit')).toBe(String(RATE))
    expect(refused.body).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32000, message: expect.stringContaining(`${RATE} messages a minute`), data: { error: 'RATE_LIMITED', message: expect.any(String), retry_after_seconds: expect.any(Number) } } })
    // A single message of any tool is refused too until the next minute…
    expect((await send(t, { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'list_exchanges', arguments: {} } }, auth)).status).toBe(429)
    expect(t.log.lines.slice(before).some((line) => line.msg === 'tool endpoint: internal error')).toBe(false)
    // …and it is the key's rate: another key and anonymous callers are not affected.
    expect((await send(t, batchOf(50), { authorization: `Bearer ${await bearer(t)}` })).status).toBe(200)
    expect((await send(t, calendarCall(1), { 'cf-connecting-ip': '198.51.100.4' })).status).toBe(200)
    t.clock.advance(60_000)
    expect((await send(t, batchOf(100), auth)).status).toBe(200)
  })

  test('a 2026-07-28 request over the rate gets the same error without an id member (that revision forbids id null)', async () => {
    const token = await bearer(t)
    const auth = { authorization: `Bearer ${token}` }
    for (let i = 0; i < 2; i++) expect((await send(t, batchOf(125), auth)).status).toBe(400) // over MCP_MAX_BATCH: refused, not counted
    expect((await send(t, batchOf(100), auth)).status).toBe(200)
    expect((await send(t, batchOf(100), auth)).status).toBe(200)
    const headers = { ...auth, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' }
    const message = { jsonrpc: '2.0', id: 'x', method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } }
    const over = await send(t, message, headers)
    expect(over.status).toBe(200) // 201st message: still in the minute (250)
    for (let i = 0; i < 49; i++) await send(t, message, headers)
    const refused = await send(t, message, headers)
    expect(refused.status).toBe(429)
    expect('id' in refused.body).toBe(false)
    expect(refused.body.error.data.error).toBe('RATE_LIMITED')
  })
})

describe('outstanding messages per caller', () => {
  const t = makeTestApp({ env: { FREE_DAILY_LIMIT: '100000' } })

  test('while a batch of one key is being answered, its further messages are refused 429 TOO_MANY_OUTSTANDING; other callers are answered; the place comes back', async () => {
    const token = await bearer(t)
    const auth = { authorization: `Bearer ${token}` }
    // Hold the first status receipt's audit commit: the batch stays outstanding until released.
    const append = t.deps.audit.append.bind(t.deps.audit)
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    t.deps.audit.append = async (rows) => {
      await gate
      return append(rows)
    }
    try {
      const status = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'get_market_status', arguments: { mic: 'XNYS' } } })
      const held = send(t, batchOf(MCP_MAX_OUTSTANDING, status), auth)
      await Bun.sleep(50)
      const refused = await send(t, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, auth)
      expect(refused.status).toBe(429)
      expect(refused.headers.get('retry-after')).toBe('1')
      expect(refused.body.error).toMatchObject({ code: -32000, data: { error: 'TOO_MANY_OUTSTANDING', limit: MCP_MAX_OUTSTANDING, retry_after_seconds: 1 } })
      // Another key, and an anonymous address, have their own places.
      expect((await send(t, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { authorization: `Bearer ${await bearer(t)}` })).status).toBe(200)
      expect((await send(t, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { 'cf-connecting-ip': '198.51.100.5' })).status).toBe(200)
      release()
      const answered = await held
      expect(answered.status).toBe(200)
      expect(answered.body).toHaveLength(MCP_MAX_OUTSTANDING)
      expect(answered.body.every((answer: any) => answer.result && !answer.result.isError)).toBe(true)
    } finally {
      release()
      t.deps.audit.append = append
    }
    expect((await send(t, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, auth)).status).toBe(200)
  })
})
