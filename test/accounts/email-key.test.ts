import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { makeTestApp } from '../helpers/app'
import { keyInMail, startSmtp, type TestSmtp } from '../helpers/smtp'
import { EMAIL_KEYS_PER_ADDRESS, EMAIL_KEY_WINDOW_HOURS } from '../../src/accounts/offers'
import { keysInLog, post, restarted } from './self-service-helpers'

let smtp: TestSmtp
beforeAll(async () => {
  smtp = await startSmtp()
})
afterAll(async () => {
  await smtp.close()
})

const mailEnv = () => ({ SMTP_URL: smtp.url, MAIL_FROM: 'openbell <keys@oracle.test>' })
const request = (harness: Parameters<typeof post>[0], body: unknown, address?: string) => post(harness, '/v5/keys/request', body, address)
const count = (harness: ReturnType<typeof makeTestApp>, sql: string) => (harness.db.query(sql).get() as { n: number }).n

describe('POST /v5/keys/request', () => {
  test('the key arrives by e-mail only, works on /v5/status, and is erased from the outbox once sent', async () => {
    const harness = makeTestApp({ env: mailEnv() })
    const before = smtp.received.length
    const answer = await request(harness, { email: ' agent.owner@example.com ' })
    expect(answer.status).toBe(200)
    expect(answer.body.plan).toBe('free')
    expect(typeof answer.body.message).toBe('string')
    expect(JSON.stringify(answer.body)).not.toMatch(/svc_free_[0-9a-f]/)
    // Stored before the answer, sent by the job.
    expect(count(harness, `SELECT count(*) AS n FROM mail_outbox WHERE state = 'queued'`)).toBe(1)
    expect(await harness.deps.mail.tick()).toBe(1)
    const [mail] = (await smtp.waitFor(before + 1)).slice(before)
    expect(mail!.to).toEqual(['agent.owner@example.com'])
    expect(mail!.from).toBe('keys@oracle.test')
    const key = keyInMail(mail!, 'svc_free_')
    const status = await harness.json('/v5/status?mic=XNYS', { headers: { 'x-oracle-key': key } })
    expect(status.status).toBe(200)
    const stored = harness.db.query('SELECT state, body FROM mail_outbox').get() as { state: string; body: string }
    expect(stored.state).toBe('sent')
    expect(stored.body).not.toContain(key)
    expect(stored.body).toContain(key.slice(0, 17))
    expect(keysInLog(harness.log.lines)).toEqual([])
  })

  test('bad e-mail → 400 INVALID_EMAIL, nothing stored', async () => {
    const harness = makeTestApp({ env: mailEnv() })
    for (const body of [{}, { email: '' }, { email: 'no-at-sign' }, { email: 'a@b' }, { email: 'two@@example.com' }, { email: 7 }, { email: 'x <x@example.com>' }, 'nope']) {
      const answer = await request(harness, body)
      expect(answer.status).toBe(400)
      expect(answer.body.error).toBe('INVALID_EMAIL')
    }
    expect(count(harness, 'SELECT count(*) AS n FROM api_keys')).toBe(0)
    expect(count(harness, 'SELECT count(*) AS n FROM mail_outbox')).toBe(0)
  })

  test('other methods → 405', async () => {
    const harness = makeTestApp({ env: mailEnv() })
    for (const method of ['GET', 'PUT', 'DELETE', 'PATCH']) {
      const answer = await harness.json('/v5/keys/request', { method })
      expect(answer.status).toBe(405)
      expect(answer.body.error).toBe('METHOD_NOT_ALLOWED')
    }
  })

  test('without SMTP_URL → 503 EMAIL_NOT_CONFIGURED and no key', async () => {
    const harness = makeTestApp()
    const answer = await request(harness, { email: 'someone@example.com' })
    expect(answer.status).toBe(503)
    expect(answer.body.error).toBe('EMAIL_NOT_CONFIGURED')
    expect(count(harness, 'SELECT count(*) AS n FROM api_keys')).toBe(0)
  })

  test(`${EMAIL_KEYS_PER_ADDRESS} per client address per ${EMAIL_KEY_WINDOW_HOURS} h, then 429 with Retry-After; kept across a restart`, async () => {
    const harness = makeTestApp({ env: mailEnv(), fileDatabase: true })
    const start = harness.clock.now()
    for (let i = 0; i < EMAIL_KEYS_PER_ADDRESS; i++) expect((await request(harness, { email: `user${i}@example.com` })).status).toBe(200)
    harness.clock.advance(3_600_000)
    const again = restarted(harness, harness.clock.now())
    const refused = await request(again, { email: 'late@example.com' })
    expect(refused.status).toBe(429)
    expect(refused.body.error).toBe('RATE_LIMITED')
    expect(refused.headers.get('retry-after')).toBe(String((EMAIL_KEY_WINDOW_HOURS - 1) * 3600))
    again.clock.ms = start + EMAIL_KEY_WINDOW_HOURS * 3_600_000
    expect((await request(again, { email: 'late@example.com' })).status).toBe(200)
    again.db.close()
  })

  test(`the ${EMAIL_KEY_WINDOW_HOURS} hours slide: never more than ${EMAIL_KEYS_PER_ADDRESS} in any ${EMAIL_KEY_WINDOW_HOURS} hours (frozen clock)`, async () => {
    const harness = makeTestApp({ env: mailEnv() })
    const hour = 3_600_000
    const start = harness.clock.now()
    expect((await request(harness, { email: 'early@example.com' })).status).toBe(200)
    harness.clock.ms = start + (EMAIL_KEY_WINDOW_HOURS - 1) * hour
    for (let i = 1; i < EMAIL_KEYS_PER_ADDRESS; i++) expect((await request(harness, { email: `late${i}@example.com` })).status).toBe(200)
    // One millisecond before the first request is 24 hours old: still refused, until exactly then.
    harness.clock.ms = start + EMAIL_KEY_WINDOW_HOURS * hour - 1
    expect((await request(harness, { email: 'next@example.com' })).headers.get('retry-after')).toBe('1')
    harness.clock.ms = start + EMAIL_KEY_WINDOW_HOURS * hour
    // Only the first request's unit has come back; the later ones count for 23 hours more.
    expect((await request(harness, { email: 'next@example.com' })).status).toBe(200)
    const refused = await request(harness, { email: 'more@example.com' })
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toBe(String((EMAIL_KEY_WINDOW_HOURS - 1) * 3600))
    expect(refused.body.retry_at).toBe(new Date(start + (2 * EMAIL_KEY_WINDOW_HOURS - 1) * hour).toISOString())
    expect(count(harness, 'SELECT count(*) AS n FROM api_keys')).toBe(EMAIL_KEYS_PER_ADDRESS + 1)
  })

  test('one recipient cannot be sent more than the limit from many addresses', async () => {
    const harness = makeTestApp({ env: mailEnv() })
    for (let i = 0; i < EMAIL_KEYS_PER_ADDRESS; i++) expect((await request(harness, { email: 'Victim@Example.com' }, `192.0.2.${i + 1}`)).status).toBe(200)
    expect((await request(harness, { email: 'victim@example.com' }, '192.0.2.99')).status).toBe(429)
  })

  test('a message stored before a crash is sent after the restart', async () => {
    const harness = makeTestApp({ env: mailEnv(), fileDatabase: true })
    const before = smtp.received.length
    expect((await request(harness, { email: 'durable@example.com' })).status).toBe(200)
    // The process stops before its mail job ran; a new one over the same file sends the message.
    const again = restarted(harness, harness.clock.now() + 1000)
    expect(await again.deps.mail.tick()).toBe(1)
    const [mail] = (await smtp.waitFor(before + 1)).slice(before)
    expect(mail!.to).toEqual(['durable@example.com'])
    const key = keyInMail(mail!, 'svc_free_')
    expect((await again.json('/v5/status?mic=XNYS', { headers: { 'x-oracle-key': key } })).status).toBe(200)
    again.db.close()
  })
})
