// x402 per-request payments end to end: the official client (@x402/fetch + @x402/evm) pays
// /v5/status and /v5/batch; the official facilitator code settles on a real local chain; and
// every attack the issue lists is refused.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { SLOW_SETUP_MS } from '../helpers/process'
import { wrapFetchWithPaymentFromConfig, decodePaymentResponseHeader } from '@x402/fetch'
import { ExactEvmScheme } from '@x402/evm'
import { parseUnits, toHex, type Address, type Hex } from 'viem'
import { startChain, tokenArtifact, type LocalChain } from '../helpers/chain'
import { startFacilitator, type TestFacilitator } from '../helpers/facilitator'
import { makeTestApp, type TestApp } from '../helpers/app'
import { verifyWithRegistry, type KeyRegistry } from '../helpers/verify'
import { TRANSFER_WITH_AUTHORIZATION_TYPES } from '../../src/payments/authorization'

let chain: LocalChain
let facilitator: TestFacilitator
let token: Address
let otherToken: Address
let t: TestApp
let base: string
let payTo: Address
let registry: KeyRegistry

beforeAll(async () => {
  chain = await startChain()
  ;[token, otherToken] = [await chain.deployToken(), await chain.deployToken()]
  for (const index of [1, 2, 3]) {
    await chain.mint(token, chain.account(index).address, '50')
    await chain.mint(otherToken, chain.account(index).address, '50')
  }
  facilitator = await startFacilitator(chain)
  payTo = chain.account(5).address
  t = makeTestApp({
    now: new Date().toISOString(),
    env: { X402_PAY_TO: payTo, X402_NETWORK: chain.network, X402_ASSET: token, CHAIN_RPC_URL: chain.rpcUrl, X402_FACILITATOR_URL: facilitator.url },
  })
  t.app.listen({ port: 0, hostname: '127.0.0.1' })
  base = `http://127.0.0.1:${t.app.server!.port}`
  registry = (await (await fetch(`${base}/v5/keys`)).json()) as KeyRegistry
}, SLOW_SETUP_MS)

afterAll(async () => {
  await t.app.stop(true)
  await facilitator.stop()
  await chain.stop()
})

const balance = async (who: Address, of: Address = token) =>
  (await chain.publicClient.readContract({ address: of, abi: [{ type: 'function', name: 'balanceOf', stateMutability: 'view', inputs: [{ name: 'a', type: 'address' }], outputs: [{ type: 'uint256' }] }], functionName: 'balanceOf', args: [who] })) as bigint

/** The official client for one payer account, told to accept the local test token. */
function payingFetch(accountIndex: number, seen?: string[]) {
  const recording: typeof fetch = Object.assign(async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    const request = new Request(input as string, init)
    const header = request.headers.get('payment-signature')
    if (header && seen) seen.push(header)
    return fetch(request)
  }, fetch)
  return wrapFetchWithPaymentFromConfig(recording, {
    schemes: [{ network: chain.network as `${string}:${string}`, client: new ExactEvmScheme(chain.account(accountIndex)) }],
    spendControls: { allowedAssets: [{ network: chain.network as `${string}:${string}`, asset: token }] },
  })
}

const nowSeconds = () => Math.floor(t.clock.now() / 1000)

/** A v2 Payment-Signature header signed by hand (for the attacks the official client never makes). */
async function signedHeader(options: { from?: number; to?: Address; value?: string; validAfter?: number; validBefore?: number; tamper?: boolean; asset?: Address; accepted?: Record<string, unknown> } = {}) {
  const account = chain.account(options.from ?? 2)
  const authorization = {
    from: account.address,
    to: options.to ?? payTo,
    value: options.value ?? '1000',
    validAfter: String(options.validAfter ?? nowSeconds() - 60),
    validBefore: String(options.validBefore ?? nowSeconds() + 300),
    nonce: toHex(crypto.getRandomValues(new Uint8Array(32))),
  }
  const signature = await account.signTypedData({
    domain: { name: 'USD Coin', version: '2', chainId: chain.chain.id, verifyingContract: options.asset ?? token },
    types: TRANSFER_WITH_AUTHORIZATION_TYPES,
    primaryType: 'TransferWithAuthorization',
    message: { ...authorization, value: BigInt(authorization.value), validAfter: BigInt(authorization.validAfter), validBefore: BigInt(authorization.validBefore) },
  })
  const payload = {
    x402Version: 2,
    accepted: { scheme: 'exact', network: chain.network, amount: '1000', asset: options.asset ?? token, payTo, maxTimeoutSeconds: 60, extra: { name: 'USD Coin', version: '2' }, ...options.accepted },
    payload: { signature, authorization: options.tamper ? { ...authorization, value: '999999' } : authorization },
  }
  return Buffer.from(JSON.stringify(payload)).toString('base64')
}

const status = (headers: Record<string, string>) => fetch(`${base}/v5/status?mic=XNYS`, { headers })

describe('x402 with the official client and facilitator', () => {
  test('@x402/fetch pays /v5/status without a key: a signed receipt, PAYMENT-RESPONSE, tokens moved', async () => {
    const before = await balance(payTo)
    const response = await payingFetch(1)(`${base}/v5/status?mic=XLON`)
    expect(response.status).toBe(200)
    const receipt = (await response.json()) as Record<string, unknown>
    expect(receipt).toMatchObject({ mic: 'XLON', receipt_mode: 'live' })
    expect(verifyWithRegistry(registry, receipt)).toBe(true)
    const settlement = decodePaymentResponseHeader(response.headers.get('payment-response')!)
    expect(settlement.success).toBe(true)
    expect(settlement.transaction).toMatch(/^0x[0-9a-f]{64}$/)
    expect(await balance(payTo)).toBe(before + parseUnits(t.config.x402.statusPrice, 6))
    const row = t.db.query(`SELECT * FROM payment_proofs WHERE settlement_tx = ?`).get(settlement.transaction) as Record<string, unknown>
    expect(row).toMatchObject({ kind: 'authorization', purpose: 'status', state: 'settled', payer: chain.account(1).address.toLowerCase() })
    // The audit row of the paid receipt carries the payment's reference, no key.
    expect(t.db.query('SELECT surface, key_hash, payment_ref FROM audit_log WHERE receipt_id = ?').get(receipt.receipt_id as string)).toEqual({ surface: '/v5/status', key_hash: null, payment_ref: row.reference as string })
  })

  test('@x402/fetch pays /v5/batch at the batch price', async () => {
    const before = await balance(payTo)
    const response = await payingFetch(1)(`${base}/v5/batch?mics=XNYS,XJPX`)
    expect(response.status).toBe(200)
    const batch = (await response.json()) as { receipts: Record<string, unknown>[] }
    expect(batch.receipts).toHaveLength(2)
    expect(await balance(payTo)).toBe(before + parseUnits(t.config.x402.batchPrice, 6))
  })

  test('@x402/fetch pays the paid safe-to-trade door at the status price; the audit row carries the payment reference', async () => {
    const before = await balance(payTo)
    const response = await payingFetch(3)(`${base}/v1/safe-to-trade?venue=XNYS&max_age=10`)
    expect(response.status).toBe(200)
    const receipt = (await response.json()) as Record<string, unknown>
    expect(receipt).toMatchObject({ venue: 'XNYS', receipt_mode: 'live' })
    expect(receipt.door).toBeUndefined()
    expect(verifyWithRegistry(registry, receipt)).toBe(true)
    expect(await balance(payTo)).toBe(before + parseUnits(t.config.x402.statusPrice, 6))
    const settlement = decodePaymentResponseHeader(response.headers.get('payment-response')!)
    const row = t.db.query(`SELECT reference, purpose FROM payment_proofs WHERE settlement_tx = ?`).get(settlement.transaction) as { reference: string; purpose: string }
    expect(row.purpose).toBe('safe-to-trade')
    expect(t.db.query('SELECT surface, key_hash, payment_ref FROM audit_log WHERE receipt_id = ?').get(receipt.receipt_id as string)).toEqual({ surface: '/v1/safe-to-trade', key_hash: null, payment_ref: row.reference })
  })

  test('a replayed Payment-Signature is refused (402 PAYMENT_REPLAYED) and nothing is served twice', async () => {
    const seen: string[] = []
    expect((await payingFetch(1, seen)(`${base}/v5/status`)).status).toBe(200)
    const replay = await status({ 'payment-signature': seen.at(-1)! })
    expect(replay.status).toBe(402)
    expect(((await replay.json()) as { error: string }).error).toBe('PAYMENT_REPLAYED')
  })

  test('the settlement transaction of a signed payment cannot pay again as an X-Payment txHash (status, sandbox key)', async () => {
    const paid = await payingFetch(1)(`${base}/v5/batch?mics=XNYS`)
    expect(paid.status).toBe(200)
    const { transaction } = decodePaymentResponseHeader(paid.headers.get('payment-response')!)
    const proof = { 'x-payment': JSON.stringify({ txHash: transaction, network: chain.network }) }
    const keys = (t.db.query('SELECT count(*) AS n FROM api_keys').get() as { n: number }).n
    for (const [path, init] of [
      ['/v5/status?mic=XNYS', { headers: proof }],
      ['/v5/sandbox', { method: 'POST', headers: proof }],
    ] as const) {
      const again = await fetch(`${base}${path}`, init)
      expect([path, again.status, ((await again.json()) as { error: string }).error]).toEqual([path, 402, 'PAYMENT_REPLAYED'])
    }
    expect((t.db.query('SELECT count(*) AS n FROM api_keys').get() as { n: number }).n).toBe(keys)
    expect(t.db.query(`SELECT count(*) AS n FROM payment_proofs WHERE reference LIKE ?`).get(`tx:%${transaction.slice(2)}`)).toEqual({ n: 0 })
  })

  test('an authorization whose settlement failed here but landed on chain may pay once with its transaction hash', async () => {
    const header = await signedHeader({ from: 2 })
    const { payload } = JSON.parse(Buffer.from(header, 'base64').toString()) as { payload: { signature: Hex; authorization: Record<string, string> } }
    const a = payload.authorization
    // As if the facilitator broadcast it and then failed to answer: claimed, marked failed, mined.
    const reference = `auth:${chain.chain.id}:${token.toLowerCase()}:${a.from!.toLowerCase()}:${a.nonce!.toLowerCase()}`
    await t.deps.transactor.run(() => t.deps.payments.claim({ reference, kind: 'authorization', purpose: 'status', network: chain.network, payer: a.from!.toLowerCase(), amount_atomic: a.value!, created_at: new Date(t.clock.now()).toISOString() }))
    await t.deps.payments.fail(reference)
    const hash = await chain.wallet(0).writeContract({
      address: token,
      abi: tokenArtifact().abi as never,
      functionName: 'transferWithAuthorization',
      args: [a.from, a.to, BigInt(a.value!), BigInt(a.validAfter!), BigInt(a.validBefore!), a.nonce, payload.signature] as never,
      account: chain.account(0),
      chain: chain.chain,
    })
    await chain.publicClient.waitForTransactionReceipt({ hash })
    const proof = { 'x-payment': JSON.stringify({ txHash: hash, network: chain.network }) }
    expect((await status(proof)).status).toBe(200)
    expect((await status(proof)).status).toBe(402)
  })

  test('one authorization sent five times at once is settled and served exactly once', async () => {
    const header = await signedHeader()
    const before = await balance(payTo)
    const answers = await Promise.all(Array.from({ length: 5 }, () => status({ 'payment-signature': header })))
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1)
    expect(answers.filter((answer) => answer.status === 402)).toHaveLength(4)
    expect(await balance(payTo)).toBe(before + 1000n)
  })

  const refusals: [string, () => Promise<string>, string][] = [
    ['a tampered authorization (bad signature)', () => signedHeader({ tamper: true }), 'PAYMENT_BAD_SIGNATURE'],
    ['a payment to another address', () => signedHeader({ to: chain.account(7).address }), 'PAYMENT_WRONG_RECIPIENT'],
    ['too little', () => signedHeader({ value: '999' }), 'PAYMENT_INSUFFICIENT'],
    ['an expired authorization', () => signedHeader({ validBefore: nowSeconds() - 1 }), 'PAYMENT_EXPIRED'],
    ['another token', () => signedHeader({ asset: otherToken }), 'PAYMENT_WRONG_ASSET'],
    ['an authorization not valid yet', () => signedHeader({ validAfter: nowSeconds() + 120 }), 'PAYMENT_NOT_YET_VALID'],
    ['an authorization about to lapse (settlement would not fit)', () => signedHeader({ validBefore: nowSeconds() + 2 }), 'PAYMENT_EXPIRED'],
    ['another scheme', () => signedHeader({ accepted: { scheme: 'upto' } }), 'PAYMENT_WRONG_SCHEME'],
    ['another network', () => signedHeader({ accepted: { network: 'eip155:8453' } }), 'PAYMENT_WRONG_NETWORK'],
  ]
  for (const [name, make, code] of refusals) {
    test(`${name} → 402 ${code}, without asking the facilitator`, async () => {
      const calls = facilitator.calls.verify
      const response = await status({ 'payment-signature': await make() })
      expect(response.status).toBe(402)
      const body = (await response.json()) as { error: string; accepts: unknown[] }
      expect(body.error).toBe(code)
      expect(body.accepts).toHaveLength(1)
      expect(response.headers.get('payment-required')).toBeTruthy()
      expect(facilitator.calls.verify).toBe(calls)
    })
  }

  test('facilitator unreachable (at /verify or at /settle) → 503 and the payment stays unspent: sent again once it is back, it pays once', async () => {
    const proofs = () => (t.db.query('SELECT count(*) AS n FROM payment_proofs').get() as { n: number }).n
    for (const outage of ['down', 'settleDown'] as const) {
      const seen: string[] = []
      const [before, rows] = [await balance(payTo), proofs()]
      facilitator[outage] = true
      try {
        // The official client pays after the 402; the facilitator cannot be reached.
        const response = await payingFetch(2, seen)(`${base}/v5/status?mic=XNYS`)
        expect([outage, response.status, ((await response.json()) as { error: string }).error]).toEqual([outage, 503, 'FACILITATOR_UNAVAILABLE'])
      } finally {
        facilitator[outage] = false
      }
      expect([await balance(payTo), proofs()]).toEqual([before, rows])
      // The same signed payment, once the facilitator is back: served and charged once.
      const again = await status({ 'payment-signature': seen.at(-1)! })
      expect(again.status).toBe(200)
      expect(verifyWithRegistry(registry, (await again.json()) as Record<string, unknown>)).toBe(true)
      expect(await balance(payTo)).toBe(before + 1000n)
      const replay = await status({ 'payment-signature': seen.at(-1)! })
      expect([replay.status, ((await replay.json()) as { error: string }).error]).toEqual([402, 'PAYMENT_REPLAYED'])
    }
  })
})

describe('x402 with the audit log down', () => {
  test('nobody is charged for an answer not given: 503 AUDIT_LOG_UNAVAILABLE with nothing settled or spent; the same proofs pay once the log is back', async () => {
    const paths = ['/v5/status?mic=XNYS', '/v5/batch?mics=XNYS,XLON', '/v1/safe-to-trade?venue=XNYS&max_age=10']
    const transfer = { 'x-payment': JSON.stringify({ txHash: await chain.transfer(token, 3, payTo, '0.001'), network: chain.network }) }
    const proofs = () => (t.db.query('SELECT count(*) AS n FROM payment_proofs').get() as { n: number }).n
    const [before, settles, rows] = [await balance(payTo), facilitator.calls.settle, proofs()]
    const headers: Record<string, string>[] = []
    // A real write failure inside SQLite, as a full disk would give.
    t.db.run("CREATE TRIGGER audit_fail BEFORE INSERT ON audit_log BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END")
    try {
      for (const path of paths) {
        const seen: string[] = []
        const response = await payingFetch(1, seen)(`${base}${path}`)
        expect([path, response.status, ((await response.json()) as { error: string }).error]).toEqual([path, 503, 'AUDIT_LOG_UNAVAILABLE'])
        expect(response.headers.get('payment-response')).toBeNull()
        headers.push({ 'payment-signature': seen.at(-1)! })
      }
      const paidBefore = await fetch(`${base}${paths[0]}`, { headers: transfer })
      expect([paidBefore.status, ((await paidBefore.json()) as { error: string }).error]).toEqual([503, 'AUDIT_LOG_UNAVAILABLE'])
    } finally {
      t.db.run('DROP TRIGGER audit_fail')
    }
    expect([await balance(payTo), facilitator.calls.settle, proofs()]).toEqual([before, settles, rows])
    // The log is back: each proof pays for its answer, once.
    for (const [index, path] of [...paths, paths[0]!].entries()) {
      const response = await fetch(`${base}${path}`, { headers: headers[index] ?? transfer })
      expect([path, response.status]).toEqual([path, 200])
      expect(response.headers.get('payment-response')).toBeTruthy()
    }
    const prices = [t.config.x402.statusPrice, t.config.x402.batchPrice, t.config.x402.statusPrice].map((price) => parseUnits(price, 6))
    expect(await balance(payTo)).toBe(before + prices.reduce((sum, price) => sum + price, 0n))
    expect(facilitator.calls.settle).toBe(settles + 3)
    expect(proofs()).toBe(rows + 4)
  })
})

describe('x402 without a facilitator', () => {
  test('a valid signed payment → 503 PAYMENTS_NOT_CONFIGURED; the authorization is not spent', async () => {
    const bare = makeTestApp({ now: new Date(t.clock.now()).toISOString(), env: { X402_PAY_TO: payTo, X402_NETWORK: chain.network, X402_ASSET: token, CHAIN_RPC_URL: chain.rpcUrl } })
    const header = await signedHeader()
    const answer = await bare.json('/v5/status?mic=XNYS', { headers: { 'payment-signature': header } })
    expect(answer).toMatchObject({ status: 503, body: { error: 'PAYMENTS_NOT_CONFIGURED' } })
    expect(bare.db.query('SELECT count(*) AS n FROM payment_proofs').get()).toEqual({ n: 0 })
  })
})

describe('x402 with a transaction already sent (X-Payment txHash)', () => {
  const proof = (txHash: string, extra: Record<string, unknown> = {}) => ({ 'x-payment': Buffer.from(JSON.stringify({ txHash, network: 'anvil', amount: '0.001', paymentAddress: payTo, memo: 'test', ...extra })).toString('base64') })

  test('a real transfer pays once; its hash is refused afterwards', async () => {
    const hash = await chain.transfer(token, 3, payTo, '0.001')
    const first = await status(proof(hash))
    expect(first.status).toBe(200)
    expect(verifyWithRegistry(registry, (await first.json()) as Record<string, unknown>)).toBe(true)
    const again = await status(proof(hash))
    expect(again.status).toBe(402)
    expect(((await again.json()) as { error: string }).error).toBe('PAYMENT_REPLAYED')
  })

  test('raw JSON is accepted as well as base64; one hash sent five times at once is served once', async () => {
    const hash = await chain.transfer(token, 3, payTo, '0.001')
    const answers = await Promise.all(Array.from({ length: 5 }, () => status({ 'x-payment': JSON.stringify({ txHash: hash, network: chain.network }) })))
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 402, 402, 402, 402])
  })

  test('the declared amount is ignored: 0.0009 paid while declaring 5 USDC is too little', async () => {
    const hash = await chain.transfer(token, 3, payTo, '0.0009')
    const response = await status(proof(hash, { amount: '5' }))
    expect(response.status).toBe(402)
    expect(((await response.json()) as { error: string }).error).toBe('PAYMENT_INSUFFICIENT')
  })

  test('a transfer to another address, of another token, or too old is refused with its reason', async () => {
    const elsewhere = await chain.transfer(token, 3, chain.account(7).address, '0.001')
    expect(((await (await status(proof(elsewhere))).json()) as { error: string }).error).toBe('PAYMENT_WRONG_RECIPIENT')
    const wrongToken = await chain.transfer(otherToken, 3, payTo, '0.001')
    expect(((await (await status(proof(wrongToken))).json()) as { error: string }).error).toBe('PAYMENT_WRONG_ASSET')
    const old = await chain.transfer(token, 3, payTo, '0.001')
    t.clock.advance((t.config.x402.maxTxAgeSeconds + 60) * 1000)
    try {
      expect(((await (await status(proof(old))).json()) as { error: string }).error).toBe('PAYMENT_TOO_OLD')
    } finally {
      t.clock.advance(-(t.config.x402.maxTxAgeSeconds + 60) * 1000)
    }
    // Refused proofs are not spent: the old one was never recorded.
    expect(t.db.query('SELECT count(*) AS n FROM payment_proofs WHERE reference LIKE ?').get(`tx:%${old.slice(2)}`)).toEqual({ n: 0 })
  })

  test('an unknown hash → 402 PAYMENT_NOT_FOUND; another network → PAYMENT_WRONG_NETWORK', async () => {
    expect(((await (await status(proof(`0x${'12'.repeat(32)}`))).json()) as { error: string }).error).toBe('PAYMENT_NOT_FOUND')
    expect(((await (await status(proof(`0x${'12'.repeat(32)}`, { network: 'base' }))).json()) as { error: string }).error).toBe('PAYMENT_WRONG_NETWORK')
  })
})

describe('GET /x402', () => {
  test('the declaration comes from configuration and the payments log', async () => {
    expect((await payingFetch(3)(`${base}/v5/status?mic=XNYS`)).status).toBe(200)
    const declaration = (await (await fetch(`${base}/x402`)).json()) as Record<string, unknown>
    expect(declaration).toMatchObject({ x402_compatible: true, network: chain.network, asset: token, pay_to: payTo, facilitator: facilitator.url, awesome_x402: null, foundation: 'https://www.x402.org' })
    expect(declaration.discovery).toBe(`${t.config.publicBaseUrl}/v5/status`)
    expect(Object.keys(declaration.payment_proof as object).sort()).toEqual(['Payment-Signature', 'X-Payment'])
    // At least the payment above is settled: the first one is dated.
    const first = t.db.query(`SELECT min(settled_at) AS at, count(*) AS n FROM payment_proofs WHERE state = 'settled'`).get() as { at: string; n: number }
    expect(declaration).toMatchObject({ first_payment_at: first.at, payment_count: first.n })
    expect(first.n).toBeGreaterThan(0)
  })

  test('without X402_PAY_TO: not x402-compatible, no facilitator, no first payment; the 402 says payments are not configured', async () => {
    const bare = makeTestApp()
    const refused = await bare.json('/v5/status?mic=XNYS')
    expect(refused).toMatchObject({ status: 402, body: { error: 'PAYMENT_REQUIRED', accepts: [], payTo: null, x402Version: 2 } })
    expect(refused.body.message).toContain('not configured')
    expect((await bare.json('/x402')).body).toMatchObject({ x402_compatible: false, pay_to: null, facilitator: null, first_payment_at: null, payment_count: 0 })
  })
})
