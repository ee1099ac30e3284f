// The mail outbox on both backends: a message commits with its unit of work or not at all; a
// claim is a lease; two nodes sending at once (PostgreSQL: two pools, FOR UPDATE SKIP LOCKED)
// send every message exactly once while both are up; a sent message keeps no usable key.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { sqliteMailOutbox, type MailOutbox } from '../../src/accounts/mail/outbox'
import { postgresMailOutbox } from '../../src/accounts/mail/outbox-postgres'
import { MAIL_LEASE_MS, MAIL_POLL_MS, MailWorker } from '../../src/accounts/mail/worker'
import { smtpTransport } from '../../src/accounts/mail/transport'
import { sqliteTransactor } from '../../src/store/sqlite-transaction'
import { postgresTransactor } from '../../src/store/postgres-transaction'
import type { Transactor } from '../../src/store/transaction'
import { memoryLogger } from '../../src/log'
import { forEachBackend } from '../helpers/backends'
import { FakeClock } from '../helpers/app'
import { startSmtp, type TestSmtp } from '../helpers/smtp'
import { rowsOf, twoNodes } from './two-nodes'

let smtp: TestSmtp
beforeAll(async () => {
  smtp = await startSmtp()
})
afterAll(async () => {
  await smtp.close()
})

const NOW = Date.parse('2026-03-10T15:00:00.000Z')
const keyOf = (i: number) => 'svc_free_' + i.toString(16).padStart(8, '0') + 'ab'.repeat(28)

forEachBackend('mail outbox', (fresh) => {
  const open = async () => {
    const backend = await fresh()
    const [a, b] = twoNodes(backend, {
      sqlite: (db) => ({ outbox: sqliteMailOutbox(db), transactor: sqliteTransactor(db) as Transactor }),
      postgres: (sql) => ({ outbox: postgresMailOutbox(sql) as MailOutbox, transactor: postgresTransactor(sql) }),
    })
    const enqueue = (to: string, text: string, now = NOW) => a.transactor.run(() => a.outbox.enqueue({ to, subject: 'Your key', text }, now))
    return { backend, a, b, enqueue }
  }

  test('a message commits with its unit of work, or not at all', async () => {
    const { a, enqueue } = await open()
    await expect(
      a.transactor.run(function* () {
        yield* a.outbox.enqueue({ to: 'x@example.com', subject: 's', text: 't' }, NOW)
        throw new Error('the key was not made')
      }),
    ).rejects.toThrow('the key was not made')
    expect(await a.outbox.counts()).toEqual({ queued: 0, sent: 0, failed: 0 })
    const id = await enqueue('y@example.com', 'hello')
    expect(id).toBeGreaterThan(0)
    expect(await a.outbox.counts()).toEqual({ queued: 1, sent: 0, failed: 0 })
    expect(await a.outbox.oldestQueuedAt()).toBe(new Date(NOW).toISOString())
  })

  test('claims are leases, due messages oldest first; retry, sent and failed finish them with keys erased', async () => {
    const { backend, a, enqueue } = await open()
    const first = await enqueue('1@example.com', `key ${keyOf(1)}`)
    const second = await enqueue('2@example.com', `key ${keyOf(2)}`, NOW + 1)
    await enqueue('later@example.com', 'not due', NOW + 60_000)
    const claimed = await a.outbox.claim(NOW + 10, NOW + MAIL_LEASE_MS, 10)
    expect(claimed.map((row) => [row.id, row.recipient, row.attempts])).toEqual([[first, '1@example.com', 1], [second, '2@example.com', 1]])
    // Leased: nobody claims them again before the lease ends.
    expect(await a.outbox.claim(NOW + 20, NOW + MAIL_LEASE_MS, 10)).toEqual([])
    await a.outbox.sent(first, NOW + 30)
    await a.outbox.retryAt(second, NOW + 90_000, '451 try later')
    expect((await a.outbox.claim(NOW + 89_999, NOW + 89_999 + MAIL_LEASE_MS, 10)).map((row) => row.id)).not.toContain(second)
    const [again] = (await a.outbox.claim(NOW + 90_000, NOW + 90_000 + MAIL_LEASE_MS, 10)).filter((row) => row.id === second)
    expect(again!.attempts).toBe(2)
    await a.outbox.failed(second, '550 no such user', NOW + 90_001)
    const rows = await rowsOf<{ id: number; state: string; body: string; last_error: string | null; finished_at: string | null }>(backend, 'SELECT id, state, body, last_error, finished_at FROM mail_outbox WHERE id IN ($1, $2) ORDER BY id', [first, second])
    expect(rows.map((row) => [row.state, row.last_error, row.finished_at])).toEqual([
      ['sent', null, new Date(NOW + 30).toISOString()],
      ['failed', '550 no such user', new Date(NOW + 90_001).toISOString()],
    ])
    for (const row of rows) expect(row.body).not.toMatch(/[0-9a-f]{64}/)
    expect(rows[0]!.body).toContain(keyOf(1).slice(0, 17))
    expect(await a.outbox.counts()).toEqual({ queued: 1, sent: 1, failed: 1 })
  })

  test('two nodes claiming at once never get the same message', async () => {
    const { a, b, enqueue } = await open()
    const ids = []
    for (let i = 0; i < 40; i++) ids.push(await enqueue(`c${i}@example.com`, 'hello'))
    const claims = await Promise.all(Array.from({ length: 16 }, (_, i) => (i % 2 ? b : a).outbox.claim(NOW, NOW + MAIL_LEASE_MS, 3)))
    const claimed = claims.flat().map((row) => row.id)
    expect(new Set(claimed).size).toBe(claimed.length)
    expect(claimed.length).toBe(40)
    expect(claimed.sort((x, y) => x - y)).toEqual(ids)
  })

  test('two mail jobs running at once over real SMTP send every message exactly once', async () => {
    const { a, b, enqueue } = await open()
    const clock = new FakeClock(NOW)
    const transport = smtpTransport({ smtpUrl: smtp.url, from: 'keys@oracle.test' })
    const workers = [new MailWorker(a.outbox, transport, clock, memoryLogger()), new MailWorker(b.outbox, transport, clock, memoryLogger())]
    const tag = `run-${Math.random().toString(16).slice(2)}`
    for (let i = 0; i < 30; i++) await enqueue(`${tag}-${i}@example.com`, `key ${keyOf(i)}`)
    const before = smtp.received.length
    // One round each, at once (a worker's rounds never overlap; two workers' do).
    const sent = await Promise.all(workers.map((worker) => worker.tick()))
    expect(sent[0]! + sent[1]!).toBe(30)
    const received = (await smtp.waitFor(before + 30)).filter((mail) => mail.to[0]!.startsWith(tag))
    expect(received).toHaveLength(30)
    expect(new Set(received.map((mail) => mail.to[0])).size).toBe(30)
    expect(await a.outbox.counts()).toEqual({ queued: 0, sent: 30, failed: 0 })
    transport.close()
  })

  test('a message committed on another node wakes the running mail job at once (PostgreSQL: NOTIFY at commit)', async () => {
    const { backend, a, b } = await open()
    if (backend.name === 'sqlite') {
      // One process: the request that stores the message wakes its own job (deps.mail.wake()).
      expect(a.outbox.watch).toBeUndefined()
      return
    }
    const transport = smtpTransport({ smtpUrl: smtp.url, from: 'keys@oracle.test' })
    const worker = new MailWorker(a.outbox, transport, new FakeClock(NOW), memoryLogger())
    const stop = worker.start()
    try {
      await Bun.sleep(200) // the start's first round and the LISTEN
      const before = smtp.received.length
      const to = `woken-${Math.random().toString(16).slice(2)}@example.com`
      const started = Date.now()
      await b.transactor.run(() => b.outbox.enqueue({ to, subject: 'Your key', text: 'hello' }, NOW))
      const [mail] = (await smtp.waitFor(before + 1, MAIL_POLL_MS - 1000)).slice(before)
      expect(mail!.to).toEqual([to])
      expect(Date.now() - started).toBeLessThan(MAIL_POLL_MS - 1000)
    } finally {
      await stop()
    }
  })
})
