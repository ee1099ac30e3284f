// Self-service keys on both backends: one key per agent_id, and every allowance exact when a
// burst is spread over two nodes (PostgreSQL: two connection pools on one database): instant keys
// per address, e-mailed keys per address and per recipient (sliding 24 hours), sandbox keys per
// address and per recipient. A refused or undone request leaves nothing behind.
import { expect, test } from 'bun:test'
import type { SQL } from 'bun'
import type { Database } from 'bun:sqlite'
import { loadConfig } from '../../src/config'
import { AllowanceExhausted, selfServiceKeys, type SelfServiceKeys } from '../../src/accounts/self-service'
import { sqliteSelfServiceStore } from '../../src/accounts/self-service-store'
import { postgresSelfServiceStore } from '../../src/accounts/self-service-store-postgres'
import { sqliteMailOutbox } from '../../src/accounts/mail/outbox'
import { postgresMailOutbox } from '../../src/accounts/mail/outbox-postgres'
import { sqliteTransactor } from '../../src/store/sqlite-transaction'
import { postgresTransactor } from '../../src/store/postgres-transaction'
import { DAY_MS } from '../../src/accounts/limits'
import { EMAIL_KEYS_PER_ADDRESS, INSTANT_PER_ADDRESS_PER_DAY, SANDBOX_CALLS } from '../../src/accounts/offers'
import { forEachBackend, type TestBackend } from '../helpers/backends'
import { tempDir } from '../helpers/app'
import { numberOf, rowsOf, twoNodes } from './two-nodes'

const NOW = Date.parse('2026-03-10T15:00:00.000Z')
const config = loadConfig({ DATA_DIR: tempDir(), ISSUER: 'oracle.test', SMTP_URL: 'smtp://127.0.0.1:2525', MAIL_FROM: 'keys@oracle.test' })

const sqliteNode = (db: Database) => selfServiceKeys({ store: sqliteSelfServiceStore(db), outbox: sqliteMailOutbox(db), transactor: sqliteTransactor(db), config })
const postgresNode = (sql: SQL) => selfServiceKeys({ store: postgresSelfServiceStore(sql), outbox: postgresMailOutbox(sql), transactor: postgresTransactor(sql), config })

/** Each call of `attempt(i)` made at once, alternately on node A and node B: what each gave or threw. */
async function burst<T>(nodes: [SelfServiceKeys, SelfServiceKeys], count: number, attempt: (node: SelfServiceKeys, i: number) => Promise<T>) {
  const settled = await Promise.allSettled(Array.from({ length: count }, (_, i) => attempt(nodes[i % 2]!, i)))
  const given = settled.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []))
  const refused = settled.flatMap((result) => (result.status === 'rejected' ? [result.reason as Error] : []))
  return { given, refused }
}

const keysMade = (backend: TestBackend) => numberOf(backend, 'SELECT count(*) AS n FROM api_keys')

forEachBackend('self-service keys', (fresh) => {
  const open = async () => {
    const backend = await fresh()
    const nodes = twoNodes(backend, { sqlite: sqliteNode, postgres: postgresNode })
    return { backend, nodes }
  }

  test('one key per agent_id: a repeat says only that it exists, and spends a unit of its own address', async () => {
    const { backend, nodes: [a, b] } = await open()
    const first = await a.instant('agent-7', '198.51.100.7', NOW)
    expect(first.kind).toBe('issued')
    if (first.kind !== 'issued') return
    expect(first.key).toMatch(/^svc_free_[0-9a-f]{64}$/)
    const again = await b.instant('agent-7', '203.0.113.9', NOW)
    expect(again).toEqual({ kind: 'existing' })
    expect(await numberOf(backend, `SELECT coalesce(sum(count), 0) AS n FROM address_limits WHERE scope = 'instant'`)).toBe(2)
    const [row] = await rowsOf<{ agent_id: string; plan: string; class: string }>(backend, 'SELECT agent_id, plan, class FROM api_keys')
    expect(row).toEqual({ agent_id: 'agent-7', plan: 'free', class: 'free' })
    expect(await rowsOf(backend, 'SELECT channel, day FROM key_events')).toEqual([{ channel: 'instant', day: '2026-03-10' }])
  })

  test(`instant keys: a burst of 30 from one address over two nodes issues exactly ${INSTANT_PER_ADDRESS_PER_DAY}; the next UTC day opens again`, async () => {
    const { backend, nodes } = await open()
    const { given, refused } = await burst(nodes, 30, (node, i) => node.instant(`burst-${i}`, '198.51.100.8', NOW))
    expect(given.filter((outcome) => outcome.kind === 'issued')).toHaveLength(INSTANT_PER_ADDRESS_PER_DAY)
    expect(refused).toHaveLength(30 - INSTANT_PER_ADDRESS_PER_DAY)
    expect(refused.every((error) => error instanceof AllowanceExhausted && error.resetAt === Date.parse('2026-03-11T00:00:00.000Z'))).toBe(true)
    expect(await keysMade(backend)).toBe(INSTANT_PER_ADDRESS_PER_DAY)
    expect(await numberOf(backend, 'SELECT count(*) AS n FROM key_events')).toBe(INSTANT_PER_ADDRESS_PER_DAY)
    // Another address is not affected; the same one may again tomorrow.
    expect((await nodes[1].instant('other-address', '198.51.100.9', NOW)).kind).toBe('issued')
    expect((await nodes[0].instant('next-day', '198.51.100.8', Date.parse('2026-03-11T00:00:00.000Z'))).kind).toBe('issued')
  })

  test('the same agent_id asked for at once on two nodes from many addresses: one key; every answer takes one unit of its address', async () => {
    const { backend, nodes } = await open()
    const { given, refused } = await burst(nodes, 20, (node, i) => node.instant('contested', `198.51.100.${10 + i}`, NOW))
    expect(refused).toEqual([])
    const issued = given.filter((outcome) => outcome.kind === 'issued')
    expect(issued).toHaveLength(1)
    expect(given.filter((outcome) => outcome.kind === 'existing')).toHaveLength(19)
    expect(await keysMade(backend)).toBe(1)
    // Issue 24 item 5: the repeats count too, also those that lost the insert race and ran again.
    expect(await numberOf(backend, `SELECT coalesce(sum(count), 0) AS n FROM address_limits WHERE scope = 'instant'`)).toBe(20)
  })

  test(`e-mailed keys: ${EMAIL_KEYS_PER_ADDRESS} per address and ${EMAIL_KEYS_PER_ADDRESS} per recipient in any 24 hours, exact over two nodes; each key's mail commits with it`, async () => {
    const { backend, nodes } = await open()
    const fromOne = await burst(nodes, 12, (node, i) => node.emailed(`r${i}@example.com`, '198.51.100.20', NOW))
    expect(fromOne.given).toHaveLength(EMAIL_KEYS_PER_ADDRESS)
    expect(fromOne.refused.every((error) => error instanceof AllowanceExhausted && error.scope === 'email')).toBe(true)
    const toOne = await burst(nodes, 12, (node, i) => node.emailed('Target@Example.com'.replace('T', i % 2 ? 'T' : 't'), `198.51.100.${30 + i}`, NOW))
    expect(toOne.given).toHaveLength(EMAIL_KEYS_PER_ADDRESS)
    expect(toOne.refused.every((error) => error instanceof AllowanceExhausted && error.scope === 'email_to')).toBe(true)
    expect(await keysMade(backend)).toBe(2 * EMAIL_KEYS_PER_ADDRESS)
    const mails = await rowsOf<{ id: number; recipient: string; body: string }>(backend, `SELECT id, recipient, body FROM mail_outbox WHERE state = 'queued' ORDER BY id`)
    expect(mails).toHaveLength(2 * EMAIL_KEYS_PER_ADDRESS)
    expect(new Set([...fromOne.given, ...toOne.given].map((issued) => issued.mailId))).toEqual(new Set(mails.map((mail) => mail.id)))
    // Each mail carries its key in full (erased once sent), and the key row exists.
    for (const mail of mails) {
      const key = /svc_free_[0-9a-f]{64}/.exec(mail.body)![0]
      expect(await numberOf(backend, 'SELECT count(*) AS n FROM api_keys WHERE key_prefix = $1 AND email = $2', [key.slice(0, 17), mail.recipient])).toBe(1)
    }
  })

  test('e-mailed keys slide: the first slot frees 24 hours after it was taken, not at midnight', async () => {
    const { nodes: [a, b] } = await open()
    const address = '198.51.100.40'
    for (let i = 0; i < EMAIL_KEYS_PER_ADDRESS; i++) await (i % 2 ? b : a).emailed(`s${i}@example.com`, address, NOW + i * 3_600_000)
    const refused = await a.emailed('late@example.com', address, NOW + 20 * 3_600_000).catch((error) => error)
    expect(refused).toBeInstanceOf(AllowanceExhausted)
    expect(refused.resetAt).toBe(NOW + DAY_MS)
    await expect(b.emailed('late@example.com', address, NOW + DAY_MS - 1)).rejects.toBeInstanceOf(AllowanceExhausted)
    expect((await b.emailed('late@example.com', address, NOW + DAY_MS)).keyPrefix).toStartWith('svc_free_')
  })

  test('sandbox keys: one per address and per recipient in 7 days, exact over two nodes; 200 calls and the expiry stored', async () => {
    const { backend, nodes } = await open()
    const { given, refused } = await burst(nodes, 10, (node, i) => node.sandbox(`sb${i}@example.com`, i ? null : 'testing', '198.51.100.50', NOW, i % 2 === 0))
    expect(given).toHaveLength(1)
    expect(refused).toHaveLength(9)
    const [issued] = given
    expect(issued!.key).toMatch(/^sb_[0-9a-f]{64}$/)
    expect(issued!.expiresAt).toBe(new Date(NOW + 7 * DAY_MS).toISOString())
    const [row] = await rowsOf<{ plan: string; calls_remaining: number; expires_at: string }>(backend, 'SELECT plan, calls_remaining, expires_at FROM api_keys')
    expect(row).toEqual({ plan: 'sandbox', calls_remaining: SANDBOX_CALLS, expires_at: issued!.expiresAt })
    expect(await numberOf(backend, 'SELECT count(*) AS n FROM mail_outbox')).toBe(issued!.mailId === null ? 0 : 1)
    // The same recipient from another address: refused too.
    const email = (await rowsOf<{ email: string }>(backend, 'SELECT email FROM api_keys'))[0]!.email
    await expect(nodes[1].sandbox(email, null, '198.51.100.51', NOW, false)).rejects.toMatchObject({ scope: 'sandbox_email', resetAt: NOW + 7 * DAY_MS })
  })

  test('prune removes only windows that started before the cut; the funnel counts keys by channel and metered use', async () => {
    const { backend, nodes: [a] } = await open()
    await a.instant('old', '198.51.100.60', NOW - 9 * DAY_MS)
    const recent = await a.instant('recent', '198.51.100.61', NOW)
    await a.emailed('f@example.com', '198.51.100.62', NOW)
    await a.sandbox('g@example.com', 'a use case', '198.51.100.63', NOW, false)
    expect(await a.limits.prune(NOW - 8 * DAY_MS)).toBe(1)
    // Left: the recent instant window, the e-mail's two, the sandbox's two.
    expect(await numberOf(backend, 'SELECT count(*) AS n FROM address_limits')).toBe(5)
    const day = new Date(NOW).toISOString().slice(0, 10)
    expect(await a.events.funnel(day, async () => false)).toEqual({ date: day, top_of_funnel: 3, conversion_rate: 0, channels: { instant: 1, email: 1, sandbox: 1 } })
    if (recent.kind !== 'issued') throw new Error('expected a key')
    const [key] = await rowsOf<{ id: number; key_hash: string }>(backend, 'SELECT id, key_hash FROM api_keys WHERE key_prefix = $1', [recent.keyPrefix])
    await rowsOf(backend, 'INSERT INTO key_usage (account_id, day, requests) VALUES ($1, $2, 1)', [key!.id, day])
    expect((await a.events.funnel(day, async () => false)).conversion_rate).toBe(0.3333)
    expect((await a.events.funnel(day, async () => true)).conversion_rate).toBe(1)
  })
})
