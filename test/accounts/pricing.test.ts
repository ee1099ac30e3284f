// Issue 24 item 17: no dead ends on a fresh install. /pricing is served (JSON, and HTML for a
// browser) from the configuration, and every answer, e-mail and document offers only what the
// installation can do — checked on a bare configuration and on a fully configured one (every URL
// of it a loopback port nothing listens on), and on a half-configured card setup.
import { describe, expect, test } from 'bun:test'
import { makeTestApp, type TestApp } from '../helpers/app'
import { FULLY_CONFIGURED } from '../helpers/configured'
import { clientKey, postJson, submission } from '../helpers/checkpoints'
import { issueKey } from '../../src/accounts/keys'
import { freeKeyMail, sandboxKeyMail } from '../../src/accounts/offers'
import { documentValues, renderTemplate, TEXT_DOCUMENTS } from '../../src/discovery/text-documents'
import { post } from './self-service-helpers'

const HTML = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' }
const SOLD_ROUTES = /\/v5\/checkout|\/v5\/x402\/mint|\/v5\/credits\/purchase/

/** A free key past its daily limit: the 402 answer of its next /v5/status. */
async function freeTierExhausted(t: TestApp) {
  const { key } = await issueKey(t.deps.accounts, { plan: 'free', now: new Date(t.clock.now()) })
  expect((await t.request('/v5/status?mic=XNYS', { headers: { 'x-oracle-key': key } })).status).toBe(200)
  return t.json('/v5/status?mic=XNYS', { headers: { 'x-oracle-key': key } })
}

/** A sandbox key with no calls left: the 402 answer of its next /v5/status. */
async function sandboxExhausted(t: TestApp) {
  const { key } = await issueKey(t.deps.accounts, { plan: 'sandbox', keyClass: 'sandbox', callsRemaining: 0, expiresAt: new Date(t.clock.now() + 86_400_000).toISOString(), now: new Date(t.clock.now()) })
  return t.json('/v5/status?mic=XNYS', { headers: { 'x-oracle-key': key } })
}

/** The witness's anonymous cap reached: the 503 body. */
async function witnessCapped(t: TestApp) {
  const key = clientKey()
  await t.request('/v1/witness/checkpoints', postJson(submission(key, { count: 1 }), { 'cf-connecting-ip': '198.18.0.1' }))
  return (await t.request('/v1/witness/checkpoints', postJson(submission(key, { count: 2 }), { 'cf-connecting-ip': '198.18.0.2' }))).json() as Promise<Record<string, unknown>>
}

const llmsFull = (t: TestApp) => renderTemplate(TEXT_DOCUMENTS['/llms-full.txt'].template, documentValues(t.deps))

describe('a bare installation (nothing configured)', () => {
  const t = makeTestApp({ env: { FREE_DAILY_LIMIT: '1', WITNESS_ANON_DAILY_CAP: '1' } })

  test('upgrade_url is served: /pricing answers JSON with the free and sandbox keys only', async () => {
    const instant = await post(t, '/v5/keys/instant', { agent_id: 'fresh-install' })
    const pricingPath = new URL(instant.body.upgrade_url).pathname
    expect(pricingPath).toBe('/pricing')
    const answer = await t.json(pricingPath)
    expect(answer.status).toBe(200)
    expect(answer.headers.get('content-type')).toBe('application/json')
    expect(answer.body).toMatchObject({ pay_per_request: null, credits: null, witness: null, sandbox: { emailed: false } })
    expect(Object.keys(answer.body.plans)).toEqual(['free'])
    expect(answer.body.free.get.map((way: { via: string }) => way.via)).toEqual(['instant'])
    expect(JSON.stringify(answer.body)).not.toMatch(SOLD_ROUTES)
  })

  test('/pricing for a browser is a page that says nothing is sold', async () => {
    const page = await t.request('/pricing', { headers: HTML })
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(page.headers.get('vary')).toBe('Accept')
    const html = await page.text()
    expect(html).toStartWith('<!doctype html>')
    expect(html).toContain('Nothing is sold here')
    expect(html).not.toMatch(SOLD_ROUTES)
    expect(html).not.toContain('<script')
  })

  test('402 answers offer nothing that cannot be bought; no upgrade_url', async () => {
    const free = await freeTierExhausted(t)
    expect(free.status).toBe(402)
    expect(free.body.error).toBe('FREE_TIER_EXHAUSTED')
    expect(free.body.message).toContain('Nothing is sold on this server')
    expect(free.body.message).not.toMatch(/credits|upgrade|x402/i)
    expect(free.body.upgrade_url).toBeUndefined()
    expect(free.body.accepts).toEqual([])
    const sandbox = await sandboxExhausted(t)
    expect(sandbox.body.error).toBe('SANDBOX_KEY_EXHAUSTED')
    expect(sandbox.body.message).not.toMatch(/upgrade/i)
    expect(sandbox.body.upgrade_url).toBeUndefined()
  })

  test('the sandbox limit offers the free plan only; the instant-key repeat does not offer e-mail', async () => {
    await post(t, '/v5/sandbox', { email: 'a@example.com' }, '203.0.113.40')
    const limited = await post(t, '/v5/sandbox', { email: 'b@example.com' }, '203.0.113.40')
    expect(limited.status).toBe(429)
    expect(Object.keys(limited.body.plans)).toEqual(['free'])
    expect(limited.body.message).not.toMatch(/upgrade/i)
    const repeat = await post(t, '/v5/keys/instant', { agent_id: 'fresh-install' })
    expect(JSON.stringify(repeat.body)).not.toMatch(/e-mail|email/i)
  })

  test('no card checkout, no witness checkout (the cap\'s upgrade lists the plans, checkout null), no "Upgrade" in e-mails, and the agents document says nothing is sold', async () => {
    expect((await t.json('/v5/checkout', { method: 'POST', body: JSON.stringify({ plan: 'pro' }) })).body.error).toBe('BILLING_NOT_CONFIGURED')
    const capped = await witnessCapped(t)
    expect(capped.error).toBe('witness_unavailable')
    // witness.md: the cap's answer has upgrade; with nothing to sell it offers no checkout that would answer 503.
    expect(capped.upgrade).toMatchObject({ checkout: null, pricing: `${t.config.publicBaseUrl}/pricing`, note: expect.stringContaining('no checkout is configured') })
    expect((capped.upgrade as { plans: { plan: string }[] }).plans.map((plan) => plan.plan)).toEqual(['custody_90d', 'custody_1y'])
    expect(freeKeyMail(t.config, 'svc_free_x').text).not.toContain('Upgrade')
    expect(sandboxKeyMail(t.config, 'sb_x', '2026-03-09T00:00:00.000Z').text).not.toContain('Upgrade')
    expect(llmsFull(t)).toContain('Paid plans and credits: none are sold on this server.')
    expect(llmsFull(t)).not.toMatch(SOLD_ROUTES)
  })
})

describe('a fully configured installation', () => {
  const t = makeTestApp({ env: { ...FULLY_CONFIGURED, FREE_DAILY_LIMIT: '1', WITNESS_ANON_DAILY_CAP: '1' } })

  test('/pricing lists every plan with each configured way to pay, and credits, x402 and custody', async () => {
    const { body } = await t.json('/pricing')
    expect(Object.keys(body.plans)).toEqual(['free', 'builder', 'pro'])
    expect(body.plans.builder).toMatchObject({ price_usdc: '99', mint: expect.stringContaining('/v5/x402/mint'), checkout: expect.stringContaining('/v5/checkout') })
    expect(body.free.get.map((way: { via: string }) => way.via)).toEqual(['instant', 'email'])
    expect(body.pay_per_request).toMatchObject({ scheme: 'x402', prices_usdc: { '/v5/status': t.config.x402.statusPrice } })
    expect(body.credits.ways.map((way: { via: string }) => way.via)).toEqual(['x402_transfer', 'card'])
    expect(body.witness.plans.map((plan: { plan: string }) => plan.plan)).toEqual(['custody_90d', 'custody_1y'])
    const html = await (await t.request('/pricing', { headers: HTML })).text()
    for (const text of ['/v5/x402/mint', '/v5/checkout', '/v5/credits/purchase', 'x402', 'Evidence: one-year custody']) expect(html).toContain(text)
    expect(html).not.toContain('Nothing is sold')
  })

  test('402 answers offer each configured way, with upgrade_url; e-mails link the pricing page', async () => {
    const free = await freeTierExhausted(t)
    expect(free.body.upgrade_url).toBe(`${t.config.publicBaseUrl}/pricing`)
    for (const way of ['with x402', 'POST /v5/credits/purchase', '1,000-credit key by card', `upgrade to a paid plan (${t.config.publicBaseUrl}/pricing)`]) expect(free.body.message).toContain(way)
    expect(free.body.accepts).toHaveLength(1)
    const sandbox = await sandboxExhausted(t)
    expect(sandbox.body).toMatchObject({ upgrade_url: `${t.config.publicBaseUrl}/pricing` })
    expect(sandbox.body.message).toContain('or upgrade')
    expect(freeKeyMail(t.config, 'svc_free_x').text).toContain(`Upgrade: ${t.config.publicBaseUrl}/pricing`)
  })

  test('card checkout goes on to the billing provider (a closed loopback port here: 502); the witness offers its plans', async () => {
    expect((await t.json('/v5/checkout', { method: 'POST', body: JSON.stringify({ plan: 'pro' }) })).body.error).toBe('BILLING_PROVIDER_ERROR')
    const capped = await witnessCapped(t)
    expect((capped.upgrade as { plans: unknown[] }).plans).toHaveLength(2)
  })
})

test('half a card setup (API key and prices, no webhook secret) sells nothing by card: the buyer would pay and get no key', async () => {
  const { PADDLE_WEBHOOK_SECRET: _secret, ...withoutSecret } = FULLY_CONFIGURED
  const t = makeTestApp({ env: { ...withoutSecret, X402_PAY_TO: '', CHAIN_RPC_URL: '', X402_FACILITATOR_URL: '' } })
  expect((await t.json('/v5/checkout', { method: 'POST', body: JSON.stringify({ plan: 'builder' }) })).status).toBe(503)
  const { body } = await t.json('/pricing')
  expect(Object.keys(body.plans)).toEqual(['free'])
  expect(body.credits).toBeNull()
  expect(body.witness).toBeNull()
})

test('Accept negotiation: curl and fetch get JSON, a browser and an explicit text/html get the page', async () => {
  const t = makeTestApp()
  for (const [accept, type] of [[null, 'application/json'], ['*/*', 'application/json'], ['application/json', 'application/json'], ['text/html', 'text/html; charset=utf-8'], ['application/json, text/html;q=0.5', 'application/json'], [HTML.accept, 'text/html; charset=utf-8']] as const) {
    const response = await t.request('/pricing', accept ? { headers: { accept } } : {})
    expect([accept, response.headers.get('content-type')]).toEqual([accept, type])
  }
})
