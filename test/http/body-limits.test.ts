// Request bodies over a real socket: each route's limit is enforced from Content-Length before
// reading and while reading a chunked body, a body that stops arriving gets 408, and every such
// answer is the JSON error object.
import { afterAll, describe, expect, test } from 'bun:test'
import { listenOptions } from '../../src/http/listen'
import { MAX_REQUEST_BODY_BYTES } from '../../src/http/body'
import { makeTestApp, TEST_ADMIN_KEY } from '../helpers/app'
import { rawJson, rawRequest } from '../helpers/raw-http'

const harness = makeTestApp({ env: { BODY_TIMEOUT_MS: '300', PORT: '1' } })
const server = harness.app.listen({ ...listenOptions(harness.config), port: 0, hostname: '127.0.0.1' }).server!
afterAll(() => server.stop(true))
const port = server.port!

const post = (path: string, headers: string) => `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n${headers}\r\n`

describe('request bodies', () => {
  test('a declared Content-Length over the route limit is refused with 413 JSON before any body is sent', async () => {
    const response = await rawRequest(port, post('/v5/verify', 'content-length: 300000\r\n'))
    expect(response.status).toBe(413)
    expect(rawJson(response.text)).toMatchObject({ error: 'PAYLOAD_TOO_LARGE', limit_bytes: 65536 })
    expect(response.text.toLowerCase()).toContain('x-content-type-options: nosniff')
  })

  test('a chunked body is cut off at the route limit while it arrives (no end needed)', async () => {
    const chunk = 'x'.repeat(70_000)
    const response = await rawRequest(port, post('/v5/verify', 'transfer-encoding: chunked\r\n'), [`${chunk.length.toString(16)}\r\n${chunk}\r\n`])
    expect(response.status).toBe(413)
    expect(rawJson(response.text).error).toBe('PAYLOAD_TOO_LARGE')
  })

  test('the admin override route has its own limit', async () => {
    const response = await rawRequest(port, post('/v5/admin/overrides', `x-oracle-key: ${TEST_ADMIN_KEY}\r\ncontent-length: 100000\r\n`))
    expect(response.status).toBe(413)
  })

  test('the mint and tool routes have their own limits too', async () => {
    const mint = await rawRequest(port, post('/v5/x402/mint', 'content-length: 100000\r\n'))
    expect(mint.status).toBe(413)
    expect(rawJson(mint.text).error).toBe('PAYLOAD_TOO_LARGE')
    const chunk = 'x'.repeat(300_000)
    const mcp = await rawRequest(port, post('/mcp', 'accept: application/json, text/event-stream\r\ntransfer-encoding: chunked\r\n'), [`${chunk.length.toString(16)}\r\n${chunk}\r\n`])
    expect(mcp.status).toBe(413)
  })

  test('a stalled upload gets 408 JSON after BODY_TIMEOUT_MS, logged at warn', async () => {
    const response = await rawRequest(port, post('/v5/verify', 'content-length: 100\r\n'), ['{"receipt":'])
    expect(response.status).toBe(408)
    expect(rawJson(response.text).error).toBe('REQUEST_TIMEOUT')
    expect(response.ms).toBeLessThan(5000)
    const line = harness.log.lines.find((entry) => entry.msg === 'request body timed out')
    expect(line).toMatchObject({ level: 'warn', path: '/v5/verify', timeout_ms: 300 })
    expect(harness.log.lines.some((entry) => entry.level === 'error')).toBe(false)
  })

  test('a stalled witness upload gets 408 in the witness error shape', async () => {
    const response = await rawRequest(port, post('/v1/witness/checkpoints', 'content-length: 300\r\n'), ['{"checkpoint":'])
    expect(response.status).toBe(408)
    expect(rawJson(response.text)).toMatchObject({ error: 'request_timeout' })
  })

  test('the server-wide ceiling is what the largest route needs, not 128 MB', () => {
    expect(listenOptions(harness.config).maxRequestBodySize).toBe(MAX_REQUEST_BODY_BYTES)
    expect(MAX_REQUEST_BODY_BYTES).toBeLessThanOrEqual(1024 * 1024)
  })

  test('a body within the limit still verifies', async () => {
    const receipt = await (await fetch(`http://127.0.0.1:${port}/v5/demo`)).json()
    const response = await fetch(`http://127.0.0.1:${port}/v5/verify`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ receipt }) })
    expect(((await response.json()) as { valid: boolean }).valid).toBe(true)
  })
})

describe('a client that goes away mid-body on a route that reads it itself', () => {
  test('is logged at warn, never as an unhandled error', async () => {
    const before = harness.log.lines.length
    await rawRequest(port, post('/v5/verify', 'content-length: 100\r\n'), ['{"rec'], 50)
    await Bun.sleep(400)
    const lines = harness.log.lines.slice(before)
    expect(lines.some((line) => line.level === 'error')).toBe(false)
    expect(lines.find((line) => line.msg === 'request aborted by the client or the idle timeout')).toMatchObject({ level: 'warn', path: '/v5/verify' })
  })
})
