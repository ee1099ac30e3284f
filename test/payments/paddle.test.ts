// Billing provider (Paddle): signatures checked against the official SDK's verifier, idempotent
// and ordered event handling, keys that work and stop working, and checkout.
//
// The Paddle API itself cannot run locally, so /v5/checkout and the customer look-up talk to a
// hand-written stand-in below that answers the two calls this service makes, in Paddle's shapes.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createHmac } from 'node:crypto'
import { Paddle } from '@paddle/paddle-node-sdk'
import { makeTestApp, type TestApp } from '../helpers/app'
import { checkPaddleSignature } from '../../src/payments/paddle/signature'
import { CHECKOUT_PER_MINUTE } from '../../src/payments/routes/checkout'

const SECRET = 'pdl_ntfset_test_secret_0123456789'
const OLD_SECRET = 'pdl_ntfset_old_secret_0123456789'
const PRICES = { PADDLE_PRICE_BUILDER: 'pri_builder01', PADDLE_PRICE_PRO: 'pri_pro01', PADDLE_PRICE_CREDITS: 'pri_credits01', PADDLE_PRICE_CUSTODY_90D: 'pri_c90d01', PADDLE_PRICE_CUSTODY_1Y: 'pri_c1y01' }

/** Signs a body the way Paddle does: ts=<seconds>;h1=HMAC-SHA256("<ts>:<body>"). */
function sign(body: string, secret = SECRET, ts = Math.floor(Date.now() / 1000)): string {
  return `ts=${ts};h1=${createHmac('sha256', secret).update(`${ts}:${body}`).digest('hex')}`
}

// The stand-in for the Paddle API (see the note at the top).
const apiCalls: { method: string; path: string; body: unknown; auth: string | null }[] = []
let apiFailing = false
const paddleApi = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  async fetch(request) {
    const { pathname } = new URL(request.url)
    const body = request.method === 'POST' ? await request.json() : null
    apiCalls.push({ method: request.method, path: pathname, body, auth: request.headers.get('authorization') })
    if (apiFailing) return Response.json({ error: { type: 'api_error', code: 'internal_error' } }, { status: 500 })
    if (request.method === 'POST' && pathname === '/transactions') return Response.json({ data: { id: 'txn_checkout01', status: 'ready', checkout: { url: 'https://pay.example/checkout?_ptxn=txn_checkout01' } } }, { status: 201 })
    const customer = /^\/customers\/(ctm_[a-z0-9]+)$/.exec(pathname)
    if (customer) return Response.json({ data: { id: customer[1], email: 'buyer@example.com' } })
    return Response.json({ error: { type: 'request_error', code: 'not_found' } }, { status: 404 })
  },
})

let t: TestApp
beforeAll(() => {
  // E-mail configured (never contacted: the mail job is not started here): a card checkout is
  // offered only where the bought key can be mailed (src/catalogue/capabilities.ts).
  t = makeTestApp({ now: new Date().toISOString(), env: { PADDLE_WEBHOOK_SECRET: `${SECRET},${OLD_SECRET}`, PADDLE_API_KEY: 'pdl_test_apikey_0123456789', PADDLE_API_URL: `http://127.0.0.1:${paddleApi.port}`, SMTP_URL: 'smtp://127.0.0.1:9', MAIL_FROM: 'keys@oracle.test', ...PRICES } })
})
afterAll(() => paddleApi.stop(true))

let sequence = 0
function event(type: string, data: Record<string, unknown>, occurredAt = new Date(t.clock.now()).toISOString()) {
  return { event_id: `evt_${(++sequence).toString().padStart(6, '0')}`, event_type: type, occurred_at: occurredAt, notification_id: `ntf_${sequence}`, data }
}
async function deliver(body: unknown, signature?: string) {
  const text = JSON.stringify(body)
  return t.json('/webhooks/paddle', { method: 'POST', headers: { 'content-type': 'application/json', 'paddle-signature': signature ?? sign(text) }, body: text })
}
const purchase = (price: string, extra: Record<string, unknown> = {}) => event('transaction.completed', { id: `txn_${sequence + 1}`, status: 'completed', customer_id: 'ctm_abc', items: [{ price: { id: price }, quantity: 1 }], custom_data: { email: 'agent@example.com' }, ...extra })
const keyOf = (accountId: number) => t.db.query('SELECT * FROM api_keys WHERE id = ?').get(accountId) as Record<string, unknown>
const accountOfTransaction = (id: string) => (t.db.query('SELECT account_id FROM paddle_transactions WHERE transaction_id = ?').get(id) as { account_id: number }).account_id

describe('Paddle-Signature', () => {
  test('what this helper signs, the official Paddle SDK verifier accepts, and so does the service', async () => {
    const body = JSON.stringify({ event_id: 'evt_sdk', event_type: 'subscription.updated', occurred_at: new Date().toISOString(), data: {} })
    const signature = sign(body)
    const sdk = new Paddle('pdl_test_apikey_0123456789').webhooks
    expect(await sdk.isSignatureValid(body, SECRET, signature)).toBe(true)
    expect(checkPaddleSignature(signature, body, [SECRET], Date.now())).toEqual({ ok: true })
    expect(await sdk.isSignatureValid(body + ' ', SECRET, signature)).toBe(false)
  })

  test('missing header 400; forged, other-secret or stale signature 401; nothing recorded', async () => {
    const body = purchase(PRICES.PADDLE_PRICE_PRO)
    const text = JSON.stringify(body)
    const missing = await t.json('/webhooks/paddle', { method: 'POST', body: text })
    expect(missing).toMatchObject({ status: 400, body: { error: 'SIGNATURE_REQUIRED' } })
    for (const signature of [sign(text, 'not-the-secret-at-all'), sign(text + 'x'), sign(text, SECRET, Math.floor(t.clock.now() / 1000) - 301), sign(text, SECRET, Math.floor(t.clock.now() / 1000) + 301), 'ts=abc;h1=zz']) {
      expect(await deliver(body, signature)).toMatchObject({ status: 401, body: { error: 'INVALID_SIGNATURE' } })
    }
    expect(t.db.query('SELECT count(*) AS n FROM paddle_events').get()).toEqual({ n: 0 })
  })

  test('a retry 4 minutes later (which the SDK would refuse) and a rotated secret are accepted; several h1 values are tried', async () => {
    const late = purchase(PRICES.PADDLE_PRICE_BUILDER)
    const text = JSON.stringify(late)
    expect((await deliver(late, sign(text, SECRET, Math.floor(t.clock.now() / 1000) - 240))).status).toBe(200)
    const rotated = purchase(PRICES.PADDLE_PRICE_BUILDER)
    expect((await deliver(rotated, sign(JSON.stringify(rotated), OLD_SECRET))).status).toBe(200)
    const both = purchase(PRICES.PADDLE_PRICE_BUILDER)
    const bothText = JSON.stringify(both)
    const ts = Math.floor(t.clock.now() / 1000)
    const good = createHmac('sha256', SECRET).update(`${ts}:${bothText}`).digest('hex')
    expect((await deliver(both, `ts=${ts};h1=${'0'.repeat(64)};h1=${good}`)).status).toBe(200)
  })
})

describe('events', () => {
  test('transaction.completed creates a key of the bought plan; a redelivery changes nothing', async () => {
    const body = purchase(PRICES.PADDLE_PRICE_PRO)
    const first = await deliver(body)
    expect(first).toMatchObject({ status: 200, body: { outcome: 'applied' } })
    const account = keyOf(accountOfTransaction(body.data.id as string))
    expect(account).toMatchObject({ plan: 'pro', class: 'paid', status: 'active', email: 'agent@example.com' })
    const keysBefore = t.db.query('SELECT count(*) AS n FROM api_keys').get()
    expect(await deliver(body)).toMatchObject({ status: 200, body: { outcome: 'duplicate' } })
    expect(t.db.query('SELECT count(*) AS n FROM api_keys').get()).toEqual(keysBefore)
  })

  test('the same notification delivered three times at once (Paddle retries) makes one key and one mail', async () => {
    const body = purchase(PRICES.PADDLE_PRICE_BUILDER, { custom_data: null, customer_id: 'ctm_concurrent1' })
    const count = (sql: string) => (t.db.query(sql).get() as { n: number }).n
    const [keys, mails] = [count('SELECT count(*) AS n FROM api_keys'), count('SELECT count(*) AS n FROM mail_outbox')]
    const answers = await Promise.all([1, 2, 3].map(() => deliver(body)))
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200])
    expect(answers.map((answer) => answer.body.outcome).sort()).toEqual(['applied', 'duplicate', 'duplicate'])
    expect([count('SELECT count(*) AS n FROM api_keys'), count('SELECT count(*) AS n FROM mail_outbox')]).toEqual([keys + 1, mails + 1])
  })

  test('each price buys its plan: credits → a credit key with 1,000 credits; custody prices → Evidence keys', async () => {
    const expected: [string, Record<string, unknown>][] = [
      [PRICES.PADDLE_PRICE_CREDITS, { class: 'credit', credit_balance: 1000 }],
      [PRICES.PADDLE_PRICE_CUSTODY_90D, { plan: 'evidence_starter' }],
      [PRICES.PADDLE_PRICE_CUSTODY_1Y, { plan: 'evidence' }],
      [PRICES.PADDLE_PRICE_BUILDER, { plan: 'builder' }],
    ]
    for (const [price, fields] of expected) {
      const body = purchase(price)
      expect((await deliver(body)).status).toBe(200)
      expect(keyOf(accountOfTransaction(body.data.id as string))).toMatchObject(fields)
    }
    // The credits are in the ledger too, so the balance can be audited.
    const creditKey = (t.db.query("SELECT account_id FROM paddle_transactions WHERE product = 'credits'").get() as { account_id: number }).account_id
    expect(t.db.query('SELECT delta, kind, reference FROM credit_ledger WHERE account_id = ?').all(creditKey)).toEqual([{ delta: 1000, kind: 'grant', reference: expect.stringMatching(/^paddle:txn_/) }])
  })

  test('without custom_data.email the customer e-mail is fetched from the Paddle API', async () => {
    const body = purchase(PRICES.PADDLE_PRICE_PRO, { custom_data: null, customer_id: 'ctm_lookup1' })
    expect((await deliver(body)).status).toBe(200)
    expect(keyOf(accountOfTransaction(body.data.id as string)).email).toBe('buyer@example.com')
    expect(apiCalls.at(-1)).toMatchObject({ method: 'GET', path: '/customers/ctm_lookup1', auth: 'Bearer pdl_test_apikey_0123456789' })
  })

  test('the Paddle API down during the look-up → 503 (Paddle retries) and nothing is recorded', async () => {
    apiFailing = true
    try {
      const body = purchase(PRICES.PADDLE_PRICE_PRO, { custom_data: {}, customer_id: 'ctm_down1' })
      expect(await deliver(body)).toMatchObject({ status: 503, body: { error: 'BILLING_PROVIDER_UNAVAILABLE' } })
      expect(t.db.query('SELECT count(*) AS n FROM paddle_events WHERE event_id = ?').get(body.event_id)).toEqual({ n: 0 })
    } finally {
      apiFailing = false
    }
  })

  test('subscription events change the account status; an older event arriving late changes nothing', async () => {
    const bought = purchase(PRICES.PADDLE_PRICE_BUILDER, { subscription_id: 'sub_001' })
    await deliver(bought)
    const accountId = accountOfTransaction(bought.data.id as string)
    const base = t.clock.now()
    const at = (seconds: number) => new Date(base + seconds * 1000).toISOString()
    expect(await deliver(event('subscription.past_due', { id: 'sub_001', status: 'past_due' }, at(10)))).toMatchObject({ body: { outcome: 'applied' } })
    expect(keyOf(accountId).status).toBe('suspended')
    expect(await deliver(event('subscription.updated', { id: 'sub_001', status: 'active' }, at(20)))).toMatchObject({ body: { outcome: 'applied' } })
    expect(keyOf(accountId).status).toBe('active')
    expect(await deliver(event('subscription.updated', { id: 'sub_001', status: 'paused' }, at(25)))).toMatchObject({ body: { outcome: 'applied' } })
    expect(keyOf(accountId).status).toBe('suspended')
    expect(await deliver(event('subscription.canceled', { id: 'sub_001', status: 'canceled' }, at(40)))).toMatchObject({ body: { outcome: 'applied' } })
    // Arrives late: occurred before the cancellation, so it must not reactivate the key.
    expect(await deliver(event('subscription.updated', { id: 'sub_001', status: 'active' }, at(30)))).toMatchObject({ body: { outcome: 'stale' } })
    expect(keyOf(accountId).status).toBe('cancelled')
  })

  test('a renewal (a new completed transaction of the same subscription) or an upgrade makes no second key (the plan follows); the cancellation stops the one key', async () => {
    const bought = purchase(PRICES.PADDLE_PRICE_BUILDER, { subscription_id: 'sub_renew' })
    await deliver(bought)
    const accountId = accountOfTransaction(bought.data.id as string)
    const count = (sql: string) => (t.db.query(sql).get() as { n: number }).n
    const [keys, mails] = [count('SELECT count(*) AS n FROM api_keys'), count('SELECT count(*) AS n FROM mail_outbox')]
    const renewal = purchase(PRICES.PADDLE_PRICE_BUILDER, { subscription_id: 'sub_renew', origin: 'subscription_recurring' })
    expect(await deliver(renewal)).toMatchObject({ status: 200, body: { outcome: 'applied' } })
    expect(accountOfTransaction(renewal.data.id as string)).toBe(accountId)
    expect([count('SELECT count(*) AS n FROM api_keys'), count('SELECT count(*) AS n FROM mail_outbox')]).toEqual([keys, mails])
    // An upgrade within the subscription: the same key, on the plan now paid for.
    const upgrade = purchase(PRICES.PADDLE_PRICE_PRO, { subscription_id: 'sub_renew', origin: 'subscription_update' })
    expect(await deliver(upgrade)).toMatchObject({ status: 200, body: { outcome: 'applied' } })
    expect(keyOf(accountId)).toMatchObject({ plan: 'pro', status: 'active' })
    expect(count('SELECT count(*) AS n FROM api_keys')).toBe(keys)
    await deliver(event('subscription.canceled', { id: 'sub_renew', status: 'canceled' }, new Date(t.clock.now() + 1000).toISOString()))
    expect(keyOf(accountId).status).toBe('cancelled')
  })

  test('plan changes apply in provider time order: an older transaction or subscription update arriving late sets no plan back', async () => {
    const base = t.clock.now()
    const at = (seconds: number) => new Date(base + seconds * 1000).toISOString()
    const bought = event('transaction.completed', { ...purchase(PRICES.PADDLE_PRICE_BUILDER).data, id: 'txn_order_1', subscription_id: 'sub_order' }, at(0))
    await deliver(bought)
    const accountId = accountOfTransaction('txn_order_1')
    const paidFor = (id: string, price: string, seconds: number) => event('transaction.completed', { ...purchase(price).data, id, subscription_id: 'sub_order', origin: 'subscription_recurring' }, at(seconds))
    expect(await deliver(paidFor('txn_order_3', PRICES.PADDLE_PRICE_PRO, 20))).toMatchObject({ body: { outcome: 'applied' } })
    expect(keyOf(accountId).plan).toBe('pro')
    // The builder renewal of t+10 is delivered after the upgrade of t+20: recorded, plan unchanged.
    expect(await deliver(paidFor('txn_order_2', PRICES.PADDLE_PRICE_BUILDER, 10))).toMatchObject({ status: 200, body: { outcome: 'stale' } })
    expect(accountOfTransaction('txn_order_2')).toBe(accountId)
    expect(keyOf(accountId).plan).toBe('pro')
    // A subscription update naming its items is a plan change too, ordered with the transactions.
    const items = (price: string) => [{ price: { id: price }, quantity: 1, status: 'active' }]
    expect(await deliver(event('subscription.updated', { id: 'sub_order', status: 'active', items: items(PRICES.PADDLE_PRICE_BUILDER) }, at(30)))).toMatchObject({ body: { outcome: 'applied' } })
    expect(keyOf(accountId).plan).toBe('builder')
    expect(await deliver(event('subscription.updated', { id: 'sub_order', status: 'active', items: items(PRICES.PADDLE_PRICE_PRO) }, at(25)))).toMatchObject({ body: { outcome: 'stale' } })
    expect(await deliver(paidFor('txn_order_4', PRICES.PADDLE_PRICE_PRO, 28))).toMatchObject({ body: { outcome: 'stale' } })
    expect(keyOf(accountId)).toMatchObject({ plan: 'builder', status: 'active' })
  })

  test('a plan change that arrives before its subscription’s first purchase puts the new key on that plan', async () => {
    const base = t.clock.now()
    await deliver(event('subscription.updated', { id: 'sub_early_plan', status: 'active', items: [{ price: { id: PRICES.PADDLE_PRICE_PRO }, quantity: 1 }] }, new Date(base + 60_000).toISOString()))
    const bought = purchase(PRICES.PADDLE_PRICE_BUILDER, { subscription_id: 'sub_early_plan' })
    expect(await deliver(bought)).toMatchObject({ body: { outcome: 'applied' } })
    expect(keyOf(accountOfTransaction(bought.data.id as string))).toMatchObject({ plan: 'pro', status: 'active' })
  })

  test('a cancellation that arrives before its purchase still cancels the key the purchase creates', async () => {
    const base = t.clock.now()
    await deliver(event('subscription.canceled', { id: 'sub_early', status: 'canceled' }, new Date(base + 60_000).toISOString()))
    const bought = purchase(PRICES.PADDLE_PRICE_PRO, { subscription_id: 'sub_early' })
    await deliver(bought)
    expect(keyOf(accountOfTransaction(bought.data.id as string)).status).toBe('cancelled')
  })

  test('unconfigured → 503; a body that is not an event → 400', async () => {
    const bare = makeTestApp()
    const text = JSON.stringify(purchase(PRICES.PADDLE_PRICE_PRO))
    expect(await bare.json('/webhooks/paddle', { method: 'POST', headers: { 'paddle-signature': sign(text) }, body: text })).toMatchObject({ status: 503, body: { error: 'BILLING_NOT_CONFIGURED' } })
    const junk = JSON.stringify({ hello: 'world' })
    expect(await t.json('/webhooks/paddle', { method: 'POST', headers: { 'paddle-signature': sign(junk) }, body: junk })).toMatchObject({ status: 400 })
  })
})

describe('POST /v5/checkout', () => {
  test('creates a Paddle transaction for the plan and answers its checkout URL', async () => {
    const answer = await t.json('/v5/checkout', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ plan: 'custody_90d', email: 'ops@example.com' }) })
    expect(answer).toMatchObject({ status: 200, body: { url: 'https://pay.example/checkout?_ptxn=txn_checkout01' } })
    expect(apiCalls.at(-1)).toMatchObject({ method: 'POST', path: '/transactions', body: { items: [{ price_id: PRICES.PADDLE_PRICE_CUSTODY_90D, quantity: 1 }], custom_data: { email: 'ops@example.com' } } })
  })

  test('400 unknown plan; 405 other methods; 502 provider error; 503 not configured', async () => {
    expect(await t.json('/v5/checkout', { method: 'POST', body: JSON.stringify({ plan: 'platinum' }) })).toMatchObject({ status: 400, body: { error: 'INVALID_PLAN' } })
    for (const method of ['GET', 'HEAD', 'PUT', 'PATCH', 'DELETE']) {
      const refused = await t.request('/v5/checkout', { method })
      expect([method, refused.status, refused.headers.get('allow')]).toEqual([method, 405, 'OPTIONS, POST'])
    }
    apiFailing = true
    try {
      expect(await t.json('/v5/checkout', { method: 'POST', body: JSON.stringify({ plan: 'pro' }) })).toMatchObject({ status: 502, body: { error: 'BILLING_PROVIDER_ERROR' } })
    } finally {
      apiFailing = false
    }
    expect(await makeTestApp().json('/v5/checkout', { method: 'POST', body: JSON.stringify({ plan: 'pro' }) })).toMatchObject({ status: 503, body: { error: 'BILLING_NOT_CONFIGURED' } })
  })

  test(`${CHECKOUT_PER_MINUTE} checkouts a minute per client address; the next is 429 and reaches no provider`, async () => {
    const from = (address: string) => ({ method: 'POST', headers: { 'content-type': 'application/json', 'cf-connecting-ip': address }, body: JSON.stringify({ plan: 'builder' }) })
    for (let i = 0; i < CHECKOUT_PER_MINUTE; i++) expect((await t.json('/v5/checkout', from('203.0.113.77'))).status).toBe(200)
    const calls = apiCalls.length
    const refused = await t.json('/v5/checkout', from('203.0.113.77'))
    expect(refused).toMatchObject({ status: 429, body: { error: 'RATE_LIMITED' } })
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(apiCalls.length).toBe(calls)
    expect((await t.json('/v5/checkout', from('203.0.113.78'))).status).toBe(200)
  })
})
