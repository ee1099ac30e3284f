import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { makeTestApp } from '../helpers/app'
import { keyInMail, startSmtp, type TestSmtp } from '../helpers/smtp'
import { SANDBOX_CALLS, SANDBOX_DAYS, USE_CASE_MAX } from '../../src/accounts/offers'
import { keysInLog, KEY_PATTERN, post, restarted } from './self-service-helpers'

let smtp: TestSmtp
beforeAll(async () => {
  smtp = await startSmtp()
})
afterAll(async () => {
  await smtp.close()
})

const DAY_MS = 86_400_000
const sandbox = (harness: Parameters<typeof post>[0], body: unknown, address?: string, headers?: Record<string, string>) => post(harness, '/v5/sandbox', body, address, headers)
const count = (harness: ReturnType<typeof makeTestApp>, sql: string) => (harness.db.query(sql).get() as { n: number }).n

describe('POST /v5/sandbox', () => {
  test('a sandbox key with its fields, e-mailed as well, that expires after the window', async () => {
    const harness = makeTestApp({ env: { SMTP_URL: smtp.url, MAIL_FROM: 'keys@oracle.test' } })
    const before = smtp.received.length
    const answer = await sandbox(harness, { email: 'dev@example.com', use_case: 'testing market hours in my agent' })
    expect(answer.status).toBe(200)
    const body = answer.body
    expect(body.api_key).toMatch(KEY_PATTERN('sb_'))
    expect(body.tier).toBe('sandbox')
    expect(body.email_captured).toBe(true)
    expect(body.email_sent).toBe(true)
    expect(body.calls_remaining).toBe(SANDBOX_CALLS)
    expect(Date.parse(body.expires_at)).toBe(harness.clock.now() + SANDBOX_DAYS * DAY_MS)
    expect(body.upgrade_url).toStartWith('http')
    for (const snippet of ['curl', 'javascript', 'python']) expect(body.quickstart[snippet]).toContain(body.api_key)
    const row = harness.db.query('SELECT class, plan, calls_remaining, expires_at, email FROM api_keys').get() as Record<string, unknown>
    expect(row).toEqual({ class: 'sandbox', plan: 'sandbox', calls_remaining: SANDBOX_CALLS, expires_at: body.expires_at, email: 'dev@example.com' })
    expect(harness.db.query('SELECT use_case FROM key_events').get()).toEqual({ use_case: 'testing market hours in my agent' })

    await harness.deps.mail.tick()
    const [mail] = (await smtp.waitFor(before + 1)).slice(before)
    expect(keyInMail(mail!, 'sb_')).toBe(body.api_key)
    expect(mail!.to).toEqual(['dev@example.com'])

    const headers = { 'x-oracle-key': body.api_key }
    expect((await harness.json('/v5/status?mic=XNYS', { headers })).status).toBe(200)
    harness.clock.ms = Date.parse(body.expires_at) - 1
    expect((await harness.json('/v5/status?mic=XNYS', { headers })).status).toBe(200)
    harness.clock.ms = Date.parse(body.expires_at)
    expect((await harness.json('/v5/status?mic=XNYS', { headers })).status).toBe(402)
    expect(keysInLog(harness.log.lines)).toEqual([])
  })

  test('without e-mail configured the key is answered and not mailed', async () => {
    const harness = makeTestApp()
    const answer = await sandbox(harness, { email: 'dev@example.com' })
    expect(answer.status).toBe(200)
    expect(answer.body.email_sent).toBe(false)
    expect(count(harness, 'SELECT count(*) AS n FROM mail_outbox')).toBe(0)
  })

  test('bad input → 400, nothing stored', async () => {
    const harness = makeTestApp()
    const cases: [unknown, string][] = [
      [{}, 'INVALID_EMAIL'],
      [{ email: 'nope' }, 'INVALID_EMAIL'],
      [{ email: 5 }, 'INVALID_EMAIL'],
      ['{', 'INVALID_EMAIL'],
      [{ email: 'ok@example.com', use_case: 'u'.repeat(USE_CASE_MAX + 1) }, 'INVALID_USE_CASE'],
      [{ email: 'ok@example.com', use_case: ['list'] }, 'INVALID_USE_CASE'],
    ]
    for (const [body, code] of cases) {
      const answer = await sandbox(harness, body)
      expect(answer.status).toBe(400)
      expect(answer.body.error).toBe(code)
    }
    expect(count(harness, 'SELECT count(*) AS n FROM api_keys')).toBe(0)
    expect(count(harness, 'SELECT count(*) AS n FROM address_limits')).toBe(0)
    expect((await sandbox(harness, { email: 'ok@example.com', use_case: 'u'.repeat(USE_CASE_MAX) })).status).toBe(200)
  })

  test('one per e-mail or address per 7 days → 429 SANDBOX_LIMIT_REACHED; a restart keeps it; the window ends', async () => {
    const harness = makeTestApp({ fileDatabase: true })
    const start = harness.clock.now()
    expect((await sandbox(harness, { email: 'first@example.com' }, '198.51.100.1')).status).toBe(200)
    const sameAddress = await sandbox(harness, { email: 'second@example.com' }, '198.51.100.1')
    expect(sameAddress.status).toBe(429)
    expect(sameAddress.body.error).toBe('SANDBOX_LIMIT_REACHED')
    expect(typeof sameAddress.body.message).toBe('string')
    expect(sameAddress.body.upgrade_url).toStartWith('http')
    expect(sameAddress.body.plans).toBeObject()
    expect(sameAddress.headers.get('retry-after')).toBe(String(SANDBOX_DAYS * 86_400))
    // Same e-mail (any case) from another address.
    expect((await sandbox(harness, { email: 'FIRST@example.com' }, '198.51.100.2')).body.error).toBe('SANDBOX_LIMIT_REACHED')
    // The refused e-mail did not spend the other address's allowance.
    expect((await sandbox(harness, { email: 'third@example.com' }, '198.51.100.2')).status).toBe(200)
    const again = restarted(harness, start + SANDBOX_DAYS * DAY_MS - 1000)
    expect((await sandbox(again, { email: 'first@example.com' }, '198.51.100.3')).status).toBe(429)
    again.clock.ms = start + SANDBOX_DAYS * DAY_MS
    expect((await sandbox(again, { email: 'first@example.com' }, '198.51.100.1')).status).toBe(200)
    again.db.close()
  })

  test('X-Payment: 503 when payments are not configured; a malformed proof is refused and makes no key', async () => {
    const plain = makeTestApp()
    const unconfigured = await sandbox(plain, {}, undefined, { 'x-payment': 'e30=' })
    expect(unconfigured.status).toBe(503)
    expect(unconfigured.body.error).toBe('PAYMENTS_NOT_CONFIGURED')
    const paying = makeTestApp({ env: { X402_PAY_TO: '0x' + '1'.repeat(40) } })
    const malformed = await sandbox(paying, { email: 'x@example.com' }, undefined, { 'x-payment': 'e30=' })
    expect(malformed.status).toBe(402)
    expect(malformed.body.error).toMatch(/^PAYMENT_/)
    expect(count(paying, 'SELECT count(*) AS n FROM api_keys')).toBe(0)
  })
})
