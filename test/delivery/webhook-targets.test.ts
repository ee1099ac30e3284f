// Where a delivery goes: a name that resolved to a public address at subscribe time and to a
// private one at delivery time (DNS rebinding) is refused at delivery; IPv6 receivers; a name is
// pinned to the checked address while its certificate is verified against the name. Real HTTPS
// receivers on 127.0.0.1 and ::1 with one test-made certificate for `hooks.example.test` and ::1
// (not 127.0.0.1, so a connection to the IPv4 address only verifies against the name). The
// resolver of the target checks is replaced by one the test controls.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { makeTestApp, type TestApp } from '../helpers/app'
import { issueKey } from '../../src/accounts/keys'
import { WebhookSender } from '../../src/delivery/webhooks/send'
import { makeCertificate, startReceiver, verifyDelivery, type TestCertificate } from '../helpers/https-receiver'

const NAME = 'hooks.example.test'
const PUBLIC_ADDRESS = '93.184.215.14'

let certificate: TestCertificate
let v4: ReturnType<typeof startReceiver>
let v6: ReturnType<typeof startReceiver>
/** What the test resolver answers for NAME, per lookup. */
let answer: string[] = []
const lookups: string[] = []
const resolve = (async (host: string) => {
  lookups.push(host)
  if (host !== NAME) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' })
  return answer.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))
}) as never

beforeAll(() => {
  certificate = makeCertificate(`DNS:${NAME},IP:::1`)
  v4 = startReceiver(certificate, 0, '127.0.0.1')
  v6 = startReceiver(certificate, 0, '::1')
})
afterAll(() => {
  v4.stop()
  v6.stop()
  certificate.dispose()
})

/** An app with its sender trusting the test certificate and using the test resolver. */
async function app(env: Record<string, string> = {}) {
  const t = makeTestApp({ env })
  t.deps.delivery.sender.ca = certificate.cert
  t.deps.delivery.sender.resolve = resolve
  const key = (await issueKey(t.deps.accounts, { plan: 'pro', now: new Date(t.clock.now()) })).key
  const subscribe = (url: string, mics: string[]) =>
    t.json('/v5/webhooks/subscribe', { method: 'POST', headers: { 'x-oracle-key': key, 'content-type': 'application/json' }, body: JSON.stringify({ url, mics }) })
  const testDelivery = (id: string) => t.json(`/v5/webhooks/test/${id}`, { method: 'POST', headers: { 'x-oracle-key': key } })
  /** A state change of `mic` (an operator halt), detected by one dispatcher cycle, its queue sent. */
  const halt = async (mic: string) => {
    await t.deps.overrides.set({ mic, status: 'HALTED', reason: 'test halt', expires_at: new Date(t.clock.now() + 3_600_000).toISOString() }, 'test')
    await t.deps.delivery.dispatcher.cycle()
    await t.deps.delivery.dispatcher.worker.drain()
  }
  return { t, subscribe, testDelivery, halt }
}

describe('DNS rebinding (guard on)', () => {
  let env: Awaited<ReturnType<typeof app>>

  beforeAll(async () => {
    env = await app()
    expect(env.t.config.delivery.allowPrivateTargets).toBe(false)
  })

  test('public at subscribe time, loopback at delivery time: the attempt is refused and nothing reaches the receiver', async () => {
    const url = `https://${NAME}:${v4.port}/rebound`
    answer = [PUBLIC_ADDRESS]
    const created = await env.subscribe(url, ['XSES'])
    expect(created.status).toBe(200)
    // The name is re-pointed after subscribing, at the receiver the service must not reach.
    answer = ['127.0.0.1']
    lookups.length = 0
    await env.halt('XSES')
    const [row] = await env.t.deps.delivery.queue.forWebhook(created.body.webhook_id)
    expect(lookups).toContain(NAME)
    expect(row).toMatchObject({ state: 'queued', attempts: 1, last_status: 0 })
    expect(row!.last_error).toContain('target refused')
    expect(row!.last_error).toContain('127.0.0.1: loopback')
    expect(v4.received.filter((d) => d.json?.webhook_id === created.body.webhook_id)).toHaveLength(0)
    // The test delivery is checked the same way (its answer gives the category only).
    const tested = await env.testDelivery(created.body.webhook_id)
    expect(tested.body).toMatchObject({ delivered: false, status_code: 0, error: 'target_forbidden' })
    expect(v4.received.filter((d) => d.json?.webhook_id === created.body.webhook_id)).toHaveLength(0)
    // Control: the same target is reachable when the guard is lifted, so the refusal above is the guard's.
    const open = new WebhookSender({ allowPrivate: true, ca: certificate.cert, resolve })
    expect((await open.send({ url, secret: created.body.secret }, row!.id, row!.body, env.t.clock.now())).delivered).toBe(true)
  })

  test('one private address among public ones is enough to refuse, at subscribe and at delivery', async () => {
    answer = [PUBLIC_ADDRESS, '10.0.0.7']
    const refused = await env.subscribe(`https://${NAME}:${v4.port}/mixed`, ['XSES'])
    expect(refused.status).toBe(400)
    // The answer does not say what the name resolved to (the operator's log does).
    expect(refused.body).toEqual({ error: 'WEBHOOK_TARGET_FORBIDDEN', message: `${NAME} does not resolve to public addresses only; a webhook may not reach loopback, private, link-local or other special-purpose addresses` })
    expect(env.t.log.lines.some((line) => line.msg === 'webhook target refused' && String(line.reason).includes('10.0.0.7: private-use'))).toBe(true)
    answer = [PUBLIC_ADDRESS]
    const created = await env.subscribe(`https://${NAME}:${v4.port}/mixed`, ['XSES'])
    expect(created.status).toBe(200)
    answer = [PUBLIC_ADDRESS, 'fd12::1']
    const tested = await env.testDelivery(created.body.webhook_id)
    expect(tested.body).toMatchObject({ delivered: false, status_code: 0, error: 'target_forbidden' })
  })
})

describe('IPv6 receivers and name pinning (guard lifted, as inside an operator network)', () => {
  let env: Awaited<ReturnType<typeof app>>

  beforeAll(async () => {
    env = await app({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' })
  })

  test('a state change is delivered to an IPv6 literal URL, signed and verifiable', async () => {
    const created = await env.subscribe(v6.url('/v6'), ['XHKG'])
    expect(created.status).toBe(200)
    expect(created.body.url).toBe(`https://[::1]:${v6.port}/v6`)
    await env.halt('XHKG')
    const deliveries = v6.received.filter((d) => d.json?.webhook_id === created.body.webhook_id)
    expect(deliveries).toHaveLength(1)
    expect(verifyDelivery(created.body.secret, deliveries[0]!, env.t.clock.now())).toBeTruthy()
    expect(deliveries[0]!.json).toMatchObject({ mic: 'XHKG', current_status: 'HALTED' })
    expect(deliveries[0]!.headers.host).toBe(`[::1]:${v6.port}`)
  })

  test('a name resolving to ::1 is sent to [::1] with the name in Host and the certificate checked against the name', async () => {
    answer = ['::1']
    const created = await env.subscribe(`https://${NAME}:${v6.port}/named6`, ['XHKG'])
    const tested = await env.testDelivery(created.body.webhook_id)
    expect(tested.body).toMatchObject({ delivered: true, status_code: 200 })
    expect(v6.received.at(-1)!.headers.host).toBe(`${NAME}:${v6.port}`)
  })

  test('a name resolving to 127.0.0.1 verifies the certificate by the name (it has no 127.0.0.1 entry); another name is refused', async () => {
    answer = ['127.0.0.1']
    const created = await env.subscribe(`https://${NAME}:${v4.port}/named4`, ['XHKG'])
    const tested = await env.testDelivery(created.body.webhook_id)
    expect(tested.body).toMatchObject({ delivered: true, status_code: 200 })
    expect(v4.received.at(-1)!.headers.host).toBe(`${NAME}:${v4.port}`)
    // The same address under a name the certificate does not carry: the TLS check fails.
    const sender = new WebhookSender({ allowPrivate: true, ca: certificate.cert, resolve: (async () => [{ address: '127.0.0.1', family: 4 }]) as never })
    const wrong = await sender.send({ url: `https://other.example.test:${v4.port}/x`, secret: created.body.secret }, 'msg_x', '{}', env.t.clock.now())
    expect(wrong).toMatchObject({ delivered: false, statusCode: 0 })
  })
})
