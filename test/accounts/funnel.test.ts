import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { makeTestApp, TEST_ADMIN_KEY } from '../helpers/app'
import { startSmtp, type TestSmtp } from '../helpers/smtp'
import { post } from './self-service-helpers'

let smtp: TestSmtp
beforeAll(async () => {
  smtp = await startSmtp()
})
afterAll(async () => {
  await smtp.close()
})

const admin = { 'x-oracle-key': TEST_ADMIN_KEY }

describe('GET /v5/funnel', () => {
  test('keys issued that day by channel, and the share that made a metered call', async () => {
    const harness = makeTestApp({ now: '2026-03-02T10:00:00.000Z', env: { SMTP_URL: smtp.url, MAIL_FROM: 'keys@oracle.test' } })
    const used = await post(harness, '/v5/keys/instant', { agent_id: 'funnel-a' })
    await post(harness, '/v5/keys/instant', { agent_id: 'funnel-b' })
    await post(harness, '/v5/keys/request', { email: 'f@example.com' })
    await post(harness, '/v5/sandbox', { email: 's@example.com' })
    const before = await harness.json('/v5/funnel?date=2026-03-02', { headers: admin })
    expect(before.status).toBe(200)
    expect(before.body).toMatchObject({ date: '2026-03-02', top_of_funnel: 4, conversion_rate: 0, channels: { instant: 2, email: 1, sandbox: 1 } })
    harness.clock.set('2026-03-03T09:00:00.000Z')
    expect((await harness.json('/v5/status?mic=XNYS', { headers: { 'x-oracle-key': used.body.api_key } })).status).toBe(200)
    const after = await harness.json('/v5/funnel?date=2026-03-02', { headers: admin })
    expect(after.body.top_of_funnel).toBe(4)
    expect(after.body.conversion_rate).toBe(1 / 4)
    // Default date: today (UTC), which has no keys yet.
    expect((await harness.json('/v5/funnel', { headers: admin })).body).toMatchObject({ date: '2026-03-03', top_of_funnel: 0, conversion_rate: 0 })
  })

  test("a metered call stored in key_usage counts as conversion, before and without the audit log", async () => {
    const harness = makeTestApp()
    const issued = await post(harness, '/v5/keys/instant', { agent_id: 'metered-use' })
    expect(issued.status).toBe(200)
    const day = new Date(harness.clock.now()).toISOString().slice(0, 10)
    // Nothing else reports a use here: only the metering's stored count can.
    expect((await harness.deps.selfService.events.funnel(day, async () => false)).conversion_rate).toBe(0)
    const account = harness.db.query('SELECT id FROM api_keys WHERE agent_id = ?').get('metered-use') as { id: number }
    harness.db.query('INSERT INTO key_usage (account_id, day, requests) VALUES (?, ?, 1)').run(account.id, day)
    expect((await harness.deps.selfService.events.funnel(day, async () => false)).conversion_rate).toBe(1)
  })

  test('operator only: 401 without a key, 403 with a wrong one; 400 for a bad date', async () => {
    const harness = makeTestApp()
    expect((await harness.json('/v5/funnel')).status).toBe(401)
    expect((await harness.json('/v5/funnel', { headers: { 'x-oracle-key': 'wrong-admin-key-0123456789' } })).status).toBe(403)
    for (const date of ['2026-02-30', 'yesterday', '2026-3-1']) {
      const answer = await harness.json(`/v5/funnel?date=${date}`, { headers: admin })
      expect(answer.status).toBe(400)
      expect(answer.body.error).toBe('INVALID_DATE')
    }
  })
})
