// /mcp amplification (issue 24 item 1): one anonymous 256 KiB batch of 5,577 tools/list calls
// answered 12.7 MB, and 40 connections that sent it without reading held about 1 GB. Batches are
// capped, answers are capped, anonymous callers are rate-limited per address (per HTTP request and
// per batch element), an answer a client does not take is dropped with its connection, and the
// usage figures count messages that were answered, a batch as one client.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { makeTestApp, type TestApp } from '../helpers/app'
import { dispatchBody } from '../../src/mcp/dispatch'
import { MCP_MAX_BATCH, MCP_MAX_RESPONSE_BYTES } from '../../src/mcp/limits'
import { loadConfig } from '../../src/config'
import { issueKey } from '../../src/accounts/keys'
import { API_VERSION } from '../../src/version'
import { answerResponse, STREAM_THRESHOLD_BYTES } from '../../src/mcp/send'

/** The default anonymous rate (MCP_ANON_RATE_PER_MINUTE unset). */
const MCP_ANON_RATE_DEFAULT = loadConfig({}).mcp.anonymousRatePerMinute

const TOOLS_LIST = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/list' })
const STATUS = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'get_market_status', arguments: { mic: 'XNYS' } } })
/** The reported body: as many tools/list calls as fit in 256 KiB (5,577). */
const reportedBatch = () => {
  const one = TOOLS_LIST(1)
  return Array<typeof one>(Math.floor((256 * 1024 - 2) / (JSON.stringify(one).length + 1))).fill(one)
}

async function post(t: TestApp, body: unknown, address = '192.0.2.10', headers: Record<string, string> = {}) {
  const response = await t.request('/mcp', { method: 'POST', headers: { 'content-type': 'application/json', 'cf-connecting-ip': address, ...headers }, body: JSON.stringify(body) })
  const text = await response.text()
  return { status: response.status, headers: response.headers, bytes: Buffer.byteLength(text), body: text ? JSON.parse(text) : null }
}

const auditRows = (t: TestApp) => t.deps.audit.flush().then(() => (t.db.query('SELECT COUNT(*) AS n FROM audit_log').get() as { n: number }).n)

describe('batch length', () => {
  test(`the cap is a few hundred at most (${MCP_MAX_BATCH}); a batch at the cap is answered in full`, async () => {
    expect(MCP_MAX_BATCH).toBeGreaterThanOrEqual(10)
    expect(MCP_MAX_BATCH).toBeLessThanOrEqual(300)
    const t = makeTestApp({ env: { MCP_ANON_RATE_PER_MINUTE: '100000' } })
    const answer = await post(t, Array.from({ length: MCP_MAX_BATCH }, (_, i) => TOOLS_LIST(i)))
    expect(answer.status).toBe(200)
    expect(answer.body).toHaveLength(MCP_MAX_BATCH)
  })

  test('the reported 5,577-call batch gets one -32600 error, a few hundred bytes, and nothing is run', async () => {
    const t = makeTestApp({ env: { MCP_ANON_RATE_PER_MINUTE: '100000' } })
    const batch = reportedBatch()
    expect(batch.length).toBe(5577)
    const answer = await post(t, batch)
    expect(answer.status).toBe(400)
    expect(answer.body).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringContaining(String(MCP_MAX_BATCH)) } })
    expect(answer.bytes).toBeLessThan(1024)
    // One past the cap, of status calls: not one of them is signed or logged.
    const before = await auditRows(t)
    const over = await post(t, Array.from({ length: MCP_MAX_BATCH + 1 }, (_, i) => STATUS(i)))
    expect(over.body.error.code).toBe(-32600)
    expect(await auditRows(t)).toBe(before)
  })
})

describe('answer size', () => {
  test("docs/mcp.md's figures for the largest answer and a batch at the cap are today's sizes (within 10%)", async () => {
    const t = makeTestApp({ env: { MCP_ANON_RATE_PER_MINUTE: '100000' } })
    const one = (await post(t, TOOLS_LIST(1))).bytes
    const batch = (await post(t, Array.from({ length: MCP_MAX_BATCH }, (_, i) => TOOLS_LIST(i)))).bytes
    const documented = readFileSync(new URL('../../docs/mcp.md', import.meta.url), 'utf8')
    const claim = /largest answer of any tool is about ([\d.]+) KB \(`tools\/list`\): a batch at the cap answers about (\d+) KB/.exec(documented)
    expect(claim).not.toBeNull()
    const near = (measured: number, claimedKb: number) => Math.abs(measured / 1000 - claimedKb) / claimedKb <= 0.1
    expect({ one, batch, near: [near(one, Number(claim![1])), near(batch, Number(claim![2]))] }).toEqual({ one, batch, near: [true, true] })
    expect(documented).toContain(`about ${claim![2]} KB at the batch cap`)
  })

  test('a batch at the cap of the largest answers stays within 2 MiB', async () => {
    const t = makeTestApp({ env: { MCP_ANON_RATE_PER_MINUTE: '100000' } })
    const largest = Array.from({ length: MCP_MAX_BATCH }, (_, i) => (i % 2 ? TOOLS_LIST(i) : { jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'get_payment_options', arguments: {} } }))
    const answer = await post(t, largest)
    expect(answer.status).toBe(200)
    expect(answer.bytes).toBeLessThanOrEqual(MCP_MAX_RESPONSE_BYTES)
    expect(MCP_MAX_RESPONSE_BYTES).toBe(2 * 1024 * 1024)
  })

  test('past the byte budget the remaining elements are answered with a limit error and not run', async () => {
    const t = makeTestApp()
    let issued = 0
    // Status calls answering about 3 KB each, against a budget of 100 KiB.
    const caller = {
      async admitStatusCall() {},
      async issueLiveReceipt() {
        issued++
        return { status: 'OPEN', padding: 'x'.repeat(3000) }
      },
    }
    const batch = Array.from({ length: 40 }, (_, i) => STATUS(i))
    const budget = 100 * 1024
    const outcome = await dispatchBody(batch, { deps: t.deps, caller, era: { kind: 'legacy', version: null }, serverVersion: API_VERSION }, budget)
    if (outcome.status === 202) throw new Error('expected answers')
    expect(Buffer.byteLength(outcome.text)).toBeLessThanOrEqual(budget)
    const answers = JSON.parse(outcome.text) as { id: number; result?: unknown; error?: { code: number; data: { error: string } } }[]
    expect(answers.map((answer) => answer.id)).toEqual(batch.map((message) => message.id))
    const limited = answers.filter((answer) => answer.error?.data?.error === 'RESPONSE_TOO_LARGE')
    expect(limited.length).toBeGreaterThan(0)
    expect(limited.every((answer) => answer.error!.code === -32000)).toBe(true)
    // Only the elements that were answered were run: nothing was issued and then dropped.
    expect(issued).toBe(answers.filter((answer) => answer.result).length)
    expect(issued + limited.length).toBe(40)
  })
})

describe('anonymous request rate per address', () => {
  test(`a steady anonymous client meets 429 with Retry-After after ${MCP_ANON_RATE_DEFAULT} messages a minute, long before 3,000`, async () => {
    expect(MCP_ANON_RATE_DEFAULT).toBeLessThan(3000)
    const t = makeTestApp()
    let first429 = 0
    for (let n = 1; n <= 3000; n++) {
      const answer = await post(t, TOOLS_LIST(n), '198.51.100.7')
      if (answer.status === 429) {
        first429 = n
        expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0)
        expect(answer.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000, data: { error: 'RATE_LIMITED' } } })
        break
      }
      expect(answer.status).toBe(200)
    }
    expect(first429).toBe(MCP_ANON_RATE_DEFAULT + 1)
    // Another address is not affected; the same one is again after the minute.
    expect((await post(t, TOOLS_LIST(1), '198.51.100.8')).status).toBe(200)
    t.clock.advance(60_000)
    expect((await post(t, TOOLS_LIST(1), '198.51.100.7')).status).toBe(200)
  })

  test('each batch element counts: a batch that would pass the rate is refused whole, without running', async () => {
    const t = makeTestApp()
    const full = await post(t, Array.from({ length: MCP_MAX_BATCH }, (_, i) => TOOLS_LIST(i)), '198.51.100.9')
    expect(full.status).toBe(200)
    const rest = MCP_ANON_RATE_DEFAULT - MCP_MAX_BATCH
    const before = await auditRows(t)
    const over = await post(t, Array.from({ length: rest + 1 }, (_, i) => STATUS(i)), '198.51.100.9')
    expect(over.status).toBe(429)
    expect(await auditRows(t)).toBe(before)
  })

  test('a caller with a bearer token is metered by its key, not by the anonymous rate', async () => {
    const t = makeTestApp()
    const { key } = await issueKey(t.deps.accounts, { plan: 'pro', now: new Date(t.clock.now()) })
    const token = await t.json('/oauth/token', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `grant_type=client_credentials&client_id=${key}` })
    const headers = { authorization: `Bearer ${token.body.access_token}` }
    for (let n = 0; n < MCP_ANON_RATE_DEFAULT + 5; n++) expect((await post(t, TOOLS_LIST(n), '198.51.100.10', headers)).status).toBe(200)
  })
})

describe('usage figures', () => {
  test('a batch of N is one client and N requests; refused requests count nothing', async () => {
    const t = makeTestApp({ env: { MCP_ANON_RATE_PER_MINUTE: '100000' } })
    expect((await post(t, Array.from({ length: 50 }, (_, i) => TOOLS_LIST(i)), '203.0.113.5')).status).toBe(200)
    expect((await post(t, reportedBatch(), '203.0.113.6')).status).toBe(400)
    const metrics = (await t.json('/v5/metrics')).body
    const traction = (await t.json('/v5/traction')).body
    expect({ requests: metrics.total_mcp_requests_today, clients: metrics.unique_mcp_clients_today }).toEqual({ requests: 50, clients: 1 })
    expect({ requests: traction.mcp_requests_today, clients: traction.unique_mcp_clients_today }).toEqual({ requests: 50, clients: 1 })
  })

  test('requests refused by the rate count nothing', async () => {
    const t = makeTestApp({ env: { MCP_ANON_RATE_PER_MINUTE: '3' } })
    for (let n = 0; n < 5; n++) await post(t, TOOLS_LIST(n), '203.0.113.7')
    expect((await t.json('/v5/metrics')).body).toMatchObject({ total_mcp_requests_today: 3, unique_mcp_clients_today: 1 })
  })
})

describe('an answer the client does not take', () => {
  test('up to 64 KiB it is one body; above, a stream Bun pulls as the socket drains, failed (connection closed) when not read whole in time', async () => {
    expect(STREAM_THRESHOLD_BYTES).toBe(64 * 1024)
    const small = answerResponse('{"a":1}', { status: 200, headers: {} }, 300, () => {})
    expect(await small.text()).toBe('{"a":1}')
    const text = JSON.stringify({ padding: 'y'.repeat(300_000) })
    // Read whole: the same bytes and headers.
    const whole = answerResponse(text, { status: 200, headers: { 'retry-after': '1' } }, 300, () => {})
    expect(whole.headers.get('retry-after')).toBe('1')
    expect(await whole.text()).toBe(text)
    // Read one chunk, then nothing: at the deadline the stream fails and the drop is reported.
    let dropped: [number, number] | null = null
    const stalled = answerResponse(text, { status: 200, headers: {} }, 300, (taken, total) => (dropped = [taken, total]))
    const reader = stalled.body!.getReader()
    expect((await reader.read()).value!.byteLength).toBe(STREAM_THRESHOLD_BYTES)
    await Bun.sleep(500)
    expect(reader.read()).rejects.toThrow('did not read the answer in time')
    expect(dropped!).toEqual([STREAM_THRESHOLD_BYTES, Buffer.byteLength(text)])
  })
})

/** The server's established connections on `port` (from /proc/net/tcp: a paused client never sees the close). */
function establishedConnections(port: number): number {
  const hex = `:${port.toString(16).toUpperCase().padStart(4, '0')}`
  return readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter((fields) => fields[1]?.endsWith(hex) && fields[3] === '01').length
}

describe('a client that does not read its answers (real socket)', () => {
  const t = makeTestApp({ env: { MCP_ANON_RATE_PER_MINUTE: '100000', BODY_TIMEOUT_MS: '1000' } })
  let port = 0
  beforeAll(() => {
    port = t.app.listen({ port: 0, hostname: '127.0.0.1' }).server!.port!
  })
  afterAll(() => t.app.stop(true))

  test('a client that reads gets a streamed answer whole', async () => {
    const batch = Array.from({ length: MCP_MAX_BATCH }, (_, i) => TOOLS_LIST(i))
    const response = await fetch(`http://127.0.0.1:${port}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', connection: 'close' }, body: JSON.stringify(batch) })
    expect(response.status).toBe(200)
    const answers = (await response.json()) as unknown[]
    expect(answers).toHaveLength(MCP_MAX_BATCH)
    expect(response.headers.get('transfer-encoding')).toBe('chunked')
    const small = await fetch(`http://127.0.0.1:${port}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', connection: 'close' }, body: JSON.stringify(TOOLS_LIST(1)) })
    expect(Number(small.headers.get('content-length'))).toBeLessThan(STREAM_THRESHOLD_BYTES)
    expect(((await small.json()) as { id: number }).id).toBe(1)
  })

  test('answers the kernel cannot take: the connection is closed after BODY_TIMEOUT_MS without progress, not held open', async () => {
    const body = JSON.stringify(Array.from({ length: MCP_MAX_BATCH }, (_, i) => TOOLS_LIST(i)))
    const request = `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
    const socket = await Bun.connect({ hostname: '127.0.0.1', port, socket: { data() {} } })
    socket.pause()
    // Three answers of about 230 KB: more than the kernel buffers of a connection whose client does not read.
    for (let i = 0; i < 3; i++) socket.write(request)
    await Bun.sleep(300)
    expect(establishedConnections(port)).toBe(1)
    const started = performance.now()
    while (establishedConnections(port) > 0 && performance.now() - started < 20_000) await Bun.sleep(100)
    socket.terminate()
    // Bun checks idle connections every few seconds; Elysia's own idle timeout would be 30 s.
    expect(performance.now() - started).toBeLessThan(12_000)
  }, 30_000)

  // What Bun does by itself (this passes without the send deadline too): it answers no further
  // pipelined request while an answer is unsent, and closes a connection that keeps sending.
  test('pipelining batches at the cap without reading: the connection is dropped within the send timeout, not held', async () => {
    const body = JSON.stringify(Array.from({ length: MCP_MAX_BATCH }, (_, i) => TOOLS_LIST(i)))
    const request = `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
    let closedAt = 0
    const started = performance.now()
    const socket = await Bun.connect({
      hostname: '127.0.0.1',
      port,
      socket: {
        data() {},
        close() {
          closedAt = performance.now()
        },
      },
    })
    // Stop reading: what the server sends stays in the kernel buffers, then in the server.
    socket.pause()
    for (let i = 0; i < 60; i++) socket.write(request)
    const deadline = performance.now() + 8000
    while (!closedAt && performance.now() < deadline) await Bun.sleep(50)
    socket.end()
    expect(closedAt).toBeGreaterThan(0)
    expect(closedAt - started).toBeLessThan(5000)
  }, 15_000)
})
