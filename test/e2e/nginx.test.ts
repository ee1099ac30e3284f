// docs/operations.md "nginx in front", run as written: Debian's nginx, started by the test as a
// child process with its own prefix, pid, log and temp paths in a temp directory, in front of the
// service started with the `Environment=` values of the documented systemd unit. Only the listen
// address (a free loopback port), the certificate (made for the test) and the upstream port (the
// service's free port) are replaced. A stream passes through unbuffered; the client address
// reaches the limiter (clients connect from 127.0.0.2 and 127.0.0.3, and one sends its own
// X-Real-IP); body limits hold. Everything is stopped and removed afterwards.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { request as httpsRequest } from 'node:https'
import { join } from 'node:path'
import { tempDir } from '../helpers/app'
import { docCode } from '../helpers/doc-sections'
import { SLOW_SETUP_MS, startService, type RunningService } from '../helpers/process'
import { makeCertificate, type TestCertificate } from '../helpers/https-receiver'
import { startNginx, type TestNginx } from '../helpers/nginx'
import { INSTANT_PER_ADDRESS_PER_DAY } from '../../src/accounts/offers'

const unit = docCode('operations.md', 'systemd-unit', 'ini')
const serverBlock = docCode('operations.md', 'nginx-server', 'nginx')
const unitEnv = Object.fromEntries([...unit.matchAll(/^Environment=([A-Z_]+)=(.*)$/gm)].map((match) => [match[1]!, match[2]!]))

let dir: string
let certificate: TestCertificate
let service: RunningService
let nginx: TestNginx | undefined
let base: string

/** One HTTPS request to nginx from a chosen loopback source address. */
function call(path: string, options: { from?: string; method?: string; headers?: Record<string, string>; body?: string | Buffer } = {}) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>((resolve, reject) => {
    const request = httpsRequest(
      { host: '127.0.0.1', port: new URL(base).port, path, method: options.method ?? 'GET', localAddress: options.from ?? '127.0.0.1', ca: certificate.cert, headers: options.headers, agent: false },
      (response) => {
        let body = ''
        response.setEncoding('utf8')
        response.on('data', (chunk) => (body += chunk))
        response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body }))
      },
    )
    request.on('error', reject)
    request.end(options.body)
  })
}

beforeAll(async () => {
  // The unit and the server block agree: loopback service, X-Real-IP, the public https name.
  const serverName = /server_name (\S+);/.exec(serverBlock)![1]!
  expect(unitEnv).toMatchObject({ HOST: '127.0.0.1', CLIENT_IP_HEADER: 'x-real-ip', PUBLIC_BASE_URL: `https://${serverName}` })
  expect(serverBlock).toContain(`server ${unitEnv.HOST}:${unitEnv.PORT};`)
  expect(serverBlock).toContain('proxy_set_header X-Real-IP $remote_addr;')

  dir = tempDir('openbell-test-nginx-')
  certificate = makeCertificate(`DNS:${serverName},IP:127.0.0.1`)
  service = await startService({ DATA_DIR: join(dir, 'data'), HOST: unitEnv.HOST!, CLIENT_IP_HEADER: unitEnv.CLIENT_IP_HEADER!, PUBLIC_BASE_URL: unitEnv.PUBLIC_BASE_URL!, ISSUER: unitEnv.ISSUER!, LOG_LEVEL: 'info' })
  nginx = await startNginx({
    dir,
    serverBlock,
    upstreams: [[`server ${unitEnv.HOST}:${unitEnv.PORT};`, `server 127.0.0.1:${new URL(service.base).port};`]],
    certificate,
    ready: async (port) => {
      base = `https://127.0.0.1:${port}`
      return (await call('/v5/health')).status === 200
    },
  })
}, SLOW_SETUP_MS)

afterAll(async () => {
  await nginx?.stop()
  if (service) {
    service.process.kill()
    await service.process.exited
  }
  certificate?.dispose()
})

describe('the documented nginx server block in front of the service', () => {
  test('the client address reaches the limiter: 10 instant keys a day per client, whatever X-Real-IP the client sends', async () => {
    const instant = (from: string, agent: string, headers: Record<string, string> = {}) => call('/v5/keys/instant', { from, method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ agent_id: agent }) })
    for (let i = 0; i < INSTANT_PER_ADDRESS_PER_DAY; i++) expect((await instant('127.0.0.2', `via-nginx-${i}`)).status).toBe(200)
    const over = await instant('127.0.0.2', 'one-too-many')
    expect(over.status).toBe(429)
    expect(JSON.parse(over.body).error).toBe('RATE_LIMITED')
    // A client that names another address itself: nginx replaces the header with the real one.
    expect((await instant('127.0.0.2', 'spoofing', { 'x-real-ip': '203.0.113.77' })).status).toBe(429)
    // Another client has its own allowance (without nginx's header every client would be nginx).
    expect((await instant('127.0.0.3', 'another-client')).status).toBe(200)
    expect(service.output()).toContain('"msg":"client address source","source":"header","header":"x-real-ip"')
  })

  test('a stream passes through: the first signed receipt arrives at once and the stream stays open', async () => {
    const key = JSON.parse((await call('/v5/keys/instant', { from: '127.0.0.4', method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"agent_id":"streamer"}' })).body).api_key as string
    const controller = new AbortController()
    const started = Date.now()
    const response = await fetch(`${base}/v5/stream?mic=XNYS&key=${key}`, { signal: controller.signal, tls: { ca: certificate.cert } } as RequestInit)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8')
    const reader = response.body!.getReader()
    let text = ''
    while (!text.includes('event: market_status') && Date.now() - started < 10_000) {
      const { value, done } = await reader.read()
      if (done) break
      text += new TextDecoder().decode(value)
    }
    expect(text).toStartWith('retry: 5000')
    expect(text).toContain('event: market_status\ndata: ')
    const receipt = JSON.parse(/data: (.*)\n/.exec(text.slice(text.indexOf('event: market_status')))![1]!)
    expect(receipt).toMatchObject({ mic: 'XNYS', receipt_mode: 'live' })
    // Still open: the next read waits (for the 15 s heartbeat), the proxy has not ended the stream.
    const next = await Promise.race([reader.read().then(({ done }) => (done ? 'ended' : 'data')), Bun.sleep(1500).then(() => 'open')])
    expect(next).toBe('open')
    controller.abort()
  })

  test("readiness: /v5/ready answers 200 through nginx, and the unit's ExecStartPost (as written, the binary replaced) sees it", async () => {
    const ready = await call('/v5/ready')
    expect(ready.status).toBe(200)
    expect(JSON.parse(ready.body)).toMatchObject({ status: 'READY', checks: { storage: { ok: true, backend: 'sqlite' } } })
    expect(ready.headers['cache-control']).toBe('no-store')
    const line = /^ExecStartPost=-\/opt\/openbell\/openbell (.*)$/m.exec(unit)
    expect(line?.[1]).toBe('healthcheck --ready --wait 60')
    const child = Bun.spawn(['bun', join(import.meta.dir, '../../src/main.ts'), ...line![1]!.split(' ')], { env: { ...process.env, ...unitEnv, PORT: new URL(service.base).port, DATA_DIR: join(dir, 'data') }, stdout: 'pipe', stderr: 'pipe' })
    expect({ code: await child.exited, stderr: await new Response(child.stderr).text() }).toEqual({ code: 0, stderr: '' })
  })

  test("body limits hold: a route's own limit answers through nginx, and nginx refuses past 512 KiB with the same error object", async () => {
    const demo = (await call('/v5/demo?mic=XNYS')).body
    const verified = await call('/v5/verify', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ receipt: JSON.parse(demo) }) })
    expect(verified.status).toBe(200)
    expect(JSON.parse(verified.body).valid).toBe(true)
    const overRoute = await call('/v5/verify', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ receipt: { pad: 'x'.repeat(20_000) } }) })
    expect(overRoute.status).toBe(413)
    expect(JSON.parse(overRoute.body).error).toBe('PAYLOAD_TOO_LARGE')
    const overProxy = await call('/v5/verify', { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.alloc(600 * 1024, 'x') })
    expect(overProxy.status).toBe(413)
    expect(overProxy.headers['content-type']).toBe('application/json')
    expect(JSON.parse(overProxy.body)).toEqual({ error: 'PAYLOAD_TOO_LARGE', message: 'request body over 512 KiB' })
  })
})
