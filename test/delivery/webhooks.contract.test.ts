// The webhook stores on both backends: subscriptions within the key's limit, state changes
// recorded only from a view that agrees with the database, and the delivery queue. Concurrency
// goes through two "nodes" (two pools on PostgreSQL): subscriptions created at once admit exactly
// the limit, one change recorded at once on both is queued once, and two workers sending from one
// queue to a real HTTPS receiver send each delivery once.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { randomUUID } from 'node:crypto'
import { sqliteWebhookStore, type WebhookRow, type WebhookStore } from '../../src/delivery/webhooks/store'
import { postgresWebhookStore } from '../../src/delivery/webhooks/store-postgres'
import { CLAIM_MS, sqliteDeliveryQueue, type DeliveryQueue } from '../../src/delivery/webhooks/queue'
import { postgresDeliveryQueue } from '../../src/delivery/webhooks/queue-postgres'
import { sqliteDispatcherRecords } from '../../src/delivery/webhooks/health'
import { postgresDispatcherRecords } from '../../src/delivery/webhooks/health-postgres'
import { recordBaseline, recordTransition, type TransitionStores } from '../../src/delivery/webhooks/transition'
import { DeliveryWorker } from '../../src/delivery/webhooks/worker'
import { WebhookSender } from '../../src/delivery/webhooks/send'
import { newWebhookSecret } from '../../src/delivery/webhooks/signing'
import { sqliteOverrideStore } from '../../src/market/overrides/store'
import { postgresOverrideStore } from '../../src/market/overrides/store-postgres'
import { sqliteHaltStore } from '../../src/market/halts/store'
import { postgresHaltStore } from '../../src/market/halts/store-postgres'
import { signMarketReceipt, type MarketReceipt } from '../../src/market/receipt'
import type { MarketSource, MarketStatus } from '../../src/market/resolve'
import type { Mic } from '../../src/calendar/mics'
import { memoryLogger } from '../../src/log'
import { systemClock } from '../../src/clock'
import { forEachBackend } from '../helpers/backends'
import { testNodes, type TestNode } from '../helpers/nodes'
import { testSigner, TEST_ISSUER } from '../helpers/app'
import { makeCertificate, startReceiver, verifyDelivery, type TestCertificate } from '../helpers/https-receiver'
import { waitFor } from '../helpers/process'

const NOW = Date.parse('2026-11-25T15:00:00.000Z')
const signer = testSigner()
const KEY_HASH = 'a'.repeat(64)

let certificate: TestCertificate
let receiver: ReturnType<typeof startReceiver>
beforeAll(() => {
  certificate = makeCertificate()
  receiver = startReceiver(certificate)
})
afterAll(() => {
  receiver.stop()
  certificate.dispose()
})

interface DeliveryNode extends TransitionStores {
  node: TestNode
  name: string
}

function deliveryNode(node: TestNode, name: string): DeliveryNode {
  return {
    node,
    name,
    webhooks: node.pick({ sqlite: sqliteWebhookStore, postgres: postgresWebhookStore }),
    queue: node.pick({ sqlite: sqliteDeliveryQueue, postgres: postgresDeliveryQueue }),
    overrides: node.pick({ sqlite: sqliteOverrideStore, postgres: postgresOverrideStore }),
    halts: node.pick({ sqlite: sqliteHaltStore, postgres: postgresHaltStore }),
  }
}

const webhook = (mics: string[], url = receiver.url('/contract')): WebhookRow => ({ id: randomUUID(), key_hash: KEY_HASH, url, mics, events: ['status_change'], secret: newWebhookSecret(), status: 'active', paused_reason: null, created_at: new Date(NOW).toISOString() })

const receipt = (mic: string, status: MarketStatus, source: MarketSource, at = NOW): MarketReceipt =>
  signMarketReceipt(signer, TEST_ISSUER, { mic: mic as Mic, status, source, reason: source === 'SCHEDULE' ? 'regular session' : 'operator', haltDetection: 'schedule_only' }, 'live', at)

const override = (mic: string, status: 'HALTED' | 'CLOSED') => ({ mic, status, reason: 'venue outage', expires_at: new Date(NOW + 3_600_000).toISOString(), created_at: new Date(NOW).toISOString(), created_by: 'test' })

forEachBackend('webhook stores', (fresh) => {
  const nodeOf = testNodes()
  const twoNodes = async () => {
    const backend = await fresh()
    return [deliveryNode(nodeOf(backend), 'node-a#1.aa'), deliveryNode(nodeOf(backend), 'node-b#2.bb')] as const
  }
  const create = (n: DeliveryNode, row: WebhookRow, limit = 25) => n.node.transactor.run(() => n.webhooks.create(row, limit))

  test('subscriptions created at once on two nodes admit exactly the key limit; reads, pause and delete', async () => {
    const [a, b] = await twoNodes()
    const results = await Promise.allSettled(Array.from({ length: 12 }, (_, i) => create(i % 2 ? a : b, webhook(['XNYS', 'XLON']), 5)))
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(5)
    const refused = results.filter((result) => result.status === 'rejected') as PromiseRejectedResult[]
    expect(refused.map((result) => (result.reason as { errorCode: string }).errorCode)).toEqual(Array(7).fill('WEBHOOK_LIMIT_REACHED'))
    const listed = await b.webhooks.listByKey(KEY_HASH)
    expect(listed).toHaveLength(5)
    expect(listed[0]).toMatchObject({ mics: ['XNYS', 'XLON'], events: ['status_change'], status: 'active' })
    expect(await a.webhooks.subscribedMics()).toEqual(['XLON', 'XNYS'])
    await a.webhooks.setStatus(listed[0]!.id, 'paused', 'test')
    expect(await b.node.transactor.run(() => b.webhooks.activeForMic('XNYS'))).toHaveLength(4)
    expect(await b.webhooks.delete(listed[0]!.id)).toBe(true)
    expect(await a.webhooks.get(listed[0]!.id)).toBeNull()
    expect(await a.webhooks.delete(listed[0]!.id)).toBe(false)
  }, 30_000)

  test('a change is recorded only from a view that agrees with the overrides stored now', async () => {
    const [a, b] = await twoNodes()
    const hook = webhook(['XNYS'])
    await create(a, hook)
    expect(await a.node.transactor.run(() => recordBaseline(a, 'XNYS', { status: 'OPEN', source: 'SCHEDULE' }, NOW))).toBe(true)
    expect(await b.node.transactor.run(() => recordBaseline(b, 'XNYS', { status: 'CLOSED', source: 'SCHEDULE' }, NOW))).toBe(false) // one stored already
    // Node A sets HALTED; node B's cache still says "no override": its schedule view is CLOSED.
    await a.overrides.put(override('XNYS', 'HALTED'))
    expect(await b.node.transactor.run(() => recordTransition(b, receipt('XNYS', 'CLOSED', 'SCHEDULE'), NOW + 880))).toEqual({ kind: 'stale', reason: 'the override HALTED is in force' })
    expect(await b.node.transactor.run(() => recordTransition(b, receipt('XNYS', 'CLOSED', 'OVERRIDE'), NOW + 880))).toMatchObject({ kind: 'stale' })
    expect(await a.queue.forWebhook(hook.id)).toHaveLength(0)
    // A view that agrees is recorded, with the stored state as the previous one.
    expect(await b.node.transactor.run(() => recordTransition(b, receipt('XNYS', 'HALTED', 'OVERRIDE'), NOW + 900))).toEqual({ kind: 'recorded', from: 'OPEN', deliveries: 1 })
    const [queued] = await a.queue.forWebhook(hook.id)
    expect(JSON.parse(queued!.body)).toMatchObject({ previous_status: 'OPEN', current_status: 'HALTED', mic: 'XNYS' })
    // Cleared on A: B's cached HALTED is now stale, a schedule view is not.
    await a.overrides.remove('XNYS', new Date(NOW + 1000).toISOString(), 'test')
    expect(await b.node.transactor.run(() => recordTransition(b, receipt('XNYS', 'HALTED', 'OVERRIDE'), NOW + 1100))).toEqual({ kind: 'stale', reason: 'no override is in force' })
    expect(await b.node.transactor.run(() => recordTransition(b, receipt('XNYS', 'OPEN', 'SCHEDULE'), NOW + 1100))).toEqual({ kind: 'recorded', from: 'HALTED', deliveries: 1 })
    expect(await a.node.transactor.run(() => a.queue.state('XNYS'))).toMatchObject({ status: 'OPEN', source: 'SCHEDULE' })
  })

  test('a change is recorded only from a view that agrees with the halt view the polling node published', async () => {
    const [a, b] = await twoNodes()
    await create(a, webhook(['XNAS']))
    await a.node.transactor.run(() => recordBaseline(a, 'XNAS', { status: 'OPEN', source: 'SCHEDULE' }, NOW))
    const snapshot = (halts: Record<string, unknown>) => JSON.stringify({ halts, lastPollAt: NOW, lastSuccessAt: NOW, lastError: null, failures: 0, inSessionSince: NOW })
    await a.halts.publish({ snapshot: snapshot({ XNAS: { code: 'MWCB1', reason: 'level 1', since: '10:00 ET' } }), published_at: NOW, publisher: a.name })
    // B has not adopted the halt yet: its OPEN is stale. (A view while nobody publishes is taken as it is.)
    expect(await b.node.transactor.run(() => recordTransition(b, receipt('XNAS', 'CLOSED', 'SCHEDULE'), NOW + 500))).toEqual({ kind: 'stale', reason: 'a real-time halt is in force' })
    expect(await b.node.transactor.run(() => recordTransition(b, receipt('XNAS', 'HALTED', 'REALTIME'), NOW + 500))).toMatchObject({ kind: 'recorded', from: 'OPEN' })
    await a.halts.publish({ snapshot: snapshot({}), published_at: NOW + 60_000, publisher: a.name })
    expect(await b.node.transactor.run(() => recordTransition(b, receipt('XNAS', 'HALTED', 'REALTIME'), NOW + 60_500))).toEqual({ kind: 'stale', reason: 'no real-time halt is in force' })
    // An override outranks the halt view.
    await a.overrides.put(override('XNAS', 'CLOSED'))
    expect(await b.node.transactor.run(() => recordTransition(b, receipt('XNAS', 'CLOSED', 'OVERRIDE'), NOW + 61_000))).toMatchObject({ kind: 'recorded', from: 'HALTED' })
  })

  test('the same change recorded at once on two nodes is queued once', async () => {
    const [a, b] = await twoNodes()
    const hooks = [webhook(['XLON']), webhook(['XLON']), webhook(['XLON'])]
    for (const hook of hooks) await create(a, hook)
    await a.node.transactor.run(() => recordBaseline(a, 'XLON', { status: 'OPEN', source: 'SCHEDULE' }, NOW))
    await a.overrides.put(override('XLON', 'HALTED'))
    const outcomes = await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 ? a : b)).map((n) => n.node.transactor.run(() => recordTransition(n, receipt('XLON', 'HALTED', 'OVERRIDE'), NOW + 10))))
    expect(outcomes.filter((outcome) => outcome.kind === 'recorded')).toHaveLength(1)
    expect(outcomes.filter((outcome) => outcome.kind === 'unchanged')).toHaveLength(7)
    expect(await a.node.query(`SELECT count(*)::int AS n FROM webhook_deliveries`)).toEqual([{ n: 3 }])
  }, 30_000)

  test('two workers sending from one queue at once: every delivery reaches the receiver once, each sent by one node', async () => {
    const [a, b] = await twoNodes()
    const hooks = Array.from({ length: 3 }, () => webhook(['XTKS'], receiver.url('/two-workers')))
    for (const hook of hooks) await create(a, hook)
    await a.node.transactor.run(() => recordBaseline(a, 'XTKS', { status: 'OPEN', source: 'SCHEDULE' }, NOW))
    const now = Date.now()
    // Twenty changes, each queued for the three subscriptions: sixty deliveries due now.
    for (let i = 0; i < 20; i++) {
      const status = i % 2 ? 'OPEN' : 'CLOSED'
      await a.node.transactor.run(() => recordTransition(a, receipt('XTKS', status, 'SCHEDULE', now), now))
    }
    receiver.respondWith(async () => {
      await Bun.sleep(15)
      return 200
    })
    const sender = new WebhookSender({ allowPrivate: true, ca: certificate.cert })
    const workers = [a, b].map((n) => new DeliveryWorker({ clock: systemClock, log: memoryLogger(), queue: n.queue, webhooks: n.webhooks, sender, claimer: n.name, intervalSeconds: () => 2, concurrency: 4 }))
    const before = receiver.received.length
    try {
      for (const worker of workers) worker.start()
      await waitFor(async () => (await a.node.query<{ n: number }>(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE state = 'delivered'`))[0]!.n === 60, 20_000, 'sixty deliveries')
    } finally {
      await Promise.all(workers.map((worker) => worker.stop()))
      receiver.respondWith(() => 200)
    }
    const received = receiver.received.slice(before)
    expect(received).toHaveLength(60)
    expect(new Set(received.map((delivery) => delivery.headers['webhook-id'])).size).toBe(60)
    for (const delivery of received) verifyDelivery(hooks.find((hook) => hook.id === delivery.json.webhook_id)!.secret, delivery)
    const byClaimer = await b.node.query<{ claimed_by: string; n: number }>(`SELECT claimed_by, count(*)::int AS n FROM webhook_deliveries GROUP BY claimed_by ORDER BY claimed_by`)
    expect(byClaimer.map((row) => row.claimed_by)).toEqual([a.name, b.name])
    expect(await a.node.query(`SELECT DISTINCT attempts FROM webhook_deliveries`)).toEqual([{ attempts: 1 }])
  }, 40_000)

  test("a live claimer's row is never taken; a dead claimer's is claimed again when its claim ends or, known dead, at once", async () => {
    const [a, b] = await twoNodes()
    const hook = webhook(['XHKG'])
    await create(a, hook)
    await a.node.transactor.run(() => recordBaseline(a, 'XHKG', { status: 'OPEN', source: 'SCHEDULE' }, NOW))
    await a.node.transactor.run(() => recordTransition(a, receipt('XHKG', 'CLOSED', 'SCHEDULE'), NOW))
    const [claimed] = await a.queue.claim(NOW, 10, a.name)
    expect(claimed).toMatchObject({ state: 'sending', attempts: 1, claimed_by: a.name })
    expect(await b.queue.claim(NOW + CLAIM_MS - 1, 10, b.name)).toEqual([])
    expect(await b.queue.nextDueAt()).toBe(NOW + CLAIM_MS)
    // A restart of B: A is not known dead, its row stays A's.
    expect(await b.queue.requeueInterrupted(NOW + 1, () => false)).toBe(0)
    // A is gone: its claim ends and B takes the row; A's late outcome then changes nothing.
    const [taken] = await b.queue.claim(NOW + CLAIM_MS, 10, b.name)
    expect(taken).toMatchObject({ id: claimed!.id, attempts: 2, claimed_by: b.name })
    await a.queue.delivered(claimed!.id, 200, NOW + CLAIM_MS + 1, a.name)
    await a.queue.deadLetter(claimed!.id, hook.id, 503, 'HTTP 503', NOW + CLAIM_MS + 1, a.name)
    expect(await b.queue.get(claimed!.id)).toMatchObject({ state: 'sending', claimed_by: b.name })
    expect(await b.webhooks.get(hook.id)).toMatchObject({ status: 'active' })
    // B retries later; then B dies and a restart that knows it dead queues the row at once.
    await b.queue.retry(claimed!.id, NOW + CLAIM_MS + 5000, 503, 'HTTP 503', NOW + CLAIM_MS + 2, b.name)
    expect(await a.queue.get(claimed!.id)).toMatchObject({ state: 'queued', last_status: 503, next_attempt_at: NOW + CLAIM_MS + 5000 })
    await b.queue.claim(NOW + CLAIM_MS + 5000, 10, b.name)
    expect(await a.queue.requeueInterrupted(NOW + CLAIM_MS + 5001, (claimer) => claimer === b.name)).toBe(1)
    expect(await a.queue.claim(NOW + CLAIM_MS + 5001, 10, a.name)).toMatchObject([{ id: claimed!.id, attempts: 4, claimed_by: a.name }])
    // The last attempt fails: dead letter, subscription paused, its queue dead-lettered.
    await a.queue.deadLetter(claimed!.id, hook.id, 503, 'HTTP 503', NOW + CLAIM_MS + 6000, a.name)
    expect(await b.queue.get(claimed!.id)).toMatchObject({ state: 'dead', last_status: 503 })
    expect(await b.webhooks.get(hook.id)).toMatchObject({ status: 'paused' })
  })

  test('pruning, forgetting unsubscribed MICs and the dispatcher record', async () => {
    const [a, b] = await twoNodes()
    const hook = webhook(['XSWX'])
    await create(a, hook)
    await a.node.transactor.run(() => recordBaseline(a, 'XSWX', { status: 'OPEN', source: 'SCHEDULE' }, NOW))
    await a.node.transactor.run(() => recordTransition(a, receipt('XSWX', 'CLOSED', 'SCHEDULE'), NOW))
    const [row] = await a.queue.claim(NOW, 1, a.name)
    await a.queue.delivered(row!.id, 204, NOW, a.name)
    expect(await b.queue.prune(NOW + 7 * 86_400_000 - 1)).toBe(0)
    expect(await b.queue.prune(NOW + 7 * 86_400_000 + 1)).toBe(1)
    await a.webhooks.delete(hook.id)
    await b.queue.forgetUnsubscribed()
    expect(await a.node.transactor.run(() => a.queue.state('XSWX'))).toBeNull()
    const records = [a, b].map((n) => n.node.pick({ sqlite: sqliteDispatcherRecords, postgres: postgresDispatcherRecords }))
    expect(await records[1]!.read()).toBeNull()
    await records[0]!.write({ status: 'ok', next_alarm: '2026-11-25T15:01:00.000Z', checked_at: '2026-11-25T15:00:00.000Z' })
    await records[0]!.write({ status: 'unknown', next_alarm: '2026-11-25T15:02:00.000Z', checked_at: '2026-11-25T15:01:00.000Z' })
    expect(await records[1]!.read()).toEqual({ status: 'unknown', next_alarm: '2026-11-25T15:02:00.000Z', checked_at: '2026-11-25T15:01:00.000Z' })
  })
})
