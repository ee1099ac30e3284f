import { describe, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { makeTestApp } from '../helpers/app'
import { applyMigrations } from '../../src/store/migrate'
import { MIGRATIONS } from '../../src/wiring/migrations'
import { INSTANT_PER_ADDRESS_PER_DAY, AGENT_ID_MAX } from '../../src/accounts/offers'
import { keysInLog, KEY_PATTERN, post, restarted } from './self-service-helpers'
import { issueKey } from '../../src/accounts/keys'
import { PAID_DAILY_LIMITS } from '../../src/catalogue/limits'

const instant = (harness: Parameters<typeof post>[0], body: unknown, address?: string) => post(harness, '/v5/keys/instant', body, address)
const keyRows = (harness: ReturnType<typeof makeTestApp>) => (harness.db.query('SELECT count(*) AS n FROM api_keys').get() as { n: number }).n

describe('POST /v5/keys/instant', () => {
  test('issues a free key that works on /v5/status; a repeat says only that the agent_id has a key', async () => {
    const harness = makeTestApp()
    const first = await instant(harness, { agent_id: '  trading-bot-7  ' })
    expect(first.status).toBe(200)
    expect(first.body.api_key).toMatch(KEY_PATTERN('svc_free_'))
    expect(first.body.plan).toBe('free')
    expect(Number.isInteger(first.body.daily_limit)).toBe(true)
    expect(first.body.example).toContain(first.body.api_key)
    expect(first.body.upgrade_url).toStartWith('http')
    expect(first.body.usage).toBeObject()
    const status = await harness.json('/v5/status?mic=XNYS', { headers: { 'x-oracle-key': first.body.api_key } })
    expect(status.status).toBe(200)
    const row = harness.db.query('SELECT agent_id, plan, class FROM api_keys').get() as Record<string, string>
    expect(row).toEqual({ agent_id: 'trading-bot-7', plan: 'free', class: 'free' })

    const repeat = await instant(harness, { agent_id: 'trading-bot-7' }, '203.0.113.9')
    expect(repeat.status).toBe(200)
    // Issue 24 item 5: nothing of the key, not even its prefix; how its owner recovers.
    expect(Object.keys(repeat.body).sort()).toEqual(['api_key', 'key_exists', 'note', 'recover'])
    expect(repeat.body).toMatchObject({ api_key: null, key_exists: true })
    expect(JSON.stringify(repeat.body)).not.toContain(first.body.key_prefix)
    expect(JSON.stringify(repeat.body)).not.toContain(first.body.api_key.slice(0, 12))
    expect(repeat.body.note).toContain('only once')
    expect(repeat.body.recover.map((option: { way: string }) => option.way)).toEqual(['new_instant_key'])
    expect(keyRows(harness)).toBe(1)
    expect(keysInLog(harness.log.lines)).toEqual([])
  })

  test("a repeat for an agent_id the operator gave to a paid key does not reveal its plan or prefix", async () => {
    const harness = makeTestApp()
    const { account } = await issueKey(harness.deps.accounts, { plan: 'pro', agentId: 'desk-bot', now: new Date(harness.clock.now()) })
    const repeat = await instant(harness, { agent_id: 'desk-bot' })
    expect(repeat.status).toBe(200)
    expect(repeat.body).toMatchObject({ api_key: null, key_exists: true })
    expect(JSON.stringify(repeat.body)).not.toContain(account.key_prefix)
    expect(JSON.stringify(repeat.body)).not.toContain('pro')
    expect(JSON.stringify(repeat.body)).not.toContain(String(PAID_DAILY_LIMITS.pro))
    expect(keyRows(harness)).toBe(1)
  })

  test('with e-mail configured, the repeat also offers a key by e-mail; without, it never does', async () => {
    const mailing = makeTestApp({ env: { SMTP_URL: 'smtp://127.0.0.1:9', MAIL_FROM: 'keys@oracle.test' } })
    await instant(mailing, { agent_id: 'mailer' })
    const repeat = await instant(mailing, { agent_id: 'mailer' })
    expect(repeat.body.recover.map((option: { way: string }) => option.way)).toEqual(['new_instant_key', 'email_key'])
    expect(repeat.body.recover[1].request).toContain('/v5/keys/request')
    const bare = makeTestApp()
    await instant(bare, { agent_id: 'mailer' })
    expect(JSON.stringify((await instant(bare, { agent_id: 'mailer' })).body)).not.toMatch(/e-mail|email|keys\/request/i)
  })

  test('bad agent_id → 400 INVALID_AGENT_ID and nothing stored', async () => {
    const harness = makeTestApp()
    for (const body of [{}, { agent_id: '' }, { agent_id: '   ' }, { agent_id: 42 }, { agent_id: 'x'.repeat(AGENT_ID_MAX + 1) }, { agent_id: 'a\nb' }, '[1]', 'not json']) {
      const answer = await instant(harness, body)
      expect(answer.status).toBe(400)
      expect(answer.body.error).toBe('INVALID_AGENT_ID')
    }
    expect((await instant(harness, { agent_id: 'y'.repeat(AGENT_ID_MAX) })).status).toBe(200)
    expect(keyRows(harness)).toBe(1)
    expect((harness.db.query('SELECT count(*) AS n FROM address_limits').get() as { n: number }).n).toBe(1)
  })

  test('other methods → 405', async () => {
    const harness = makeTestApp()
    const answer = await harness.json('/v5/keys/instant')
    expect(answer.status).toBe(405)
  })

  test(`${INSTANT_PER_ADDRESS_PER_DAY} per client address per UTC day, then 429 with Retry-After to midnight; a new day opens again`, async () => {
    const harness = makeTestApp({ now: '2026-03-02T22:00:00.000Z' })
    for (let i = 0; i < INSTANT_PER_ADDRESS_PER_DAY; i++) expect((await instant(harness, { agent_id: `agent-${i}` })).status).toBe(200)
    const refused = await instant(harness, { agent_id: 'one-more' })
    expect(refused.status).toBe(429)
    expect(refused.body.error).toBe('RATE_LIMITED')
    expect(refused.headers.get('retry-after')).toBe(String(2 * 3600))
    // A repeat of a known agent_id counts too (issue 24 item 5): past the allowance it is 429.
    const repeat = await instant(harness, { agent_id: 'agent-0' })
    expect(repeat.status).toBe(429)
    expect(repeat.body.error).toBe('RATE_LIMITED')
    // Another address has its own allowance.
    expect((await instant(harness, { agent_id: 'elsewhere' }, '192.0.2.50')).status).toBe(200)
    harness.clock.set('2026-03-02T23:59:59.000Z')
    expect((await instant(harness, { agent_id: 'one-more' })).headers.get('retry-after')).toBe('1')
    harness.clock.set('2026-03-03T00:00:00.000Z')
    expect((await instant(harness, { agent_id: 'one-more' })).status).toBe(200)
    expect(keyRows(harness)).toBe(INSTANT_PER_ADDRESS_PER_DAY + 2)
  })

  test('a concurrent burst of 20 from one address admits exactly the limit', async () => {
    const harness = makeTestApp({ fileDatabase: true })
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => instant(harness, { agent_id: `burst-${i}` })))
    const statuses = answers.map((answer) => answer.status)
    expect(statuses.filter((status) => status === 200).length).toBe(INSTANT_PER_ADDRESS_PER_DAY)
    expect(statuses.filter((status) => status === 429).length).toBe(20 - INSTANT_PER_ADDRESS_PER_DAY)
    expect(keyRows(harness)).toBe(INSTANT_PER_ADDRESS_PER_DAY)
  })

  test('concurrent requests for one agent_id create one key, shown once', async () => {
    const harness = makeTestApp({ fileDatabase: true })
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => instant(harness, { agent_id: 'same-agent' }, `198.51.100.${i + 1}`)))
    expect(answers.every((answer) => answer.status === 200)).toBe(true)
    expect(answers.filter((answer) => KEY_PATTERN('svc_free_').test(answer.body.api_key)).length).toBe(1)
    expect(keyRows(harness)).toBe(1)
  })

  test('repeats count against the address allowance: after 10 answers a known agent_id gets 429 too, and concurrent repeats are counted exactly', async () => {
    const harness = makeTestApp({ fileDatabase: true })
    expect((await instant(harness, { agent_id: 'probe-target' }, '198.51.100.77')).status).toBe(200)
    // Someone asks about the agent_id again and again from one address.
    const answers = await Promise.all(Array.from({ length: 15 }, () => instant(harness, { agent_id: 'probe-target' }, '198.51.100.78')))
    expect(answers.filter((answer) => answer.status === 200).length).toBe(INSTANT_PER_ADDRESS_PER_DAY)
    expect(answers.filter((answer) => answer.status === 429).length).toBe(15 - INSTANT_PER_ADDRESS_PER_DAY)
    expect(answers.filter((answer) => answer.status === 200).every((answer) => answer.body.key_exists === true && answer.body.api_key === null)).toBe(true)
    // The allowance is spent for new agent_ids as well.
    expect((await instant(harness, { agent_id: 'fresh-agent' }, '198.51.100.78')).status).toBe(429)
    expect(keyRows(harness)).toBe(1)
  })

  test('the database refuses a second key for one agent_id (UNIQUE)', async () => {
    const harness = makeTestApp()
    await instant(harness, { agent_id: 'unique-agent' })
    expect(() =>
      harness.db.run(`INSERT INTO api_keys (key_hash, key_prefix, class, plan, created_at, agent_id) VALUES ('${'0'.repeat(64)}', 'svc_free_00000000', 'free', 'free', '2026-01-01T00:00:00Z', 'unique-agent')`),
    ).toThrow(/UNIQUE/)
  })

  test('a restart keeps the per-address count', async () => {
    const harness = makeTestApp({ fileDatabase: true })
    for (let i = 0; i < INSTANT_PER_ADDRESS_PER_DAY - 1; i++) expect((await instant(harness, { agent_id: `before-${i}` })).status).toBe(200)
    const again = restarted(harness, harness.clock.now() + 60_000)
    expect((await instant(again, { agent_id: 'last-one' })).status).toBe(200)
    expect((await instant(again, { agent_id: 'too-many' })).status).toBe(429)
    again.db.close()
  })
})

describe('migration 5 over keys that share an agent_id', () => {
  test('the oldest keeps the agent_id, the others are renamed, the unique index is built', () => {
    const db = new Database(':memory:', { strict: true })
    applyMigrations(db, MIGRATIONS.filter((migration) => migration.id < 5))
    const insert = db.query(`INSERT INTO api_keys (key_hash, key_prefix, class, plan, created_at, agent_id) VALUES (?, 'svc_free_00000000', 'free', 'free', '2026-01-01T00:00:00Z', ?)`)
    insert.run('1'.repeat(64), 'dup')
    insert.run('2'.repeat(64), 'dup')
    insert.run('3'.repeat(64), 'solo')
    applyMigrations(db, MIGRATIONS)
    expect(db.query('SELECT id, agent_id FROM api_keys ORDER BY id').all()).toEqual([
      { id: 1, agent_id: 'dup' },
      { id: 2, agent_id: 'dup (duplicate 2)' },
      { id: 3, agent_id: 'solo' },
    ])
    expect(() => insert.run('4'.repeat(64), 'solo')).toThrow(/UNIQUE/)
  })
})
