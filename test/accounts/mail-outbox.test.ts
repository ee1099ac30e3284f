import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { makeTestApp } from '../helpers/app'
import { startSmtp, type TestSmtp } from '../helpers/smtp'
import { eraseKeys, sqliteMailOutbox, type OutgoingMail } from '../../src/accounts/mail/outbox'
import { backoffMs, MAIL_LEASE_MS, MAIL_MAX_ATTEMPTS, MailWorker } from '../../src/accounts/mail/worker'
import { smtpTransport } from '../../src/accounts/mail/transport'
import { runMailCommand } from '../../src/cli/mail'
import { memoryLogger } from '../../src/log'
import { keysInLog, post } from './self-service-helpers'

let smtp: TestSmtp
beforeAll(async () => {
  smtp = await startSmtp()
})
afterAll(async () => {
  await smtp.close()
})

const FAKE_KEY = 'svc_free_' + 'ab12'.repeat(16)

function outboxHarness(url = smtp.url) {
  const harness = makeTestApp()
  const outbox = sqliteMailOutbox(harness.db)
  const enqueue = (mail: OutgoingMail) => harness.deps.transactor.run(() => outbox.enqueue(mail, harness.clock.now()))
  const log = memoryLogger()
  const worker = new MailWorker(outbox, smtpTransport({ smtpUrl: url, from: 'keys@oracle.test' }), harness.clock, log)
  const row = (id: number) => harness.db.query('SELECT state, attempts, next_attempt_at, body, last_error FROM mail_outbox WHERE id = ?').get(id) as { state: string; attempts: number; next_attempt_at: number; body: string; last_error: string | null }
  return { ...harness, outbox, enqueue, worker, row, workerLog: log }
}

describe('mail outbox and job', () => {
  test('enqueue joins the caller transaction: a rollback leaves no message', async () => {
    const { deps, clock, outbox } = outboxHarness()
    await expect(
      deps.transactor.run(function* () {
        yield* outbox.enqueue({ to: 'a@example.com', subject: 's', text: 't' }, clock.now())
        throw new Error('abort')
      }),
    ).rejects.toThrow('abort')
    expect(await outbox.counts()).toEqual({ queued: 0, sent: 0, failed: 0 })
  })

  test('a refused send is retried with backoff, then delivered; the key is erased from the body', async () => {
    const { enqueue, clock, worker, row, workerLog } = outboxHarness()
    const id = await enqueue({ to: 'retry@example.com', subject: 'Your key', text: `key: ${FAKE_KEY}` })
    const before = smtp.received.length
    smtp.refuseNext = 2
    expect(await worker.tick()).toBe(0)
    expect(row(id)).toMatchObject({ state: 'queued', attempts: 1, next_attempt_at: clock.now() + backoffMs(1) })
    expect(row(id).last_error).toContain('451')
    // Not due yet: nothing is tried.
    clock.advance(backoffMs(1) - 1)
    expect(await worker.tick()).toBe(0)
    expect(row(id).attempts).toBe(1)
    clock.advance(1)
    expect(await worker.tick()).toBe(0)
    expect(row(id)).toMatchObject({ attempts: 2, next_attempt_at: clock.now() + backoffMs(2) })
    expect(backoffMs(2)).toBe(2 * backoffMs(1))
    clock.advance(backoffMs(2))
    expect(await worker.tick()).toBe(1)
    const [mail] = (await smtp.waitFor(before + 1)).slice(before)
    expect(mail!.text).toContain(FAKE_KEY)
    expect(row(id).state).toBe('sent')
    expect(row(id).body).not.toContain(FAKE_KEY)
    expect(row(id).body).toContain(FAKE_KEY.slice(0, 17))
    expect(keysInLog(workerLog.lines)).toEqual([])
  })

  test(`after ${MAIL_MAX_ATTEMPTS} failed attempts the message is failed and its key erased`, async () => {
    // A port with nothing listening: every attempt fails to connect.
    const closed = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } })
    const port = closed.port
    closed.stop(true)
    const { enqueue, clock, worker, row, outbox } = outboxHarness(`smtp://127.0.0.1:${port}`)
    const id = await enqueue({ to: 'never@example.com', subject: 'Your key', text: `key: ${FAKE_KEY}` })
    for (let attempt = 1; attempt <= MAIL_MAX_ATTEMPTS; attempt++) {
      await worker.tick()
      expect(row(id).attempts).toBe(attempt)
      clock.advance(backoffMs(attempt))
    }
    expect(row(id).state).toBe('failed')
    expect(row(id).body).not.toContain(FAKE_KEY)
    expect(await outbox.counts()).toEqual({ queued: 0, sent: 0, failed: 1 })
  })

  test('a claim is a lease: a send cut off by a crash is retried once the lease ends', async () => {
    const { enqueue, clock, outbox, worker, row } = outboxHarness()
    const id = await enqueue({ to: 'lease@example.com', subject: 's', text: 'hello' })
    // Another process claimed it and died before finishing.
    expect((await outbox.claim(clock.now(), clock.now() + MAIL_LEASE_MS, 10)).map((claimed) => claimed.id)).toEqual([id])
    expect(await worker.tick()).toBe(0)
    clock.advance(MAIL_LEASE_MS)
    expect(await worker.tick()).toBe(1)
    expect(row(id)).toMatchObject({ state: 'sent', attempts: 2 })
  })

  test('a send error that quotes the message (as some servers do) reaches neither the log nor the table with the key', async () => {
    const { enqueue, clock, outbox, row } = outboxHarness()
    const log = memoryLogger()
    const quoting = { send: async (mail: { text: string }) => Promise.reject(new Error(`550 5.7.1 content rejected: ${mail.text}`)), close() {} }
    const worker = new MailWorker(outbox, quoting, clock, log)
    const id = await enqueue({ to: 'quoted@example.com', subject: 'Your key', text: `key: ${FAKE_KEY}` })
    expect(await worker.tick()).toBe(0)
    expect(row(id).last_error).toContain('550 5.7.1')
    expect(row(id).last_error).not.toContain(FAKE_KEY)
    expect(keysInLog(log.lines)).toEqual([])
    expect(JSON.stringify(log.lines)).toContain(FAKE_KEY.slice(0, 17))
  })

  test('eraseKeys cuts every key class to its display prefix', () => {
    const text = ['svc_free_', 'sb_', 'svc_crd_', 'svc_live_'].map((prefix) => `${prefix}${'0123456789abcdef'.repeat(4)}`).join(' ')
    expect(eraseKeys(text)).not.toMatch(/[0-9a-f]{64}/)
    expect(eraseKeys(text)).toContain('sb_01234567…')
  })

  test('openbell mail status prints counts and never a key', async () => {
    const { enqueue, clock, outbox, config } = outboxHarness()
    await enqueue({ to: 'a@example.com', subject: 's', text: `key ${FAKE_KEY}` })
    const lines: string[] = []
    clock.advance(5 * 60_000)
    expect(await runMailCommand(['status'], outbox, config, clock.now(), (line) => lines.push(line))).toBe(0)
    expect(lines).toContain('queued: 1')
    expect(lines).toContain('sent: 0')
    expect(lines).toContain('failed: 0')
    expect(lines.join('\n')).toContain('5 min ago')
    expect(lines.join('\n')).not.toContain(FAKE_KEY)
    expect(lines.join('\n')).not.toContain('a@example.com')
    expect(await runMailCommand(['bogus'], outbox, config, clock.now(), () => {})).toBe(2)
  })

  test('a bought key (payments keyMail) goes through the outbox too', async () => {
    const harness = makeTestApp({ env: { SMTP_URL: smtp.url, MAIL_FROM: 'keys@oracle.test' } })
    const before = smtp.received.length
    await harness.deps.transactor.run(() => harness.deps.keyMail({ to: 'buyer@example.com', key: FAKE_KEY, product: 'builder', now: harness.clock.now() }))
    expect(await harness.deps.mail.tick()).toBe(1)
    const [mail] = (await smtp.waitFor(before + 1)).slice(before)
    expect(mail!.to).toEqual(['buyer@example.com'])
    expect(mail!.text).toContain(FAKE_KEY)
  })

  test('the started job sends a requested key without a manual tick (wake)', async () => {
    const harness = makeTestApp({ env: { SMTP_URL: smtp.url, MAIL_FROM: 'keys@oracle.test' } })
    const stop = harness.deps.mail.start()
    try {
      const before = smtp.received.length
      expect((await post(harness, '/v5/keys/request', { email: 'woken@example.com' })).status).toBe(200)
      const [mail] = (await smtp.waitFor(before + 1, 5000)).slice(before)
      expect(mail!.to).toEqual(['woken@example.com'])
    } finally {
      await stop()
    }
  })
})
