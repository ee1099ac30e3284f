// A real-time halt (not an operator override) reaches both delivery paths at once: the stream's
// terminal `halted` event and a webhook delivery, each with a REALTIME receipt. The halt feed is a
// real HTTP server on loopback answering the JSON market-status format; the webhook receiver is a
// real HTTPS server (test-made certificate) verifying with `standardwebhooks`.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { makeTestApp, type TestApp } from '../helpers/app'
import { issueKey } from '../../src/accounts/keys'
import { waitFor } from '../helpers/process'
import { makeCertificate, startReceiver, verifyDelivery, type TestCertificate } from '../helpers/https-receiver'
import { verifyWithRegistry, type KeyRegistry } from '../helpers/verify'

let feedState: 'open' | 'halted' = 'open'
let feed: ReturnType<typeof Bun.serve>
let certificate: TestCertificate
let receiver: ReturnType<typeof startReceiver>
let t: TestApp
let base: string
let stopServer: () => void
let stopDispatcher: () => Promise<void>
let key: string
let registry: KeyRegistry

beforeAll(async () => {
  feed = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => Response.json({ exchanges: { nyse: feedState, nasdaq: 'open' } }) })
  certificate = makeCertificate()
  receiver = startReceiver(certificate)
  // 15:00 UTC on Monday 2026-03-02: XNYS is in its regular session.
  t = makeTestApp({ now: '2026-03-02T15:00:00.000Z', env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' }, haltFeed: { url: `http://127.0.0.1:${feed.port}/status`, format: 'json', intervalMs: 30_000 } })
  t.deps.delivery.sender.ca = certificate.cert
  const server = t.app.listen({ port: 0, hostname: '127.0.0.1' })
  stopServer = () => void server.stop(true)
  base = `http://127.0.0.1:${server.server!.port}`
  registry = (await (await fetch(`${base}/v5/keys`)).json()) as KeyRegistry
  key = (await issueKey(t.deps.accounts, { plan: 'pro', now: new Date(t.clock.now()) })).key
  await t.deps.halts.tick()
  expect(t.deps.halts.haltedMics()).toEqual([])
  stopDispatcher = t.deps.delivery.dispatcher.start()
})

afterAll(async () => {
  await stopDispatcher?.()
  t.deps.delivery.streams.closeAll()
  stopServer()
  receiver.stop()
  feed.stop(true)
  certificate.dispose()
})

describe('a real-time halt', () => {
  test('ends the XNYS stream with `halted` and is delivered to the XNYS webhook, both within a second', async () => {
    const subscribed = await t.json('/v5/webhooks/subscribe', { method: 'POST', headers: { 'x-oracle-key': key, 'content-type': 'application/json' }, body: JSON.stringify({ url: receiver.url('/halts'), mics: ['XNYS'] }) })
    expect(subscribed.status).toBe(200)
    const response = await fetch(`${base}/v5/stream?mic=XNYS&key=${key}`)
    const reader = response.body!.getReader()
    let text = ''
    while (!text.includes('event: market_status')) text += new TextDecoder().decode((await reader.read()).value)
    expect(text).toContain('"status":"OPEN"')

    feedState = 'halted'
    const polled = Date.now()
    await t.deps.halts.tick()
    expect(t.deps.halts.haltedMics()).toEqual(['XNYS'])
    for (;;) {
      const chunk = await reader.read()
      if (chunk.done) break
      text += new TextDecoder().decode(chunk.value)
    }
    const streamed = JSON.parse(text.slice(text.indexOf('event: halted')).split('\n')[1]!.slice('data: '.length))
    expect(streamed).toMatchObject({ mic: 'XNYS', status: 'HALTED', source: 'REALTIME' })
    expect(verifyWithRegistry(registry, streamed)).toBe(true)

    const delivery = await waitFor(() => receiver.received.find((d) => d.json?.webhook_id === subscribed.body.webhook_id), 3000, 'the halt delivery')
    expect(delivery.at - polled).toBeLessThan(1000)
    expect(verifyDelivery(subscribed.body.secret, delivery, t.clock.now())).toBeTruthy()
    expect(delivery.json).toMatchObject({ mic: 'XNYS', previous_status: 'OPEN', current_status: 'HALTED', receipt: { status: 'HALTED', source: 'REALTIME' } })
    expect(verifyWithRegistry(registry, delivery.json.receipt)).toBe(true)
    // Both receipts are in the audit log, under the surface that issued them.
    t.deps.audit.commit()
    await Bun.sleep(20)
    const logged = (id: string) => t.db.query('SELECT surface, client_ref FROM audit_log WHERE receipt_id = ?').get(id)
    expect(logged(delivery.json.receipt.receipt_id)).toEqual({ surface: 'webhooks', client_ref: 'webhook-dispatcher' })
    expect(logged(streamed.receipt_id)).toEqual({ surface: '/v5/stream', client_ref: 'stream-coordinator' })

    // The resumption is delivered too (the feed shows the venue open again).
    feedState = 'open'
    await t.deps.halts.tick()
    const resumed = await waitFor(() => receiver.received.filter((d) => d.json?.webhook_id === subscribed.body.webhook_id)[1], 3000, 'the resumption delivery')
    expect(resumed.json).toMatchObject({ previous_status: 'HALTED', current_status: 'OPEN' })
  })
})
