// DNS rebinding on /mcp: a page that rebinds its own name to this service sends its name in Host
// and Origin. Only the service's configured names and loopback are answered, and only pages of
// the service, of CORS_ALLOWED_ORIGINS or of the request's own loopback origin; the refusal is a
// 403 with a JSON-RPC error without id, and nothing runs or is counted.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { request as httpRequest } from 'node:http'
import { makeTestApp, type TestApp } from '../helpers/app'
import { SLOW_SETUP_MS } from '../helpers/process'
import { isLoopbackName } from '../../src/mcp/rebinding'

const INIT = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'rebinding-test', version: '1' } } })

const post = (t: TestApp, headers: Record<string, string>) => t.request('/mcp', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: INIT })

async function refusal(response: Response) {
  expect(response.status).toBe(403)
  const body = (await response.json()) as Record<string, any>
  expect('id' in body).toBe(false)
  expect(body.jsonrpc).toBe('2.0')
  expect(body.error.code).toBe(-32600)
  return body.error.data.error as string
}

describe('Host and Origin on the tool endpoint', () => {
  const t = makeTestApp({ env: { CORS_ALLOWED_ORIGINS: 'https://app.example', MCP_ALLOWED_HOSTS: 'alias.example, mcp.internal' } })

  test('a rebinding request (Host and Origin of another site) is refused before anything runs; usage counts nothing', async () => {
    expect(await refusal(await post(t, { host: 'evil.example.com', origin: 'http://evil.example.com' }))).toBe('HOST_NOT_ALLOWED')
    expect(await refusal(await post(t, { host: 'evil.example.com' }))).toBe('HOST_NOT_ALLOWED')
    expect(await refusal(await post(t, { host: 'oracle.test.evil.example' }))).toBe('HOST_NOT_ALLOWED')
    await t.deps.mcpUsage.flush()
    expect(t.db.query('SELECT count(*) AS n FROM mcp_daily_requests').get()).toEqual({ n: 0 })
  })

  test('an Origin that is not the service, not listed and not the same loopback origin is refused, "null" included', async () => {
    for (const origin of ['http://evil.example.com', 'null', 'https://app.example.evil', 'http://oracle.test', 'http://localhost:9999', 'file://']) {
      expect([origin, await refusal(await post(t, { host: 'oracle.test', origin }))]).toEqual([origin, 'ORIGIN_NOT_ALLOWED'])
    }
    // A loopback page of another port is another origin.
    expect(await refusal(await post(t, { host: '127.0.0.1:8080', origin: 'http://127.0.0.1:9999' }))).toBe('ORIGIN_NOT_ALLOWED')
  })

  test('the configured names, loopback forms, no Origin, the own origin, listed origins and the same loopback origin are answered', async () => {
    const allowed: Record<string, string>[] = [
      {},
      { host: 'oracle.test' },
      { host: 'ORACLE.TEST:443', origin: 'https://oracle.test' },
      { host: 'alias.example' },
      { host: 'mcp.internal:8443' },
      { host: 'oracle.test', origin: 'https://app.example' },
      { host: 'localhost:8080' },
      { host: '127.0.0.1:8080', origin: 'http://127.0.0.1:8080' },
      { host: '127.5.6.7' },
      { host: '[::1]:8080', origin: 'http://[::1]:8080' },
      { host: 'tool.localhost:3000', origin: 'http://tool.localhost:3000' },
    ]
    for (const headers of allowed) {
      const response = await post(t, headers)
      expect([headers, response.status]).toEqual([headers, 200])
      expect(((await response.json()) as { result: { protocolVersion: string } }).result.protocolVersion).toBe('2025-11-25')
    }
  })

  test('the CORS preflight of /mcp answers the listed origins only', async () => {
    const preflight = (origin: string) => t.request('/mcp', { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, mcp-protocol-version' } })
    expect((await preflight('https://app.example')).headers.get('access-control-allow-origin')).toBe('https://app.example')
    expect((await preflight('https://oracle.test')).headers.get('access-control-allow-origin')).toBe('https://oracle.test')
    expect((await preflight('http://evil.example.com')).headers.get('access-control-allow-origin')).toBeNull()
    const answered = await post(t, { host: 'oracle.test', origin: 'https://app.example' })
    expect(answered.headers.get('access-control-allow-origin')).toBe('https://app.example')
  })

  test('loopback forms', () => {
    for (const name of ['localhost', 'a.b.localhost', '127.0.0.1', '127.255.0.9', '::1', '::ffff:127.0.0.1', '0:0:0:0:0:0:0:1']) expect([name, isLoopbackName(name)]).toEqual([name, true])
    for (const name of ['localhost.example', '128.0.0.1', '10.0.0.1', '::2', 'evil.com', '0.0.0.0']) expect([name, isLoopbackName(name)]).toEqual([name, false])
  })
})

describe('MCP_ALLOWED_HOSTS=*', () => {
  const t = makeTestApp({ env: { MCP_ALLOWED_HOSTS: '*' } })
  test('any Host is answered (a proxy in front checks it); Origin is still checked', async () => {
    expect((await post(t, { host: 'anything.example' })).status).toBe(200)
    expect(await refusal(await post(t, { host: 'anything.example', origin: 'http://anything.example' }))).toBe('ORIGIN_NOT_ALLOWED')
  })
})

describe('over a real socket', () => {
  let t: TestApp
  let port: number
  beforeAll(() => {
    t = makeTestApp()
    t.app.listen({ port: 0, hostname: '127.0.0.1' })
    port = t.app.server!.port!
  }, SLOW_SETUP_MS)
  afterAll(async () => {
    await t.app.stop(true)
  })

  /** node:http sends the Host header as given (fetch would not let a test forge it). */
  const raw = (headers: Record<string, string>) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = httpRequest({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(INIT)), ...headers } }, (response) => {
        let body = ''
        response.on('data', (chunk) => (body += chunk))
        response.on('end', () => resolve({ status: response.statusCode!, body }))
      })
      request.on('error', reject)
      request.end(INIT)
    })

  test('a default install on loopback refuses a rebound name and answers its own address', async () => {
    const rebound = await raw({ host: 'evil.example.com', origin: 'http://evil.example.com' })
    expect(rebound.status).toBe(403)
    expect(JSON.parse(rebound.body).error.data.error).toBe('HOST_NOT_ALLOWED')
    expect((await raw({ host: `127.0.0.1:${port}`, origin: `http://127.0.0.1:${port}` })).status).toBe(200)
    expect((await raw({ host: `localhost:${port}` })).status).toBe(200)
  })
})
