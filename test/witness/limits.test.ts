import { describe, expect, test } from 'bun:test'
import { issueKey } from '../../src/accounts/keys'
import { RateLimiter } from '../../src/http/rate-limit'
import { submitCheckpoint } from '../../src/witness/service'
import { checkSubmission } from '../../src/witness/checks'
import { secondsToUtcMidnight } from '../../src/witness/limits'
import { forEachBackendApp, type BackendApp } from '../helpers/backend-app'
import { clientKey, postJson, submission } from '../helpers/checkpoints'
import { FULLY_CONFIGURED } from '../helpers/configured'

const PATH = '/v1/witness/checkpoints'
const post = (harness: BackendApp, body: unknown, headers: Record<string, string>) => harness.request(PATH, postJson(body, headers))

forEachBackendApp('witness limits', (make) => {
  describe('anonymous rate limits', () => {
    test('60 POSTs per minute per address, counted before the body is read; GET counted separately; Retry-After to the next minute', async () => {
      const harness = await make({ now: '2026-03-10T15:00:20.000Z' })
      const from = { 'cf-connecting-ip': '203.0.113.50' }
      for (let i = 0; i < 60; i++) expect((await post(harness, '{"bad":', from)).status).toBe(400)
      const limited = await post(harness, submission(clientKey()), from)
      expect(limited.status).toBe(429)
      expect(limited.headers.get('retry-after')).toBe('40')
      expect(((await limited.json()) as { error: string; docs: string }).error).toBe('RATE_LIMITED')
      // GET has its own budget; another address has its own too.
      expect((await harness.request(`${PATH}?kid=${'A'.repeat(43)}&session_id=s`, { headers: from })).status).toBe(200)
      expect((await post(harness, submission(clientKey()), { 'cf-connecting-ip': '203.0.113.51' })).status).toBe(201)
      harness.clock.set('2026-03-10T15:01:00.000Z')
      expect((await post(harness, submission(clientKey()), from)).status).toBe(201)
    }, 60_000)

    test('60 GETs per minute per address', async () => {
      const harness = await make()
      const from = { headers: { 'cf-connecting-ip': '203.0.113.60' } }
      for (let i = 0; i < 60; i++) expect((await harness.request(`${PATH}?kid=${'A'.repeat(43)}&session_id=s`, from)).status).toBe(200)
      const limited = await harness.request(`${PATH}?kid=${'A'.repeat(43)}&session_id=s`, from)
      expect(limited.status).toBe(429)
      expect(limited.headers.get('retry-after')).not.toBeNull()
    })

    test('IPv6 addresses share a budget per /64; a missing header is the single key none', async () => {
      const harness = await make()
      for (let i = 0; i < 60; i++) await post(harness, '{', { 'cf-connecting-ip': `2001:db8:aa:bb::${i.toString(16)}` })
      expect((await post(harness, '{', { 'cf-connecting-ip': '2001:db8:aa:bb:ffff::1' })).status).toBe(429)
      for (let i = 0; i < 60; i++) await post(harness, '{', {})
      expect((await post(harness, '{', {})).status).toBe(429)
    })
  })

  describe('authorized limits and quotas', () => {
    test('X-RateLimit-Limit: 600 on authorized answers, errors included; 600 per address before the body', async () => {
      const harness = await make()
      const { key } = await issueKey(harness.deps.accounts, { plan: 'evidence', now: new Date(harness.clock.now()) })
      const auth = { authorization: `Bearer ${key}`, 'cf-connecting-ip': '203.0.113.70' }
      const ok = await post(harness, submission(clientKey()), auth)
      expect(ok.status).toBe(201)
      expect(ok.headers.get('x-ratelimit-limit')).toBe('600')
      const bad = await post(harness, '{', auth)
      expect(bad.status).toBe(400)
      expect(bad.headers.get('x-ratelimit-limit')).toBe('600')
      for (let i = 0; i < 598; i++) await post(harness, '{', auth)
      const limited = await post(harness, submission(clientKey()), auth)
      expect(limited.status).toBe(429)
      expect(limited.headers.get('x-ratelimit-limit')).toBe('600')
    }, 60_000)

    test('600 per account after the key check, across addresses', async () => {
      const harness = await make()
      const { key } = await issueKey(harness.deps.accounts, { plan: 'evidence', now: new Date(harness.clock.now()) })
      const body = submission(clientKey())
      for (let i = 0; i < 600; i++) await post(harness, body, { authorization: `Bearer ${key}`, 'cf-connecting-ip': `10.0.${Math.floor(i / 250)}.${i % 250}` })
      const limited = await post(harness, body, { authorization: `Bearer ${key}`, 'cf-connecting-ip': '10.9.9.9' })
      expect(limited.status).toBe(429)
      expect(((await limited.json()) as { error: string }).error).toBe('RATE_LIMITED')
    }, 60_000)

    test('anonymous daily cap: new rows get 503 with upgrade (where custody plans are sold); repeats still 200; accounts are not blocked; a new UTC day resets', async () => {
      // A database of its own: the cap counts every anonymous row of the day.
      const harness = await make({ now: '2026-03-10T23:59:00.000Z', env: { ...FULLY_CONFIGURED, WITNESS_ANON_DAILY_CAP: '2' }, freshDatabase: true })
      const key = clientKey()
      let n = 0
      const anon = (count: number) => post(harness, submission(key, { count }), { 'cf-connecting-ip': `198.18.0.${++n}` })
      expect((await anon(1)).status).toBe(201)
      expect((await anon(2)).status).toBe(201)
      const capped = await anon(3)
      expect(capped.status).toBe(503)
      const body = (await capped.json()) as Record<string, any>
      expect(body.error).toBe('witness_unavailable')
      expect(body.upgrade.plans.map((p: { plan: string }) => p.plan)).toEqual(['custody_90d', 'custody_1y'])
      for (const plan of body.upgrade.plans) for (const field of ['plan', 'name', 'amount_usd', 'currency', 'billing', 'checkpoints_per_utc_day']) expect(plan).toHaveProperty(field)
      expect(body.upgrade.checkout).toMatchObject({ method: 'POST', url: 'https://oracle.test/v5/checkout' })
      for (const field of ['headers', 'body', 'then']) expect(body.upgrade.checkout).toHaveProperty(field)
      expect(body.upgrade.pricing).toBe('https://oracle.test/pricing')
      expect((await anon(2)).status).toBe(200)
      const { key: apiKey } = await issueKey(harness.deps.accounts, { plan: 'evidence_starter', now: new Date(harness.clock.now()) })
      expect((await post(harness, submission(key, { count: 3 }), { authorization: `Bearer ${apiKey}` })).status).toBe(201)
      harness.clock.set('2026-03-11T00:00:00.000Z')
      expect((await anon(4)).status).toBe(201)
    })

    test('anonymous daily cap where no custody plan is sold: 503 still has upgrade, with both plans, pricing and no checkout', async () => {
      const harness = await make({ now: '2026-03-12T12:00:00.000Z', env: { WITNESS_ANON_DAILY_CAP: '1' }, freshDatabase: true })
      const key = clientKey()
      expect((await post(harness, submission(key, { count: 1 }), { 'cf-connecting-ip': '198.18.2.1' })).status).toBe(201)
      const capped = await post(harness, submission(key, { count: 2 }), { 'cf-connecting-ip': '198.18.2.2' })
      expect(capped.status).toBe(503)
      const body = (await capped.json()) as Record<string, any>
      expect(body).toMatchObject({ error: 'witness_unavailable', upgrade: { checkout: null, pricing: 'https://oracle.test/pricing' } })
      expect(body.upgrade.plans.map((plan: { plan: string }) => plan.plan)).toEqual(['custody_90d', 'custody_1y'])
      for (const plan of body.upgrade.plans) for (const field of ['plan', 'name', 'amount_usd', 'currency', 'billing', 'checkpoints_per_utc_day']) expect(plan).toHaveProperty(field)
      expect(capped.headers.get('retry-after')).toBe(String(12 * 3600))
    })

    test('evidence_starter quota: 1,000 new checkpoints per UTC day, then 429 quota_exceeded with Retry-After to midnight; repeats are free', async () => {
      const harness = await make({ now: '2026-03-10T18:00:00.000Z', env: FULLY_CONFIGURED })
      const { key: apiKey, account } = await issueKey(harness.deps.accounts, { plan: 'evidence_starter', now: new Date(harness.clock.now()) })
      const key = clientKey()
      const deps = { store: harness.deps.witness.store, transactor: harness.deps.transactor, signer: harness.deps.signer, witness: 'oracle.test', limits: harness.config.witness }
      for (let count = 1; count <= 999; count++) {
        const verified = checkSubmission(submission(key, { count }))
        if (!verified.ok) throw new Error(verified.message)
        await submitCheckpoint(deps, verified.value, { pool: 'account', accountId: account.id, plan: 'evidence_starter' }, harness.clock.now())
      }
      const auth = { authorization: `Bearer ${apiKey}` }
      expect((await post(harness, submission(key, { count: 1000 }), auth)).status).toBe(201)
      const over = await post(harness, submission(key, { count: 1001 }), auth)
      expect(over.status).toBe(429)
      expect(over.headers.get('retry-after')).toBe(String(6 * 3600))
      const body = (await over.json()) as Record<string, any>
      expect(body.error).toBe('quota_exceeded')
      expect(body.upgrade.plans).toHaveLength(2)
      expect((await post(harness, submission(key, { count: 1000 }), auth)).status).toBe(200)
      // Account rows never count against the anonymous cap.
      expect((await post(harness, submission(key, { count: 1001 }), { 'cf-connecting-ip': '198.18.1.1' })).status).toBe(201)
    }, 180_000)
  })
})

describe('limiter and clock rules', () => {
  test('a limiter fault admits the request (fail open)', () => {
    const limiter = new RateLimiter(1)
    ;(limiter as unknown as { counts: Map<string, number> }).counts = new (class extends Map<string, number> {
      override get(): number {
        throw new Error('broken')
      }
    })()
    ;(limiter as unknown as { window: number }).window = Math.floor(Date.now() / 60_000)
    expect(limiter.hit('x', Date.now()).allowed).toBe(true)
    expect(limiter.hit('x', Date.now()).allowed).toBe(true)
  })

  test('seconds to 00:00 UTC', () => {
    expect(secondsToUtcMidnight(Date.parse('2026-03-10T23:59:59.500Z'))).toBe(1)
    expect(secondsToUtcMidnight(Date.parse('2026-03-10T00:00:00.000Z'))).toBe(86_400)
  })
})

describe('a full limiter table', () => {
  test('evicts the oldest key and keeps limiting (a flood of new keys never turns limiting off)', () => {
    const limiter = new RateLimiter(2, 60_000, 100)
    const now = Date.parse('2026-11-23T10:00:00Z')
    limiter.hit('victim', now)
    limiter.hit('victim', now)
    for (let i = 0; i < 1000; i++) expect(limiter.hit(`flood-${i}`, now).allowed).toBe(true)
    // Every key in the table is still limited: the table is full yet a third hit is refused.
    expect(limiter.hit('flood-999', now).allowed).toBe(true)
    expect(limiter.hit('flood-999', now).allowed).toBe(false)
    expect((limiter as unknown as { counts: Map<string, number> }).counts.size).toBe(100)
  })
})
