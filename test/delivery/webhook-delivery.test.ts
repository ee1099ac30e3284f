// Webhook deliveries to a real HTTPS receiver on loopback (a certificate made here, trusted by
// the sender's CA option; the request-forgery guard is lifted with WEBHOOK_ALLOW_PRIVATE_TARGETS,
// as an operator delivering inside its network would). Receivers verify with `standardwebhooks`;
// receipts verify with the published key. The dispatcher runs on real timers with a 2 s interval
// and a clock that moves in real time from a chosen instant.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { waitFor } from '../helpers/process'
import { makeTestApp, type TestApp } from '../helpers/app'
import { issueKey } from '../../src/accounts/keys'
import { makeCertificate, startReceiver, verifyDelivery, type ReceivedDelivery, type TestCertificate } from '../helpers/https-receiver'
import { verifyWithRegistry, type KeyRegistry } from '../helpers/verify'
import { DELIVERY_TIMEOUT_MS, WebhookSender } from '../../src/delivery/webhooks/send'

let t: TestApp
let certificate: TestCertificate
let receiver: ReturnType<typeof startReceiver>
let registry: KeyRegistry
let key: string
let offset = 0
let stopDispatcher: () => Promise<void>
const secrets = new Map<string, string>()

/** Moves the service's clock so that it reads `iso` now, then keeps running in real time. */
function clockTo(iso: string) {
  offset = Date.parse(iso) - Date.now()
}

beforeAll(async () => {
  certificate = makeCertificate()
  receiver = startReceiver(certificate)
  t = makeTestApp({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_DISPATCH_INTERVAL_SECONDS: '2' } })
  t.clock.now = () => Date.now() + offset
  t.deps.delivery.sender.ca = certificate.cert
  registry = (await t.json('/v5/keys')).body
  key = (await issueKey(t.deps.accounts, { plan: 'pro', now: new Date() })).key
  receiver.respondWith(() => 200)
  clockTo('2026-03-02T12:00:00.000Z')
  stopDispatcher = t.deps.delivery.dispatcher.start()
})

afterAll(async () => {
  await stopDispatcher?.()
  receiver.stop()
  certificate.dispose()
})

async function subscribe(path: string, mics: string[]): Promise<string> {
  const answer = await t.json('/v5/webhooks/subscribe', { method: 'POST', headers: { 'x-oracle-key': key, 'content-type': 'application/json' }, body: JSON.stringify({ url: receiver.url(path), mics }) })
  expect(answer.status).toBe(200)
  secrets.set(answer.body.webhook_id, answer.body.secret)
  return answer.body.webhook_id
}



/** Checks a delivery the way a receiver would: HMAC (Standard Webhooks) and the receipt's Ed25519 signature. */
function checkDelivery(delivery: ReceivedDelivery, webhookId: string) {
  // The receiver's clock is the service's (set to 2026-03-02) as of the moment it received the delivery.
  expect(verifyDelivery(secrets.get(webhookId)!, delivery, delivery.at + offset)).toBeTruthy()
  expect(() => verifyDelivery(secrets.get(webhookId)!, delivery, delivery.at + offset + 6 * 60_000)).toThrow('timestamp too old')
  expect(() => verifyDelivery('whsec_' + Buffer.alloc(32, 7).toString('base64'), delivery, delivery.at + offset)).toThrow()
  expect(delivery.headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/)
  expect(delivery.headers['content-type']).toBe('application/json')
  const body = delivery.json
  expect(body.type).toBe('status_change')
  expect(body.webhook_id).toBe(webhookId)
  expect(body.current_status).toBe(body.receipt.status)
  expect(body.occurred_at).toBe(body.receipt.issued_at)
  expect(body.receipt.receipt_mode).toBe('live')
  expect(verifyWithRegistry(registry, body.receipt)).toBe(true)
}

describe('webhook deliveries', () => {
  let xnys: string

  test('the open is delivered at the open (calendar boundary alarm), once, verifiable twice over', async () => {
    // Monday 2026-03-02: XNYS opens at 14:30:00 UTC.
    clockTo('2026-03-02T14:29:58.500Z')
    xnys = await subscribe('/xnys', ['XNYS'])
    // The clock jumped: one cycle now sets the alarm for the coming open.
    await t.deps.delivery.dispatcher.cycle()
    const delivery = await waitFor(() => receiver.received.find((d) => d.json.webhook_id === xnys), 5000, 'the open')
    const late = t.clock.now() - Date.parse('2026-03-02T14:30:00.000Z')
    expect(late).toBeGreaterThanOrEqual(0)
    expect(late).toBeLessThan(1500)
    checkDelivery(delivery, xnys)
    expect(delivery.json.previous_status).toBe('CLOSED')
    expect(delivery.json.current_status).toBe('OPEN')
    expect(delivery.json.mic).toBe('XNYS')
    // Delivered once: more cycles pass without another delivery for this subscription.
    await Bun.sleep(2500)
    expect(receiver.received.filter((d) => d.json.webhook_id === xnys)).toHaveLength(1)
    const health = await t.json('/v5/webhooks/health')
    expect(health.body.status).toBe('ok')
    expect(Date.parse(health.body.next_alarm)).toBeGreaterThan(Date.parse(health.body.checked_at))
  }, 20_000)

  test('a halt (operator override) wakes the dispatcher at once; its clearing is delivered too', async () => {
    const before = receiver.received.filter((d) => d.json.webhook_id === xnys).length
    const set = Date.now()
    await t.deps.overrides.set({ mic: 'XNYS', status: 'HALTED', reason: 'market-wide circuit breaker level 1', expires_at: new Date(t.clock.now() + 3_600_000).toISOString() }, 'test')
    const halted = await waitFor(() => receiver.received.filter((d) => d.json.webhook_id === xnys)[before], 3000, 'the halt')
    expect(Date.now() - set).toBeLessThan(1000)
    checkDelivery(halted, xnys)
    expect([halted.json.previous_status, halted.json.current_status]).toEqual(['OPEN', 'HALTED'])
    expect(halted.json.receipt.source).toBe('OVERRIDE')
    await t.deps.overrides.clear('XNYS', 'test')
    const resumed = await waitFor(() => receiver.received.filter((d) => d.json.webhook_id === xnys)[before + 1], 3000, 'the resumption')
    expect([resumed.json.previous_status, resumed.json.current_status]).toEqual(['HALTED', 'OPEN'])
  }, 20_000)

  test('the close is delivered at the close', async () => {
    // The resumption's attempt is marked delivered after the receiver answered: until then its
    // row is claimed until the claim's end, which the clock's six-hour jump below would pass,
    // sending it again (at-least-once). Wait for the worker to be done before moving the clock.
    await waitFor(() => t.deps.delivery.dispatcher.worker.busy === 0, 5000, 'the worker idle')
    clockTo('2026-03-02T20:59:58.000Z')
    await t.deps.delivery.dispatcher.cycle()
    const before = receiver.received.filter((d) => d.json.webhook_id === xnys).length
    const closed = await waitFor(() => receiver.received.filter((d) => d.json.webhook_id === xnys)[before], 6000, 'the close')
    checkDelivery(closed, xnys)
    expect([closed.json.previous_status, closed.json.current_status]).toEqual(['OPEN', 'CLOSED'])
    expect(Date.parse(closed.json.occurred_at)).toBeGreaterThanOrEqual(Date.parse('2026-03-02T21:00:00.000Z'))
  }, 20_000)

  test('a failing receiver is retried on the schedule with the same webhook-id, each attempt signed afresh; nothing after success', async () => {
    const id = await subscribe('/retry', ['XLON'])
    let calls = 0
    receiver.respondWith((delivery) => (delivery.json.webhook_id === id && ++calls <= 2 ? 500 : 200))
    await t.deps.overrides.set({ mic: 'XLON', status: 'CLOSED', reason: 'exchange outage', expires_at: new Date(t.clock.now() + 3_600_000).toISOString() }, 'test')
    // XLON is closed at 21:00 UTC anyway: use HALTED so that it is a change.
    await t.deps.overrides.set({ mic: 'XLON', status: 'HALTED', reason: 'exchange outage', expires_at: new Date(t.clock.now() + 3_600_000).toISOString() }, 'test')
    const attempts = await waitFor(() => {
      const list = receiver.received.filter((d) => d.json.webhook_id === id)
      return list.length >= 3 && list
    }, 20_000, 'three attempts')
    const first = attempts[0]!.at
    // 1 and 5 intervals (2 s) with ±10 % jitter: about 2 s and 12 s after the first attempt.
    expect(attempts[1]!.at - first).toBeGreaterThan(1500)
    expect(attempts[1]!.at - first).toBeLessThan(3500)
    expect(attempts[2]!.at - attempts[1]!.at).toBeGreaterThan(8500)
    expect(attempts[2]!.at - attempts[1]!.at).toBeLessThan(12_500)
    expect(new Set(attempts.map((d) => d.headers['webhook-id'])).size).toBe(1)
    expect(new Set(attempts.map((d) => d.headers['webhook-signature'])).size).toBe(3)
    for (const attempt of attempts) checkDelivery(attempt, id)
    await Bun.sleep(2500)
    expect(receiver.received.filter((d) => d.json.webhook_id === id)).toHaveLength(3)
    const row = (await t.deps.delivery.queue.get(attempts[0]!.headers['webhook-id']!))!
    expect(row.state).toBe('delivered')
    expect(row.attempts).toBe(3)
    await t.deps.overrides.clear('XLON', 'test')
  }, 40_000)
})

describe('dead letter, pause and resume', () => {
  test('after the last failed attempt the delivery is dead, the subscription paused and nothing more is queued for it; a successful test delivery resumes it', async () => {
    const id = await subscribe('/dead', ['XPAR'])
    receiver.respondWith((delivery) => (delivery.json.webhook_id === id ? 503 : 200))
    await t.deps.overrides.set({ mic: 'XPAR', status: 'HALTED', reason: 'venue outage', expires_at: new Date(t.clock.now() + 3_600_000).toISOString() }, 'test')
    const messageId = await waitFor(() => receiver.received.find((d) => d.json.webhook_id === id)?.headers['webhook-id'], 5000, 'the first attempt')
    // The schedule's later waits (30, 150, 600 intervals) are skipped by making the row due now.
    for (let attempt = 2; attempt <= 6; attempt++) {
      await waitFor(async () => { const row = (await t.deps.delivery.queue.get(messageId))!; return row.state === 'queued' && row.attempts === attempt - 1 }, 5000, `retry ${attempt} queued`)
      t.db.query('UPDATE webhook_deliveries SET next_attempt_at = 0 WHERE id = ?').run(messageId)
      void t.deps.delivery.dispatcher.worker.pump()
      await waitFor(() => receiver.received.filter((d) => d.json.webhook_id === id).length === attempt, 5000, `attempt ${attempt}`)
    }
    await waitFor(async () => (await t.deps.delivery.queue.get(messageId))!.state === 'dead', 5000, 'the dead letter')
    expect(await t.deps.delivery.queue.get(messageId)).toMatchObject({ state: 'dead', attempts: 6, last_status: 503 })
    const listed = (await t.json('/v5/webhooks', { headers: { 'x-oracle-key': key } })).body.webhooks.find((w: { webhook_id: string }) => w.webhook_id === id)
    expect(listed.status).toBe('paused')
    // A new change of XPAR queues nothing for the paused subscription.
    await t.deps.overrides.clear('XPAR', 'test')
    await Bun.sleep(1000)
    expect(await t.deps.delivery.queue.forWebhook(id)).toHaveLength(1)
    expect(receiver.received.filter((d) => d.json.webhook_id === id)).toHaveLength(6)
    // The owner fixes the endpoint and tests it: delivered, and the subscription is active again.
    receiver.respondWith(() => 200)
    const tested = await t.json(`/v5/webhooks/test/${id}`, { method: 'POST', headers: { 'x-oracle-key': key } })
    expect(tested.body).toMatchObject({ delivered: true, status_code: 200 })
    expect(tested.body.payload_sent.test).toBe(true)
    const received = receiver.received.at(-1)!
    expect(received.json).toEqual(tested.body.payload_sent)
    checkDelivery(received, id)
    expect((await t.json('/v5/webhooks', { headers: { 'x-oracle-key': key } })).body.webhooks.find((w: { webhook_id: string }) => w.webhook_id === id).status).toBe('active')
  }, 40_000)
})

describe('one attempt', () => {
  test('a redirect is not followed (a 3xx is a failed attempt) and any 2xx is success', async () => {
    const id = await subscribe('/redirect', ['XJPX'])
    receiver.respondWith(() => 302)
    const before = receiver.received.length
    const redirected = await t.json(`/v5/webhooks/test/${id}`, { method: 'POST', headers: { 'x-oracle-key': key } })
    expect(redirected.body).toMatchObject({ delivered: false, status_code: 302 })
    expect(receiver.received.length).toBe(before + 1)
    receiver.respondWith(() => 204)
    expect((await t.json(`/v5/webhooks/test/${id}`, { method: 'POST', headers: { 'x-oracle-key': key } })).body).toMatchObject({ delivered: true, status_code: 204 })
    receiver.respondWith(() => 200)
  })

  test('an untrusted certificate fails the attempt; the error names the host, never the URL path', async () => {
    const result = await t.deps.delivery.sender.send({ url: receiver.url('/token-abc123'), secret: 'whsec_' + Buffer.alloc(32, 1).toString('base64') }, 'msg_test', '{}', Date.now())
    expect(result.delivered).toBe(true)
    t.deps.delivery.sender.ca = null
    try {
      const refused = await t.deps.delivery.sender.send({ url: receiver.url('/token-abc123'), secret: 'whsec_' + Buffer.alloc(32, 1).toString('base64') }, 'msg_test', '{}', Date.now())
      expect(refused.delivered).toBe(false)
      expect(refused.statusCode).toBe(0)
      expect(refused.error).toBe('tls_failed')
      expect(refused.detail).toContain('tls_failed')
      expect(refused.detail).not.toContain('token-abc123')
    } finally {
      t.deps.delivery.sender.ca = certificate.cert
    }
  })

  test('an attempt gives up at the timeout (10 s; 300 ms here) and at most 16 attempts are in flight at once', async () => {
    expect(DELIVERY_TIMEOUT_MS).toBe(10_000)
    const id = await subscribe('/slow', ['XBOM'])
    let release: () => void = () => {}
    const hung = new Promise<void>((resolve) => (release = resolve))
    receiver.respondWith(async (delivery) => {
      if (delivery.json?.webhook_id === id) await hung
      return 200
    })
    try {
      const quick = new WebhookSender({ allowPrivate: true, ca: certificate.cert, timeoutMs: 300 })
      const started = Date.now()
      const result = await quick.send({ url: receiver.url('/slow'), secret: secrets.get(id)! }, 'msg_timeout', JSON.stringify({ webhook_id: id }), t.clock.now())
      expect(result).toEqual({ delivered: false, statusCode: 0, error: 'timeout', detail: 'timeout' })
      expect(Date.now() - started).toBeLessThan(2000)
      // Twenty due deliveries for a receiver that does not answer: sixteen are sent, four wait.
      const insert = t.db.query(`INSERT INTO webhook_deliveries (id, webhook_id, mic, body, state, attempts, next_attempt_at, created_at, updated_at) VALUES (?, ?, 'XBOM', ?, 'queued', 0, 0, ?, ?)`)
      const at = new Date(t.clock.now()).toISOString()
      for (let i = 0; i < 20; i++) insert.run(`msg_bound_${i}`, id, JSON.stringify({ webhook_id: id, n: i }), at, at)
      const worker = t.deps.delivery.dispatcher.worker
      await worker.pump()
      const reached = () => receiver.received.filter((d) => d.json?.webhook_id === id && typeof d.json.n === 'number').length
      await waitFor(() => reached() === 16, 5000, 'sixteen attempts in flight')
      await Bun.sleep(300)
      expect(reached()).toBe(16)
      expect(worker.busy).toBe(16)
    } finally {
      release()
    }
    await waitFor(() => (t.db.query(`SELECT count(*) AS n FROM webhook_deliveries WHERE id LIKE 'msg_bound_%' AND state = 'delivered'`).get() as { n: number }).n === 20, 10_000, 'all twenty delivered')
    receiver.respondWith(() => 200)
  }, 30_000)
})
