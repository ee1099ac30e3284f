import { describe, expect, test } from 'bun:test'
import { issueKey, type IssueKeyOptions } from '../../src/accounts/keys'
import { cachedAccountStore } from '../../src/accounts/cache'
import { sqliteAccountStore } from '../../src/accounts/store'
import { nextUtcMidnight, secondsToMidnight, PAID_DAILY_LIMITS } from '../../src/catalogue/limits'
import { buildApp } from '../../src/app'
import { sqliteDeps } from '../../src/wiring/sqlite'
import { openDatabase } from '../../src/store/database'
import { applyMigrations } from '../../src/store/migrate'
import { MIGRATIONS } from '../../src/wiring/migrations'
import { memoryLogger } from '../../src/log'
import { Meter } from '../../src/accounts/metering'
import type { MeterWrites, UsageStore } from '../../src/accounts/usage-store'
import { Signer } from '../../src/crypto/signer'
import { makeTestApp, sharedCalendars, testSigner, FakeClock, type TestApp } from '../helpers/app'

const PAY_TO = '0x' + '1'.repeat(40)
const NOW = '2026-03-10T15:00:00.000Z'

async function keyFor(harness: TestApp, options: Partial<IssueKeyOptions> = {}) {
  return issueKey(harness.deps.accounts, { plan: 'free', now: new Date(harness.clock.now()), ...options })
}

const status = (harness: TestApp, key: string) => harness.request('/v5/status?mic=XNYS', { headers: { 'x-oracle-key': key } })
const storedToday = (harness: TestApp, accountId: number, day = new Date(harness.clock.now()).toISOString().slice(0, 10)) =>
  (harness.db.query('SELECT requests FROM key_usage WHERE account_id = ? AND day = ?').get(accountId, day) as { requests: number } | null)?.requests ?? 0

describe('free keys: exact daily limit', () => {
  test('a concurrent burst of three times the limit admits exactly the limit', async () => {
    const harness = makeTestApp({ now: NOW, env: { FREE_DAILY_LIMIT: '20', X402_PAY_TO: PAY_TO } })
    const { key, account } = await keyFor(harness)
    const answers = await Promise.all(Array.from({ length: 60 }, () => status(harness, key)))
    const codes = answers.map((response) => response.status)
    expect(codes.filter((code) => code === 200)).toHaveLength(20)
    expect(codes.filter((code) => code === 402)).toHaveLength(40)
    // Remaining counts down through every value exactly once.
    const remaining = answers.filter((r) => r.status === 200).map((r) => Number(r.headers.get('x-ratelimit-remaining'))).sort((a, b) => a - b)
    expect(remaining).toEqual(Array.from({ length: 20 }, (_, i) => i))
    await harness.deps.meter.flush()
    expect(storedToday(harness, account.id)).toBe(20)
    expect(await harness.deps.meter.usage(account)).toEqual({ today: 20, month: 20 })
  })

  test('metered answers carry X-RateLimit-Limit, -Remaining and -Reset (next UTC midnight, Unix seconds)', async () => {
    const harness = makeTestApp({ now: NOW, env: { FREE_DAILY_LIMIT: '5' } })
    const { key } = await keyFor(harness)
    const first = await status(harness, key)
    expect(first.status).toBe(200)
    expect(first.headers.get('x-ratelimit-limit')).toBe('5')
    expect(first.headers.get('x-ratelimit-remaining')).toBe('4')
    expect(first.headers.get('x-ratelimit-reset')).toBe(String(nextUtcMidnight(harness.clock.now()) / 1000))
    expect((await status(harness, key)).headers.get('x-ratelimit-remaining')).toBe('3')
  })

  test('bad input (400) and HEAD spend nothing', async () => {
    const harness = makeTestApp({ now: NOW, env: { FREE_DAILY_LIMIT: '5' } })
    const { key, account } = await keyFor(harness)
    expect((await harness.request('/v5/status?mic=ZZZZ', { headers: { 'x-oracle-key': key } })).status).toBe(400)
    expect((await harness.request('/v5/batch?mics=XNYS,ZZZZ', { headers: { 'x-oracle-key': key } })).status).toBe(400)
    expect((await harness.request('/v5/batch', { headers: { 'x-oracle-key': key } })).status).toBe(400)
    expect((await harness.request('/v5/status', { method: 'HEAD', headers: { 'x-oracle-key': key } })).status).toBe(200)
    expect((await harness.deps.meter.usage(account)).today).toBe(0)
  })

  test('HEAD answers what the GET would (402 past the quota) without counting', async () => {
    const harness = makeTestApp({ now: NOW, env: { FREE_DAILY_LIMIT: '1', X402_PAY_TO: PAY_TO } })
    const { key, account } = await keyFor(harness)
    const head = () => harness.request('/v5/status', { method: 'HEAD', headers: { 'x-oracle-key': key } })
    expect((await head()).status).toBe(200)
    expect((await status(harness, key)).status).toBe(200)
    const refused = await head()
    expect(refused.status).toBe(402)
    expect(refused.headers.get('retry-after')).toBe(String(9 * 3600))
    expect((await harness.deps.meter.usage(account)).today).toBe(1)
    const paid = await keyFor(harness, { plan: 'builder' })
    harness.db.query('INSERT INTO key_usage (account_id, day, requests) VALUES (?, ?, ?)').run(paid.account.id, '2026-03-10', 50_000)
    expect((await harness.request('/v5/batch?mics=XNYS', { method: 'HEAD', headers: { 'x-oracle-key': paid.key } })).status).toBe(429)
  })

  test('a batch counts as one request, whatever the number of MICs', async () => {
    const harness = makeTestApp({ now: NOW, env: { FREE_DAILY_LIMIT: '5' } })
    const { key, account } = await keyFor(harness)
    const batch = await harness.request('/v5/batch?mics=XNYS,XLON,XJPX', { headers: { 'x-oracle-key': key } })
    expect(batch.status).toBe(200)
    expect(batch.headers.get('x-ratelimit-remaining')).toBe('4')
    expect((await harness.deps.meter.usage(account)).today).toBe(1)
  })

  test('past the limit: 402 with the x402 requirements, Retry-After to the next UTC midnight, and the rate headers', async () => {
    const harness = makeTestApp({ now: NOW, env: { FREE_DAILY_LIMIT: '1', X402_PAY_TO: PAY_TO } })
    const { key } = await keyFor(harness)
    expect((await status(harness, key)).status).toBe(200)
    const refused = await status(harness, key)
    expect(refused.status).toBe(402)
    const body = (await refused.json()) as Record<string, any>
    expect(body).toMatchObject({ error: 'FREE_TIER_EXHAUSTED', payTo: PAY_TO, amount: '0.001', daily_limit: 1, credit_balance: 0, resets_at: new Date(nextUtcMidnight(harness.clock.now())).toISOString() })
    expect(body.accepts[0]).toMatchObject({ scheme: 'exact', amount: '1000', payTo: PAY_TO })
    expect(refused.headers.get('retry-after')).toBe(String(secondsToMidnight(harness.clock.now())))
    expect(refused.headers.get('retry-after')).toBe(String(9 * 3600))
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0')
    expect(JSON.parse(Buffer.from(refused.headers.get('payment-required')!, 'base64').toString()).accepts).toEqual(body.accepts)
    // A refused request is not counted.
    await harness.deps.meter.flush()
    expect(storedToday(harness, (await harness.deps.accounts.list())[0]!.id)).toBe(1)
  })

  test('past the quota, a request that carries a payment header is handled as an x402 payment (never served unverified)', async () => {
    const harness = makeTestApp({ now: NOW, env: { FREE_DAILY_LIMIT: '1', X402_PAY_TO: PAY_TO } })
    const { key } = await keyFor(harness)
    expect((await status(harness, key)).status).toBe(200)
    const paying = await harness.json('/v5/status', { headers: { 'x-oracle-key': key, 'x-payment': '{"txHash":"0xabc"}' } })
    expect(paying.status).toBe(402)
    expect(paying.body.error).toBe('PAYMENT_MALFORMED')
    // Within the quota the key is used and the payment header ignored.
    const fresh = await keyFor(harness)
    expect((await harness.request('/v5/status', { headers: { 'x-oracle-key': fresh.key, 'x-payment': '{"txHash":"0xabc"}' } })).status).toBe(200)
  })

  test('credits are spent one per request after the free quota, exactly, also in a burst', async () => {
    const harness = makeTestApp({ now: NOW, env: { FREE_DAILY_LIMIT: '5' } })
    const { key, account } = await keyFor(harness, { creditBalance: 7 })
    const answers = await Promise.all(Array.from({ length: 30 }, () => status(harness, key)))
    expect(answers.filter((r) => r.status === 200)).toHaveLength(12)
    const viaCredit = answers.filter((r) => r.headers.has('x-credits-remaining')).map((r) => Number(r.headers.get('x-credits-remaining'))).sort()
    expect(viaCredit).toEqual([0, 1, 2, 3, 4, 5, 6])
    expect((harness.db.query('SELECT credit_balance FROM api_keys WHERE id = ?').get(account.id) as { credit_balance: number }).credit_balance).toBe(0)
    const ledger = harness.db.query(`SELECT delta, reference FROM credit_ledger WHERE account_id = ? AND kind = 'debit'`).all(account.id) as { delta: number; reference: string }[]
    expect(ledger).toHaveLength(7)
    expect(ledger.every((row) => row.delta === -1 && row.reference === '/v5/status')).toBe(true)
    expect((await status(harness, key)).status).toBe(402)
    expect((await harness.deps.meter.usage(account)).today).toBe(12)
  })
})

describe('a request that fails after it was admitted is given back', () => {
  test('signing offline (500): the count, the credit and the sandbox call are refunded', async () => {
    const harness = makeTestApp({ now: NOW, signer: Signer.offline('test'), env: { FREE_DAILY_LIMIT: '1' } })
    const { key, account } = await keyFor(harness, { creditBalance: 2 })
    for (let i = 0; i < 3; i++) expect((await status(harness, key)).status).toBe(500)
    expect((await harness.request('/v5/batch?mics=XNYS,XLON', { headers: { 'x-oracle-key': key } })).status).toBe(500)
    expect(await harness.deps.meter.usage(account)).toEqual({ today: 0, month: 0 })
    await harness.deps.meter.flush()
    expect(storedToday(harness, account.id)).toBe(0)
    expect(await harness.deps.meter.creditBalance(account.id)).toBe(2)

    const credits = await keyFor(harness, { creditBalance: 1 })
    harness.db.query('INSERT INTO key_usage (account_id, day, requests) VALUES (?, ?, ?)').run(credits.account.id, '2026-03-10', 1)
    expect((await status(harness, credits.key)).status).toBe(500)
    expect(await harness.deps.meter.creditBalance(credits.account.id)).toBe(1)
    const ledger = harness.db.query('SELECT delta, kind, reference FROM credit_ledger WHERE account_id = ? ORDER BY id').all(credits.account.id)
    expect(ledger).toEqual([
      { delta: -1, kind: 'debit', reference: '/v5/status' },
      { delta: 1, kind: 'grant', reference: 'refund:/v5/status' },
    ])
    await harness.deps.meter.flush()
    expect(storedToday(harness, credits.account.id)).toBe(1)

    const sandbox = await keyFor(harness, { plan: 'sandbox', callsRemaining: 5, expiresAt: '2026-03-17T15:00:00.000Z' })
    expect((await status(harness, sandbox.key)).status).toBe(500)
    expect(await harness.deps.meter.sandboxCallsLeft(sandbox.account.id, 200)).toBe(5)
  })

  test('the tool endpoint (bearer token) and the paid safe-to-trade door give the count back when signing is offline', async () => {
    const harness = makeTestApp({ now: NOW, signer: Signer.offline('test') })
    const { key, account } = await keyFor(harness)
    const builder = await keyFor(harness, { plan: 'builder' })
    const tokenAnswer = await harness.request('/oauth/token', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `grant_type=client_credentials&client_id=${key}` })
    const { access_token } = (await tokenAnswer.json()) as { access_token: string }
    const call = await harness.request('/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${access_token}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_market_status', arguments: { mic: 'XNYS' } } }),
    })
    const rpc = (await call.json()) as { result: { isError?: boolean } }
    expect(rpc.result.isError).toBe(true)
    expect(await harness.deps.meter.usage(account)).toEqual({ today: 0, month: 0 })
    const door = await harness.request('/v1/safe-to-trade?venue=XNYS&max_age=30', { headers: { 'x-oracle-key': builder.key } })
    expect(door.status).toBe(500)
    expect(await harness.deps.meter.usage(builder.account)).toEqual({ today: 0, month: 0 })
  })
})

describe('paid and sandbox keys', () => {
  test('a paid key past its daily limit gets 429 RATE_LIMITED with Retry-After, no payment offer', async () => {
    const harness = makeTestApp({ now: NOW, env: { X402_PAY_TO: PAY_TO } })
    const { key, account } = await keyFor(harness, { plan: 'builder' })
    harness.db.query('INSERT INTO key_usage (account_id, day, requests) VALUES (?, ?, ?)').run(account.id, '2026-03-10', PAID_DAILY_LIMITS.builder - 1)
    const last = await status(harness, key)
    expect(last.status).toBe(200)
    expect(last.headers.get('x-ratelimit-limit')).toBe('50000')
    expect(last.headers.get('x-ratelimit-remaining')).toBe('0')
    const refused = await status(harness, key)
    expect(refused.status).toBe(429)
    const body = (await refused.json()) as Record<string, any>
    expect(body).toMatchObject({ error: 'RATE_LIMITED', plan: 'builder', daily_limit: 50000 })
    expect(body.accepts).toBeUndefined()
    expect(refused.headers.get('retry-after')).toBe(String(9 * 3600))
    expect(refused.headers.get('payment-required')).toBeNull()
  })

  test('pro keys get 200,000 a day', async () => {
    const harness = makeTestApp({ now: NOW })
    const { key } = await keyFor(harness, { plan: 'pro' })
    expect((await status(harness, key)).headers.get('x-ratelimit-limit')).toBe('200000')
  })

  test('a sandbox key spends its calls; exhausted or expired → 402 SANDBOX_KEY_EXHAUSTED', async () => {
    const harness = makeTestApp({ now: NOW })
    const expiresAt = new Date(harness.clock.now() + 7 * 86_400_000).toISOString()
    const { key, account } = await keyFor(harness, { plan: 'sandbox', callsRemaining: 2, expiresAt })
    const first = await status(harness, key)
    expect(first.status).toBe(200)
    expect(first.headers.get('x-ratelimit-limit')).toBe('200')
    expect(first.headers.get('x-ratelimit-remaining')).toBe('1')
    expect(first.headers.get('x-ratelimit-reset')).toBe(String(Date.parse(expiresAt) / 1000))
    expect((await status(harness, key)).status).toBe(200)
    const exhausted = await status(harness, key)
    expect(exhausted.status).toBe(402)
    expect(await exhausted.json()).toMatchObject({ error: 'SANDBOX_KEY_EXHAUSTED', calls_remaining: 0, expires_at: expiresAt })
    expect((harness.db.query('SELECT calls_remaining FROM api_keys WHERE id = ?').get(account.id) as { calls_remaining: number }).calls_remaining).toBe(0)

    const fresh = await keyFor(harness, { plan: 'sandbox', callsRemaining: 200, expiresAt })
    expect((await status(harness, fresh.key)).status).toBe(200)
    // Frozen clock at the 7-day boundary: the last millisecond still works, the expiry itself does not.
    harness.clock.set(new Date(Date.parse(expiresAt) - 1).toISOString())
    expect((await status(harness, fresh.key)).status).toBe(200)
    harness.clock.set(expiresAt)
    const expired = await status(harness, fresh.key)
    expect(expired.status).toBe(402)
    expect(await expired.json()).toMatchObject({ error: 'SANDBOX_KEY_EXHAUSTED', expires_at: expiresAt })
  })

  test('a concurrent burst on a sandbox key spends exactly its calls', async () => {
    const harness = makeTestApp({ now: NOW })
    const expiresAt = new Date(harness.clock.now() + 7 * 86_400_000).toISOString()
    const { key, account } = await keyFor(harness, { plan: 'sandbox', callsRemaining: 7, expiresAt })
    const codes = (await Promise.all(Array.from({ length: 30 }, () => status(harness, key)))).map((response) => response.status)
    expect(codes.filter((code) => code === 200)).toHaveLength(7)
    expect(codes.filter((code) => code === 402)).toHaveLength(23)
    expect((harness.db.query('SELECT calls_remaining FROM api_keys WHERE id = ?').get(account.id) as { calls_remaining: number }).calls_remaining).toBe(0)
  })

  test('a sandbox key with no stored allowance gets 200 calls', async () => {
    const harness = makeTestApp({ now: NOW })
    const { key } = await keyFor(harness, { plan: 'sandbox' })
    expect((await status(harness, key)).headers.get('x-ratelimit-remaining')).toBe('199')
  })

  test('suspended and cancelled keys: 402 with the account status; nothing counted', async () => {
    const harness = makeTestApp({ now: NOW })
    const { key, account } = await keyFor(harness, { plan: 'pro' })
    for (const state of ['suspended', 'cancelled'] as const) {
      await harness.deps.accounts.setStatus(account.id, state)
      for (const path of ['/v5/status', '/v5/batch?mics=XNYS', '/v5/status/realtime', '/v5/credits/balance']) {
        const answer = await harness.json(path, { headers: { 'x-oracle-key': key } })
        expect([path, answer.status, answer.body]).toEqual([path, 402, expect.objectContaining({ error: 'ACCOUNT_INACTIVE', status: state })])
      }
    }
    expect((await harness.deps.meter.usage(account)).today).toBe(0)
  })
})

describe('UTC calendar and durability', () => {
  test('frozen clock across midnight and the month end: the day starts again, the month too', async () => {
    const harness = makeTestApp({ now: '2026-01-31T23:59:58.000Z', env: { FREE_DAILY_LIMIT: '3' } })
    const { key, account } = await keyFor(harness)
    for (let i = 0; i < 3; i++) expect((await status(harness, key)).status).toBe(200)
    const refused = await status(harness, key)
    expect(refused.status).toBe(402)
    expect(refused.headers.get('retry-after')).toBe('2')
    harness.clock.advance(1999)
    expect((await status(harness, key)).status).toBe(402)
    harness.clock.advance(1) // 2026-02-01T00:00:00.000Z
    const next = await status(harness, key)
    expect(next.status).toBe(200)
    expect(next.headers.get('x-ratelimit-remaining')).toBe('2')
    expect(await harness.deps.meter.usage(account)).toEqual({ today: 1, month: 1 })
    await harness.deps.meter.flush()
    expect(storedToday(harness, account.id, '2026-01-31')).toBe(3)
    expect(storedToday(harness, account.id, '2026-02-01')).toBe(1)
    // Within a month, days add up.
    harness.clock.set('2026-02-02T10:00:00.000Z')
    expect((await status(harness, key)).status).toBe(200)
    expect(await harness.deps.meter.usage(account)).toEqual({ today: 1, month: 2 })
  })

  test('counts survive a clean restart: the limit holds across it', async () => {
    const first = makeTestApp({ now: NOW, fileDatabase: true, env: { FREE_DAILY_LIMIT: '4' } })
    const { key, account } = await keyFor(first)
    for (let i = 0; i < 3; i++) expect((await status(first, key)).status).toBe(200)
    // Clean shutdown: the write-behind timer's stop writes what is left.
    const stop = first.deps.meter.start()
    await stop()
    first.db.close()

    const db = openDatabase(first.config.databasePath)
    applyMigrations(db, MIGRATIONS)
    const clock = new FakeClock(Date.parse(NOW))
    const deps = sqliteDeps({ config: first.config, clock, log: memoryLogger(), signer: testSigner(), calendars: sharedCalendars(), db })
    const app = buildApp(deps)
    const again = (k: string) => app.handle(new Request('http://localhost/v5/status', { headers: { 'x-oracle-key': k } }))
    expect(await deps.meter.usage(account)).toEqual({ today: 3, month: 3 })
    const fourth = await again(key)
    expect(fourth.status).toBe(200)
    expect(fourth.headers.get('x-ratelimit-remaining')).toBe('0')
    expect((await again(key)).status).toBe(402)
    await deps.meter.flush()
    db.close()
  })

  test('counts are written behind within a second by the timer, without a flush call', async () => {
    const harness = makeTestApp({ now: NOW, fileDatabase: true })
    const { key, account } = await keyFor(harness)
    const stop = harness.deps.meter.start()
    for (let i = 0; i < 3; i++) await status(harness, key)
    expect(storedToday(harness, account.id)).toBe(0)
    await Bun.sleep(1300)
    expect(storedToday(harness, account.id)).toBe(3)
    await stop()
  })

  test('a failed write keeps the counts for the next flush', async () => {
    const rows: { accountId: number; day: string; requests: number }[] = []
    let failures = 1
    const store: UsageStore = {
      counts: async () => ({ day: 0, month: 0 }),
      add: async (batch) => {
        if (failures-- > 0) throw new Error('disk full')
        rows.push(...batch)
      },
      onDay: async () => new Map(),
    }
    const writes = { claim: async () => null, addRequests: async () => {}, debitCredit: async () => null, spendSandboxCall: async () => null, refundCredit: async () => {}, refundSandboxCall: async () => {}, creditBalance: async () => 0, sandboxCallsLeft: async () => 0 } satisfies MeterWrites
    const log = memoryLogger()
    const meter = new Meter(store, writes, new FakeClock(Date.parse(NOW)), log, { daily: 10, monthly: 300 })
    const account = { id: 7, plan: 'free' } as Parameters<Meter['meter']>[0]
    await meter.meter(account, '/v5/status')
    await meter.meter(account, '/v5/status')
    await meter.flush()
    expect(rows).toEqual([])
    expect(log.lines.some((line) => line.msg === 'usage counts not written; retrying')).toBe(true)
    await meter.meter(account, '/v5/status')
    await meter.flush()
    expect(rows).toEqual([{ accountId: 7, day: '2026-03-10', requests: 3 }])
  })

  test('REUSE_PORT=true: two processes over one database admit exactly the limit between them', async () => {
    const first = makeTestApp({ now: NOW, fileDatabase: true, env: { FREE_DAILY_LIMIT: '15', REUSE_PORT: 'true', X402_PAY_TO: PAY_TO } })
    const { key, account } = await keyFor(first, { creditBalance: 4 })
    // A second "process": its own connection, meter and app over the same file.
    const db = openDatabase(first.config.databasePath)
    const deps = sqliteDeps({ config: first.config, clock: first.clock, log: memoryLogger(), signer: testSigner(), calendars: sharedCalendars(), db })
    const second = buildApp(deps)
    const call = (i: number) => (i % 2 ? status(first, key) : second.handle(new Request('http://localhost/v5/status', { headers: { 'x-oracle-key': key } })))
    // Both have seen the key before the burst (each seeds its own view).
    expect((await call(0)).status).toBe(200)
    expect((await call(1)).status).toBe(200)
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => call(i)))
    expect(answers.filter((r) => r.status === 200)).toHaveLength(15 + 4 - 2)
    expect(storedToday(first, account.id)).toBe(19)
    expect(await first.deps.meter.creditBalance(account.id)).toBe(0)
    expect(await deps.meter.usage(account)).toEqual({ today: 19, month: 19 })
    db.close()
  })

  test('a plan change through the cached key store takes effect within one second', async () => {
    const harness = makeTestApp({ now: NOW, env: { FREE_DAILY_LIMIT: '1' } })
    harness.deps.accounts = cachedAccountStore(sqliteAccountStore(harness.db), harness.clock)
    const { key, account } = await keyFor(harness)
    expect((await status(harness, key)).status).toBe(200)
    expect((await status(harness, key)).status).toBe(402)
    harness.db.query(`UPDATE api_keys SET plan = 'pro', class = 'paid' WHERE id = ?`).run(account.id)
    harness.clock.advance(1000)
    const upgraded = await status(harness, key)
    expect(upgraded.status).toBe(200)
    expect(upgraded.headers.get('x-ratelimit-limit')).toBe('200000')
    harness.db.query(`UPDATE api_keys SET status = 'suspended' WHERE id = ?`).run(account.id)
    harness.clock.advance(1000)
    expect((await status(harness, key)).status).toBe(402)
  })
})
