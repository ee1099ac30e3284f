// Credits and minted keys from real on-chain transfers on a local chain.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { SLOW_SETUP_MS } from '../helpers/process'
import type { Address, Hex } from 'viem'
import { startChain, type LocalChain } from '../helpers/chain'
import { makeTestApp, type TestApp } from '../helpers/app'
import { issueKey } from '../../src/accounts/keys'
import { creditsFor } from '../../src/catalogue/credit-packs'
import { MINT_PERIOD_DAYS, MINT_TIERS } from '../../src/catalogue/mint-tiers'
import { Signer } from '../../src/crypto/signer'

let chain: LocalChain
let token: Address
let payTo: Address
let t: TestApp

beforeAll(async () => {
  chain = await startChain()
  token = await chain.deployToken()
  for (const index of [1, 2]) await chain.mint(token, chain.account(index).address, '2000')
  payTo = chain.account(5).address
  t = makeTestApp({ now: new Date().toISOString(), env: { X402_PAY_TO: payTo, X402_NETWORK: chain.network, X402_ASSET: token, CHAIN_RPC_URL: chain.rpcUrl } })
}, SLOW_SETUP_MS)
afterAll(async () => chain.stop())

const proofHeader = (txHash: Hex, declared = '0.001') => Buffer.from(JSON.stringify({ txHash, network: chain.network, amount: declared, paymentAddress: payTo, memo: 'credits' })).toString('base64')

describe('credit packs', () => {
  test('largest first: 0.89 → 1,100; 0.80 → 1,000; 0.091 → 101; 0.0009 → 0', () => {
    expect(creditsFor(890_000n)).toBe(1100)
    expect(creditsFor(800_000n)).toBe(1000)
    expect(creditsFor(91_000n)).toBe(101)
    expect(creditsFor(1_000n)).toBe(1)
    expect(creditsFor(900n)).toBe(0)
  })
})

describe('POST /v5/credits/purchase and GET /v5/credits/balance', () => {
  test('credits come from what was paid on chain, not from what the client declares', async () => {
    const { key, account } = await issueKey(t.deps.accounts, { plan: 'free', now: new Date(t.clock.now()) })
    const hash = await chain.transfer(token, 1, payTo, '0.89')
    const bought = await t.json('/v5/credits/purchase', { method: 'POST', headers: { 'x-oracle-key': key, 'x-payment': proofHeader(hash, '800') } })
    expect(bought.status).toBe(200)
    expect(bought.body).toMatchObject({ credits_added: 1100, new_balance: 1100, tier: 'credits' })
    const balance = await t.json('/v5/credits/balance', { headers: { 'x-oracle-key': key } })
    expect(balance.body).toMatchObject({ balance: 1100, estimated_requests_remaining: 1100 })
    expect(Date.parse(balance.body.last_purchased)).toBe(t.clock.now())
    const ledger = t.db.query('SELECT delta, kind FROM credit_ledger').all()
    expect(ledger).toEqual([{ delta: 1100, kind: 'grant' }])
    // A credit given back later (a request that failed after its debit) is not a purchase.
    await t.deps.transactor.run(() => t.deps.creditLedger.record(account.id, 1, 'grant', 'refund:/v5/status', new Date(t.clock.now() + 60_000).toISOString()))
    expect((await t.json('/v5/credits/balance', { headers: { 'x-oracle-key': key } })).body.last_purchased).toBe(balance.body.last_purchased)
  })

  test('with the service key cache: the balance right after a purchase is the new balance, not the cached row', async () => {
    // The service's own wiring: the key store behind its one-second cache (the purchase itself
    // reads the key through it, caching the row with balance 0).
    const cached = makeTestApp({ now: new Date(t.clock.now()).toISOString(), cachedAccounts: true, env: { X402_PAY_TO: payTo, X402_NETWORK: chain.network, X402_ASSET: token, CHAIN_RPC_URL: chain.rpcUrl } })
    const { key } = await issueKey(cached.deps.accounts, { plan: 'free', now: new Date(cached.clock.now()) })
    const headers = { 'x-oracle-key': key }
    expect((await cached.json('/v5/credits/balance', { headers })).body).toMatchObject({ balance: 0, last_purchased: null })
    const hash = await chain.transfer(token, 1, payTo, '0.18')
    const bought = await cached.json('/v5/credits/purchase', { method: 'POST', headers: { ...headers, 'x-payment': proofHeader(hash) } })
    expect(bought.body).toMatchObject({ credits_added: 200, new_balance: 200 })
    const balance = await cached.json('/v5/credits/balance', { headers })
    expect(balance.body).toEqual({ balance: 200, estimated_requests_remaining: 200, last_purchased: new Date(cached.clock.now()).toISOString() })
  })

  test('one transaction hash sent by two keys at once buys credits exactly once', async () => {
    const a = await issueKey(t.deps.accounts, { plan: 'free', now: new Date(t.clock.now()) })
    const b = await issueKey(t.deps.accounts, { plan: 'free', now: new Date(t.clock.now()) })
    const hash = await chain.transfer(token, 2, payTo, '0.09')
    const answers = await Promise.all([a.key, b.key, a.key, b.key].map((key) => t.json('/v5/credits/purchase', { method: 'POST', headers: { 'x-oracle-key': key, 'x-payment': proofHeader(hash) } })))
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 402, 402, 402])
    expect(answers.filter((answer) => answer.status === 402).every((answer) => answer.body.error === 'PAYMENT_REPLAYED')).toBe(true)
    const balances = await Promise.all([a, b].map(async ({ account }) => (await t.deps.accounts.findByHash(account.key_hash))!.credit_balance))
    expect(balances.sort()).toEqual([0, 100])
  })

  test('a key that never spends credits (builder, sandbox) is refused with 403 before the transfer is spent', async () => {
    const hash = await chain.transfer(token, 2, payTo, '0.09')
    for (const plan of ['builder', 'sandbox'] as const) {
      const { key } = await issueKey(t.deps.accounts, { plan, now: new Date(t.clock.now()) })
      expect(await t.json('/v5/credits/purchase', { method: 'POST', headers: { 'x-oracle-key': key, 'x-payment': proofHeader(hash) } })).toMatchObject({ status: 403, body: { error: 'CREDITS_NOT_USABLE' } })
    }
    const free = await issueKey(t.deps.accounts, { plan: 'free', now: new Date(t.clock.now()) })
    expect(await t.json('/v5/credits/purchase', { method: 'POST', headers: { 'x-oracle-key': free.key, 'x-payment': proofHeader(hash) } })).toMatchObject({ status: 200, body: { credits_added: 100 } })
  })

  test('no key 401; no payment 402; a payment below the smallest pack 402 PAYMENT_INSUFFICIENT', async () => {
    expect((await t.json('/v5/credits/purchase', { method: 'POST' })).status).toBe(401)
    const { key } = await issueKey(t.deps.accounts, { plan: 'free', now: new Date(t.clock.now()) })
    const none = await t.json('/v5/credits/purchase', { method: 'POST', headers: { 'x-oracle-key': key } })
    expect(none.status).toBe(402)
    const hash = await chain.transfer(token, 1, payTo, '0.0005')
    const small = await t.json('/v5/credits/purchase', { method: 'POST', headers: { 'x-oracle-key': key, 'x-payment': proofHeader(hash) } })
    expect(small).toMatchObject({ status: 402, body: { error: 'PAYMENT_INSUFFICIENT' } })
  })
})

describe('POST /v5/x402/mint', () => {
  const mint = (body: unknown) => t.json('/v5/x402/mint', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })

  test('99 USDC mints a builder key that works on /v5/status; the hash is refused afterwards (409)', async () => {
    const hash = await chain.transfer(token, 1, payTo, '99')
    const minted = await mint({ tx_hash: hash, tier: 'builder' })
    expect(minted.status).toBe(200)
    expect(minted.body).toMatchObject({ tier: 'builder', daily_limit: 50_000 })
    expect(minted.body.api_key).toMatch(/^svc_live_[0-9a-f]{64}$/)
    expect(Date.parse(minted.body.expires_at) - t.clock.now()).toBe(30 * 86_400_000)
    expect((await t.json('/v5/status', { headers: { 'x-oracle-key': minted.body.api_key } })).status).toBe(200)
    expect(await mint({ tx_hash: hash, tier: 'builder' })).toMatchObject({ status: 409, body: { error: 'TX_ALREADY_USED' } })
  })

  test('198 USDC buys two 30-day periods; the key then stops (402 KEY_EXPIRED)', async () => {
    const hash = await chain.transfer(token, 1, payTo, String(2 * Number(MINT_TIERS.builder.priceUsdc)))
    const minted = await mint({ tx_hash: hash, tier: 'builder' })
    expect(Date.parse(minted.body.expires_at) - t.clock.now()).toBe(2 * MINT_PERIOD_DAYS * 86_400_000)
    const later = 2 * MINT_PERIOD_DAYS * 86_400_000 + 1000
    t.clock.advance(later)
    try {
      expect(await t.json('/v5/status', { headers: { 'x-oracle-key': minted.body.api_key } })).toMatchObject({ status: 402, body: { error: 'KEY_EXPIRED' } })
    } finally {
      t.clock.advance(-later)
    }
  })

  test('with an e-mail address the minted key is also queued for mail in the same transaction', async () => {
    const hash = await chain.transfer(token, 2, payTo, '99')
    const minted = await mint({ tx_hash: hash, tier: 'builder', email: 'minter@example.com' })
    expect(minted.status).toBe(200)
    const mail = t.db.query("SELECT subject, body, state FROM mail_outbox WHERE recipient = 'minter@example.com'").get() as { subject: string; body: string; state: string }
    expect(mail.state).toBe('queued')
    expect(mail.body).toContain(minted.body.api_key)
  })

  test('two concurrent mints of one hash create one key', async () => {
    const hash = await chain.transfer(token, 2, payTo, '299')
    const before = (t.db.query('SELECT count(*) AS n FROM api_keys').get() as { n: number }).n
    const answers = await Promise.all(Array.from({ length: 4 }, () => mint({ tx_hash: hash, tier: 'pro' })))
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409, 409, 409])
    expect((t.db.query('SELECT count(*) AS n FROM api_keys').get() as { n: number }).n).toBe(before + 1)
  })

  test('too little for the tier → 400 INSUFFICIENT_AMOUNT and the hash stays unspent; malformed input → 400', async () => {
    const hash = await chain.transfer(token, 1, payTo, '99')
    expect(await mint({ tx_hash: hash, tier: 'pro' })).toMatchObject({ status: 400, body: { error: 'INSUFFICIENT_AMOUNT' } })
    expect((await mint({ tx_hash: hash, tier: 'builder' })).status).toBe(200)
    expect(await mint({ tx_hash: '0x1234', tier: 'pro' })).toMatchObject({ status: 400, body: { error: 'INVALID_TX_HASH' } })
    expect(await mint({ tx_hash: hash, tier: 'gold' })).toMatchObject({ status: 400, body: { error: 'INVALID_TIER' } })
    expect(await mint({ tx_hash: hash, tier: 'pro', email: 'not-an-address' })).toMatchObject({ status: 400, body: { error: 'INVALID_EMAIL' } })
  })

  test('the chain unreachable → 503 and nothing minted', async () => {
    const offline = makeTestApp({ now: new Date().toISOString(), env: { X402_PAY_TO: payTo, X402_NETWORK: chain.network, X402_ASSET: token, CHAIN_RPC_URL: 'http://127.0.0.1:9' } })
    const answer = await offline.json('/v5/x402/mint', { method: 'POST', body: JSON.stringify({ tx_hash: `0x${'ab'.repeat(32)}`, tier: 'builder' }) })
    expect(answer).toMatchObject({ status: 503, body: { error: 'CHAIN_RPC_UNAVAILABLE' } })
    expect((offline.db.query('SELECT count(*) AS n FROM api_keys').get() as { n: number }).n).toBe(0)
  })
})

describe('one transaction hash pays for one thing only', () => {
  test('a hash spent on credits cannot mint a key, buy a sandbox key or pay a request; nothing more is granted', async () => {
    const { key, account } = await issueKey(t.deps.accounts, { plan: 'free', now: new Date(t.clock.now()) })
    const hash = await chain.transfer(token, 1, payTo, '99')
    const bought = await t.json('/v5/credits/purchase', { method: 'POST', headers: { 'x-oracle-key': key, 'x-payment': proofHeader(hash) } })
    expect(bought.body.credits_added).toBe(creditsFor(99_000_000n))
    const keys = (t.db.query('SELECT count(*) AS n FROM api_keys').get() as { n: number }).n
    expect(await t.json('/v5/x402/mint', { method: 'POST', body: JSON.stringify({ tx_hash: hash, tier: 'builder' }) })).toMatchObject({ status: 409, body: { error: 'TX_ALREADY_USED' } })
    const sandbox = await t.json('/v5/sandbox', { method: 'POST', headers: { 'x-payment': proofHeader(hash) }, body: '{}' })
    expect(sandbox).toMatchObject({ status: 402, body: { error: 'PAYMENT_REPLAYED' } })
    expect(await t.json('/v5/status?mic=XNYS', { headers: { 'x-payment': proofHeader(hash) } })).toMatchObject({ status: 402, body: { error: 'PAYMENT_REPLAYED' } })
    expect(await t.json('/v5/credits/purchase', { method: 'POST', headers: { 'x-oracle-key': key, 'x-payment': proofHeader(hash) } })).toMatchObject({ status: 402, body: { error: 'PAYMENT_REPLAYED' } })
    expect((t.db.query('SELECT count(*) AS n FROM api_keys').get() as { n: number }).n).toBe(keys)
    expect((await t.deps.accounts.findByHash(account.key_hash))!.credit_balance).toBe(bought.body.credits_added)
  })

  test('the chain unreachable while buying credits → 503 and no credits', async () => {
    const offline = makeTestApp({ now: new Date().toISOString(), env: { X402_PAY_TO: payTo, X402_NETWORK: chain.network, X402_ASSET: token, CHAIN_RPC_URL: 'http://127.0.0.1:9' } })
    const { key, account } = await issueKey(offline.deps.accounts, { plan: 'free', now: new Date(offline.clock.now()) })
    const answer = await offline.json('/v5/credits/purchase', { method: 'POST', headers: { 'x-oracle-key': key, 'x-payment': proofHeader(`0x${'cd'.repeat(32)}`) } })
    expect(answer).toMatchObject({ status: 503, body: { error: 'CHAIN_RPC_UNAVAILABLE' } })
    expect((await offline.deps.accounts.findByHash(account.key_hash))!.credit_balance).toBe(0)
    expect(offline.db.query('SELECT count(*) AS n FROM credit_ledger').get()).toEqual({ n: 0 })
  })
})

describe('POST /v5/sandbox with X-Payment (x402 path)', () => {
  const sandbox = (payment: string, body: unknown = {}) =>
    t.json('/v5/sandbox', { method: 'POST', headers: { 'content-type': 'application/json', 'x-payment': payment }, body: JSON.stringify(body) })

  test('0.001 USDC on chain buys a credit key with 10 credits that works on /v5/status; no e-mail taken', async () => {
    const hash = await chain.transfer(token, 1, payTo, '0.001')
    const bought = await sandbox(proofHeader(hash))
    expect(bought.status).toBe(200)
    expect(bought.body).toMatchObject({ tier: 'credits', credits: 10, email_captured: false, paid_atomic: '1000' })
    expect(bought.body.api_key).toMatch(/^svc_crd_[0-9a-f]{64}$/)
    const row = t.db.query('SELECT class, email, credit_balance FROM api_keys WHERE key_prefix = ?').get(bought.body.key_prefix)
    expect(row).toEqual({ class: 'credit', email: null, credit_balance: 10 })
    const status = await t.json('/v5/status?mic=XNYS', { headers: { 'x-oracle-key': bought.body.api_key } })
    expect(status.status).toBe(200)
    expect((await sandbox(proofHeader(hash))).body.error).toBe('PAYMENT_REPLAYED')
  })

  test('one transfer sent four times at once makes exactly one key', async () => {
    const before = (t.db.query("SELECT count(*) AS n FROM api_keys WHERE class = 'credit'").get() as { n: number }).n
    const hash = await chain.transfer(token, 2, payTo, '0.002')
    const answers = await Promise.all([1, 2, 3, 4].map(() => sandbox(proofHeader(hash))))
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 402, 402, 402])
    const after = (t.db.query("SELECT count(*) AS n FROM api_keys WHERE class = 'credit'").get() as { n: number }).n
    expect(after - before).toBe(1)
  })

  test('less than 0.001 USDC → 402 and no key', async () => {
    const before = (t.db.query('SELECT count(*) AS n FROM api_keys').get() as { n: number }).n
    const hash = await chain.transfer(token, 1, payTo, '0.0009')
    const refused = await sandbox(proofHeader(hash, '1'))
    expect(refused.status).toBe(402)
    expect(refused.body.error).toBe('PAYMENT_INSUFFICIENT')
    expect((t.db.query('SELECT count(*) AS n FROM api_keys').get() as { n: number }).n).toBe(before)
  })
})

describe('no payment is taken for a receipt that cannot be signed', () => {
  test('signer offline: a transaction proof on /v5/status answers 500 and the transfer stays unspent', async () => {
    const offline = makeTestApp({ now: new Date().toISOString(), signer: Signer.offline('test'), env: { X402_PAY_TO: payTo, X402_NETWORK: chain.network, X402_ASSET: token, CHAIN_RPC_URL: chain.rpcUrl } })
    const hash = await chain.transfer(token, 1, payTo, '0.001')
    const answer = await offline.json('/v5/status?mic=XNYS', { headers: { 'x-payment': proofHeader(hash) } })
    expect(answer.status).toBe(500)
    expect(answer.body.error).toBe('CRITICAL_FAILURE')
    expect((offline.db.query('SELECT count(*) AS n FROM payment_proofs').get() as { n: number }).n).toBe(0)
    // The same transfer still pays where signing works.
    const paid = await t.json('/v5/status?mic=XNYS', { headers: { 'x-payment': proofHeader(hash) } })
    expect(paid.status).toBe(200)
  })
})
