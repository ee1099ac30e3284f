// Which surfaces log (every live receipt; not demo, not the sample door), what a row holds,
// group commit under concurrency, and failing closed when the log cannot be written.
import { describe, expect, test } from 'bun:test'
import { issueKey, hashKey } from '../../src/accounts/keys'
import { SUPPORTED_MICS } from '../../src/calendar/mics'
import { freePort } from '../helpers/process'
import { makeTestApp } from '../helpers/app'

const NOW = '2026-03-10T15:00:00.000Z'

async function setup() {
  const harness = makeTestApp({ now: NOW })
  const { key } = await issueKey(harness.deps.accounts, { plan: 'pro', now: new Date(NOW) })
  const rows = () => harness.db.query('SELECT * FROM audit_log ORDER BY seq').all() as Record<string, string | null>[]
  return { harness, key, rows, headers: { 'x-oracle-key': key } }
}

describe('every live surface logs before answering', () => {
  test('/v5/status, /v5/status/realtime and each receipt of /v5/batch; demo and the sample door do not', async () => {
    const { harness, key, rows, headers } = await setup()
    await harness.json('/v5/demo')
    await harness.json('/v1/safe-to-trade/sample?max_age=30')
    expect(rows()).toHaveLength(0)
    const status = (await harness.json('/v5/status?mic=XLON', { headers })).body
    const realtime = (await harness.json('/v5/status/realtime?mic=XNAS', { headers })).body.signed_receipt
    const batch = (await harness.json('/v5/batch?mics=XNYS,XJPX,XHKG', { headers })).body.receipts
    const logged = rows()
    expect(logged.map((row) => row.receipt_id)).toEqual([status.receipt_id, realtime.receipt_id, ...batch.map((r: { receipt_id: string }) => r.receipt_id)])
    expect(logged.map((row) => row.surface)).toEqual(['/v5/status', '/v5/status/realtime', '/v5/batch', '/v5/batch', '/v5/batch'])
    for (const row of logged) {
      expect(row.key_hash).toBe(hashKey(key))
      expect(row.payment_ref).toBeNull()
      expect(row.day).toBe('2026-03-10')
      const body = JSON.parse(row.receipt_json!)
      expect(body.receipt_id).toBe(row.receipt_id)
      expect([row.mic, row.status, row.source, row.issued_at, row.schema_version]).toEqual([body.mic, body.status, body.source, body.issued_at, body.schema_version])
    }
    expect(JSON.parse(logged[0]!.receipt_json!)).toEqual(status)
  })

  test('webhook deliveries (dispatcher and test delivery) log their receipt; conformance vectors do not, and have no proof', async () => {
    const harness = makeTestApp({ now: '2026-03-02T14:29:30.000Z', env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } })
    const { key } = await issueKey(harness.deps.accounts, { plan: 'pro', now: new Date(harness.clock.now()) })
    const headers = { 'x-oracle-key': key, 'content-type': 'application/json' }
    const rows = () => harness.db.query('SELECT receipt_id, surface, key_hash, client_ref, receipt_json FROM audit_log ORDER BY seq').all() as Record<string, string | null>[]
    const vectors = (await harness.json('/v5/conformance-vectors')).body.vectors as { receipt: { receipt_id: string } }[]
    expect(vectors.length).toBeGreaterThan(0)
    expect(rows()).toHaveLength(0)
    for (const vector of vectors) expect((await harness.json(`/v5/audit/proof?receipt_id=${vector.receipt.receipt_id}`)).body.error).toBe('RECEIPT_NOT_FOUND')

    // A target nothing listens on (a free port, as webhooks may use 1024–65535): the receipt is
    // logged whether or not the delivery succeeds.
    const subscribed = await harness.json('/v5/webhooks/subscribe', { method: 'POST', headers, body: JSON.stringify({ url: `https://127.0.0.1:${freePort()}/hook`, mics: ['XNYS'] }) })
    expect(subscribed.status).toBe(200)
    const tested = await harness.json(`/v5/webhooks/test/${subscribed.body.webhook_id}`, { method: 'POST', headers })
    expect(tested.status).toBe(200)
    expect(rows()).toMatchObject([{ receipt_id: tested.body.payload_sent.receipt.receipt_id, surface: '/v5/webhooks/test', key_hash: hashKey(key) }])

    // XNYS opens at 14:30 UTC: the dispatcher's cycle signs one receipt for the change, logged before it is queued.
    await harness.deps.delivery.dispatcher.cycle()
    harness.clock.set('2026-03-02T14:30:05.000Z')
    await harness.deps.delivery.dispatcher.cycle()
    const queued = await harness.deps.delivery.queue.forWebhook(subscribed.body.webhook_id)
    expect(queued).toHaveLength(1)
    const delivered = JSON.parse(queued[0]!.body).receipt
    expect(delivered.status).toBe('OPEN')
    const logged = rows().at(-1)!
    expect(logged).toMatchObject({ receipt_id: delivered.receipt_id, surface: 'webhooks', client_ref: 'webhook-dispatcher' })
    expect(JSON.parse(logged.receipt_json!)).toEqual(delivered)
  })

  test('/v5/status answers the logged text itself, as JSON, with its headers', async () => {
    const { harness, rows, headers } = await setup()
    const response = await harness.request('/v5/status?mic=XLON', { headers: { ...headers, origin: 'https://example.test' } })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/json;charset=utf-8')
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    expect(response.headers.get('access-control-allow-origin')).toBe('https://example.test')
    expect(response.headers.get('x-ratelimit-limit')).not.toBeNull()
    expect(await response.text()).toBe(rows()[0]!.receipt_json!)
  })

  test('200 concurrent requests: every answered receipt is committed, in far fewer transactions than requests', async () => {
    const { harness, rows, headers } = await setup()
    const commitsBefore = harness.deps.audit.committed
    let transactions = 0
    const store = harness.deps.audit.store
    const insertBatch = store.insertBatch.bind(store)
    store.insertBatch = (batch) => {
      transactions++
      return insertBatch(batch)
    }
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => harness.json(`/v5/status?mic=${SUPPORTED_MICS[i % SUPPORTED_MICS.length]}`, { headers })))
    expect(answers.every((answer) => answer.status === 200)).toBe(true)
    const ids = new Set(rows().map((row) => row.receipt_id))
    for (const answer of answers) expect(ids.has(answer.body.receipt_id)).toBe(true)
    expect(harness.deps.audit.committed - commitsBefore).toBe(200)
    expect(transactions).toBeLessThan(20)
  })

  test('when the log cannot be written every live surface answers 503 AUDIT_LOG_UNAVAILABLE, and recovers', async () => {
    const { harness, rows, headers } = await setup()
    // A real write failure inside SQLite (as a full disk or a broken file would give).
    harness.db.run("CREATE TRIGGER audit_fail BEFORE INSERT ON audit_log BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END")
    for (const path of ['/v5/status', '/v5/status/realtime', '/v5/batch?mics=XNYS,XLON']) {
      const response = await harness.json(path, { headers })
      expect(response.status).toBe(503)
      expect(response.body.error).toBe('AUDIT_LOG_UNAVAILABLE')
      expect(response.body.receipt_id).toBeUndefined()
    }
    const paidDoor = await harness.json('/v1/safe-to-trade?venue=XNYS&max_age=30', { headers })
    expect([paidDoor.status, paidDoor.body.error, paidDoor.body.signature]).toEqual([503, 'AUDIT_LOG_UNAVAILABLE', undefined])
    // The tool endpoint answers a tool error naming the code, and no receipt.
    const tool = await harness.json('/mcp', { method: 'POST', headers: { 'content-type': 'application/json', 'cf-connecting-ip': '203.0.113.9' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_market_status', arguments: { mic: 'XNYS' } } }) })
    expect(tool.body.result.isError).toBe(true)
    expect(JSON.parse(tool.body.result.content[0].text)).toMatchObject({ error: 'AUDIT_LOG_UNAVAILABLE' })
    expect((await harness.json('/v5/demo')).status).toBe(200)
    expect(rows()).toHaveLength(0)
    // Five failed writes, one error line (not one per batch); the recovery is one info line.
    expect(harness.log.lines.filter((line) => line.level === 'error' && String(line.msg).startsWith('audit log write'))).toHaveLength(1)
    harness.db.run('DROP TRIGGER audit_fail')
    expect((await harness.json('/v5/status', { headers })).status).toBe(200)
    expect(rows()).toHaveLength(1)
    expect(harness.log.lines.find((line) => line.msg === 'audit log writes recovered')).toMatchObject({ failed_writes: 5 })
  })
})
