import { describe, expect, test } from 'bun:test'
import { issueKey, type IssueKeyOptions } from '../../src/accounts/keys'
import { cachedAccountStore } from '../../src/accounts/cache'
import { sqliteAccountStore } from '../../src/accounts/store'
import { makeTestApp, type TestApp } from '../helpers/app'

const NOW = '2026-03-10T15:00:00.000Z'
const PAY_TO = '0x' + '2'.repeat(40)

async function keyFor(harness: TestApp, options: Partial<IssueKeyOptions> = {}) {
  return issueKey(harness.deps.accounts, { plan: 'free', now: new Date(harness.clock.now()), ...options })
}
const get = (harness: TestApp, path: string, key?: string) => harness.json(path, { headers: key ? { 'x-oracle-key': key } : {} })
const USAGE_FIELDS = ['key_prefix', 'plan', 'requests_today', 'requests_this_month', 'daily_limit', 'monthly_limit', 'percent_used_today', 'percent_used_month', 'rate_limit_resets_at', 'upgrade_url', 'x402_available', 'x402_amount', 'credit_balance'].sort()

describe('GET /v5/account', () => {
  test('plan, status and key prefix; 401 without a key, 403 unknown, 402 suspended/cancelled with status', async () => {
    const harness = makeTestApp({ now: NOW })
    const { key, account } = await keyFor(harness, { plan: 'builder' })
    expect(await get(harness, '/v5/account', key)).toMatchObject({ status: 200, body: { plan: 'builder', status: 'active', key_prefix: account.key_prefix } })
    expect(Object.keys((await get(harness, '/v5/account', key)).body).sort()).toEqual(['key_prefix', 'plan', 'status'])
    expect(key.startsWith(account.key_prefix)).toBe(true)
    expect(await get(harness, '/v5/account')).toMatchObject({ status: 401, body: { error: 'API_KEY_REQUIRED' } })
    expect(await get(harness, '/v5/account', 'svc_live_' + 'f'.repeat(64))).toMatchObject({ status: 403, body: { error: 'INVALID_API_KEY' } })
    for (const state of ['suspended', 'cancelled'] as const) {
      await harness.deps.accounts.setStatus(account.id, state)
      expect(await get(harness, '/v5/account', key)).toMatchObject({ status: 402, body: { error: 'ACCOUNT_INACTIVE', status: state } })
      expect(await get(harness, '/v5/usage', key)).toMatchObject({ status: 402, body: { error: 'ACCOUNT_INACTIVE', status: state } })
    }
  })

  test('with the one-second key cache of the service: the answer states the account as stored now; 404 when its row is gone', async () => {
    const harness = makeTestApp({ now: NOW })
    harness.deps.accounts = cachedAccountStore(sqliteAccountStore(harness.db), harness.clock)
    const { key, account } = await keyFor(harness, { plan: 'builder' })
    expect((await get(harness, '/v5/account', key)).body.plan).toBe('builder')
    // Changed by another process (billing, the CLI) within the cache's second.
    harness.db.query("UPDATE api_keys SET plan = 'pro' WHERE id = ?").run(account.id)
    expect(await get(harness, '/v5/account', key)).toMatchObject({ status: 200, body: { plan: 'pro', status: 'active' } })
    harness.db.query("UPDATE api_keys SET status = 'suspended' WHERE id = ?").run(account.id)
    expect(await get(harness, '/v5/account', key)).toMatchObject({ status: 402, body: { error: 'ACCOUNT_INACTIVE', status: 'suspended' } })
    harness.db.query("UPDATE api_keys SET status = 'active' WHERE id = ?").run(account.id)
    expect((await get(harness, '/v5/account', key)).status).toBe(200)
    harness.db.query('DELETE FROM api_keys WHERE id = ?').run(account.id)
    expect(await get(harness, '/v5/account', key)).toMatchObject({ status: 404, body: { error: 'ACCOUNT_NOT_FOUND' } })
  })
})

describe('GET /v5/usage', () => {
  test('a free key: every spec field, counts that follow the metered calls, the monthly figure', async () => {
    const harness = makeTestApp({ now: NOW, env: { FREE_DAILY_LIMIT: '8', FREE_MONTHLY_LIMIT: '240', X402_PAY_TO: PAY_TO } })
    const { key, account } = await keyFor(harness, { creditBalance: 3 })
    harness.db.query('INSERT INTO key_usage (account_id, day, requests) VALUES (?, ?, ?)').run(account.id, '2026-03-01', 10)
    harness.db.query('INSERT INTO key_usage (account_id, day, requests) VALUES (?, ?, ?)').run(account.id, '2026-02-28', 99)
    for (let i = 0; i < 2; i++) expect((await get(harness, '/v5/status', key)).status).toBe(200)
    const { status, body } = await get(harness, '/v5/usage', key)
    expect(status).toBe(200)
    expect(Object.keys(body).sort()).toEqual(USAGE_FIELDS)
    expect(body).toEqual({
      key_prefix: account.key_prefix,
      plan: 'free',
      requests_today: 2,
      requests_this_month: 12,
      daily_limit: 8,
      monthly_limit: 240,
      percent_used_today: 25,
      percent_used_month: 5,
      rate_limit_resets_at: '2026-03-11T00:00:00.000Z',
      upgrade_url: harness.config.witness.pricingUrl,
      x402_available: true,
      x402_amount: '0.001',
      credit_balance: 3,
    })
    // /v5/usage itself is not metered, nor /v5/account.
    await get(harness, '/v5/account', key)
    expect((await get(harness, '/v5/usage', key)).body.requests_today).toBe(2)
  })

  test('a paid key: its daily limit, no monthly limit; x402_available false without X402_PAY_TO', async () => {
    const harness = makeTestApp({ now: NOW })
    const { key } = await keyFor(harness, { plan: 'pro' })
    await get(harness, '/v5/batch?mics=XNYS,XLON', key)
    const { body } = await get(harness, '/v5/usage', key)
    expect(body).toMatchObject({ plan: 'pro', requests_today: 1, daily_limit: 200000, monthly_limit: null, percent_used_today: 0, percent_used_month: 0, x402_available: false, credit_balance: 0 })
  })

  test('a sandbox key: calls left and expiry; the allowance ends rather than resets', async () => {
    const harness = makeTestApp({ now: NOW })
    const expiresAt = '2026-03-17T15:00:00.000Z'
    const { key } = await keyFor(harness, { plan: 'sandbox', callsRemaining: 200, expiresAt })
    for (let i = 0; i < 4; i++) await get(harness, '/v5/status', key)
    const { body } = await get(harness, '/v5/usage', key)
    expect(body).toMatchObject({ plan: 'sandbox', requests_today: 4, daily_limit: null, monthly_limit: null, calls_remaining: 196, expires_at: expiresAt, rate_limit_resets_at: expiresAt, percent_used_today: 2 })
  })

  test('401 without a key, 403 with an unknown one', async () => {
    const harness = makeTestApp({ now: NOW })
    expect((await get(harness, '/v5/usage')).status).toBe(401)
    expect((await get(harness, '/v5/usage', 'sb_' + '0'.repeat(64))).status).toBe(403)
  })
})
