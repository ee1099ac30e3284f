// A test delivery tells the key holder only a category — target_forbidden, connect_failed,
// tls_failed, timeout, http_<code> — never the runtime's socket or TLS error text, which would
// turn POST /v5/webhooks/test into a probe of hosts and ports (issue 24 item 3). Each case is a
// real loopback target: an HTTPS receiver with a test-made certificate, a closed port, a server
// that speaks plain HTTP, one that never answers. The operator's log keeps the detail.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createServer, type Server } from 'node:net'
import { makeTestApp, type TestApp } from '../helpers/app'
import { issueKey } from '../../src/accounts/keys'
import { makeCertificate, startReceiver, type TestCertificate } from '../helpers/https-receiver'

let certificate: TestCertificate
let receiver: ReturnType<typeof startReceiver>
let silent: Server
let silentPort: number
let plainHttp: ReturnType<typeof Bun.serve>
let closedPort: number
let t: TestApp
let key: string

/** Words of runtime error texts that must never reach the key holder. */
const RAW_TEXT = /ECONN|EPROTO|self.signed|certificate|CERT|handshake|socket|refused|timed out|127\.0\.0\.1|Unable to connect/i

beforeAll(async () => {
  certificate = makeCertificate()
  receiver = startReceiver(certificate)
  plainHttp = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('not TLS') })
  silent = createServer(() => {}).listen(0, '127.0.0.1')
  await new Promise((resolve) => silent.once('listening', resolve))
  silentPort = (silent.address() as { port: number }).port
  const closed = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() })
  closedPort = closed.port!
  closed.stop(true)
  t = makeTestApp({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } })
  t.deps.delivery.sender.ca = certificate.cert
  t.deps.delivery.sender.timeoutMs = 500
  key = (await issueKey(t.deps.accounts, { plan: 'pro', now: new Date(t.clock.now()) })).key
})
afterAll(() => {
  receiver.stop()
  plainHttp.stop(true)
  silent.close()
  certificate.dispose()
})

async function testDeliveryTo(url: string) {
  const created = await t.json('/v5/webhooks/subscribe', { method: 'POST', headers: { 'x-oracle-key': key, 'content-type': 'application/json' }, body: JSON.stringify({ url, mics: ['XNYS'] }) })
  expect(created.status).toBe(200)
  const tested = await t.json(`/v5/webhooks/test/${created.body.webhook_id}`, { method: 'POST', headers: { 'x-oracle-key': key } })
  expect(tested.status).toBe(200)
  expect((await t.request(`/v5/webhooks/${created.body.webhook_id}`, { method: 'DELETE', headers: { 'x-oracle-key': key } })).status).toBe(204)
  const logged = t.log.lines.filter((line) => line.msg === 'webhook test delivery failed' && line.webhook_id === created.body.webhook_id).map((line) => String(line.error))
  return { body: tested.body, text: JSON.stringify({ error: tested.body.error, status_code: tested.body.status_code, delivered: tested.body.delivered }), logged }
}

describe('POST /v5/webhooks/test reports a category, never the raw error', () => {
  test('http_<code> for a non-2xx answer (and delivered for a 2xx)', async () => {
    receiver.respondWith(() => 503)
    const failed = await testDeliveryTo(receiver.url('/hook'))
    expect(failed.body).toMatchObject({ delivered: false, status_code: 503, error: 'http_503' })
    receiver.respondWith(() => 302)
    expect((await testDeliveryTo(receiver.url('/hook'))).body).toMatchObject({ delivered: false, status_code: 302, error: 'http_302' })
    receiver.respondWith(() => 200)
    const ok = await testDeliveryTo(receiver.url('/hook'))
    expect(ok.body).toMatchObject({ delivered: true, status_code: 200 })
    expect(ok.body.error).toBeUndefined()
  })

  test('connect_failed for a closed port', async () => {
    const answer = await testDeliveryTo(`https://127.0.0.1:${closedPort}/hook`)
    expect(answer.body).toMatchObject({ delivered: false, status_code: 0, error: 'connect_failed' })
    expect(answer.text).not.toMatch(RAW_TEXT)
    expect(answer.logged[0]).toContain('ECONNREFUSED')
  })

  test('tls_failed for an untrusted certificate and for a server that does not speak TLS', async () => {
    t.deps.delivery.sender.ca = null
    try {
      const untrusted = await testDeliveryTo(receiver.url('/hook'))
      expect(untrusted.body).toMatchObject({ delivered: false, status_code: 0, error: 'tls_failed' })
      expect(untrusted.text).not.toMatch(RAW_TEXT)
      expect(untrusted.logged[0]).toMatch(/SELF_SIGNED|CERT/)
    } finally {
      t.deps.delivery.sender.ca = certificate.cert
    }
    const plain = await testDeliveryTo(`https://127.0.0.1:${plainHttp.port}/hook`)
    expect(plain.body).toMatchObject({ delivered: false, status_code: 0, error: 'tls_failed' })
    expect(plain.text).not.toMatch(RAW_TEXT)
  })

  test('timeout for a server that accepts and never answers', async () => {
    const answer = await testDeliveryTo(`https://127.0.0.1:${silentPort}/hook`)
    expect(answer.body).toMatchObject({ delivered: false, status_code: 0, error: 'timeout' })
  })

  test('target_forbidden when the guard refuses (guard on): the address it resolved to is not named', async () => {
    const guarded = makeTestApp()
    guarded.deps.delivery.sender.resolve = (async () => [{ address: '93.184.215.14', family: 4 }]) as never
    const owner = (await issueKey(guarded.deps.accounts, { plan: 'pro', now: new Date(guarded.clock.now()) })).key
    const created = await guarded.json('/v5/webhooks/subscribe', { method: 'POST', headers: { 'x-oracle-key': owner, 'content-type': 'application/json' }, body: JSON.stringify({ url: `https://hooks.example.test:${receiver.port}/hook`, mics: ['XNYS'] }) })
    expect(created.status).toBe(200)
    guarded.deps.delivery.sender.resolve = (async () => [{ address: '10.20.30.40', family: 4 }]) as never
    const tested = await guarded.json(`/v5/webhooks/test/${created.body.webhook_id}`, { method: 'POST', headers: { 'x-oracle-key': owner } })
    expect(tested.body).toMatchObject({ delivered: false, status_code: 0, error: 'target_forbidden' })
    expect(JSON.stringify(tested.body)).not.toContain('10.20.30.40')
    expect(guarded.log.lines.find((line) => line.msg === 'webhook test delivery failed')?.error).toContain('10.20.30.40: private-use')
  })
})
