// x402 v1: an `X-Payment` PaymentPayload made by the official v1 client (@x402/evm
// ExactEvmSchemeV1) from the v1 requirements this service sends the facilitator, settled by the
// official facilitator code on a real local chain. x402 v1 names chains (`base-sepolia`), so
// this file's chain runs with the Base Sepolia chain id.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { SLOW_SETUP_MS } from '../helpers/process'
import { decodePaymentResponseHeader } from '@x402/fetch'
import { ExactEvmSchemeV1 } from '@x402/evm/v1'
import { parseUnits, type Address } from 'viem'
import { startChain, type LocalChain } from '../helpers/chain'
import { startFacilitator, type TestFacilitator } from '../helpers/facilitator'
import { makeTestApp, type TestApp } from '../helpers/app'
import { verifyWithRegistry, type KeyRegistry } from '../helpers/verify'
import { v1Requirement } from '../../src/payments/requirements'

const BASE_SEPOLIA = 84532
let chain: LocalChain
let facilitator: TestFacilitator
let token: Address
let payTo: Address
let t: TestApp
let base: string

beforeAll(async () => {
  chain = await startChain({ chainId: BASE_SEPOLIA })
  token = await chain.deployToken()
  await chain.mint(token, chain.account(1).address, '10')
  facilitator = await startFacilitator(chain)
  payTo = chain.account(5).address
  t = makeTestApp({ now: new Date().toISOString(), env: { X402_PAY_TO: payTo, X402_NETWORK: chain.network, X402_ASSET: token, CHAIN_RPC_URL: chain.rpcUrl, X402_FACILITATOR_URL: facilitator.url } })
  t.app.listen({ port: 0, hostname: '127.0.0.1' })
  base = `http://127.0.0.1:${t.app.server!.port}`
}, SLOW_SETUP_MS)

afterAll(async () => {
  await t.app.stop(true)
  await facilitator.stop()
  await chain.stop()
})

const balance = async (who: Address) =>
  (await chain.publicClient.readContract({ address: token, abi: [{ type: 'function', name: 'balanceOf', stateMutability: 'view', inputs: [{ name: 'a', type: 'address' }], outputs: [{ type: 'uint256' }] }], functionName: 'balanceOf', args: [who] })) as bigint

/** A v1 PaymentPayload from the official v1 client, for the requirements of /v5/status. */
async function v1Payment(overrides: Record<string, unknown> = {}) {
  const requirement = { ...v1Requirement(t.config, t.config.x402.statusPrice, `${t.config.publicBaseUrl}/v5/status`, 'status'), ...overrides }
  return new ExactEvmSchemeV1(chain.account(1)).createPaymentPayload(1, requirement as never)
}

describe('x402 v1 (X-Payment with payload.authorization)', () => {
  test('the official v1 client pays /v5/status; the official facilitator settles; the payload is usable once', async () => {
    const payload = await v1Payment()
    expect(payload).toMatchObject({ x402Version: 1, network: 'base-sepolia' })
    const header = Buffer.from(JSON.stringify(payload)).toString('base64')
    const before = await balance(payTo)
    const response = await fetch(`${base}/v5/status?mic=XNYS`, { headers: { 'x-payment': header } })
    expect(response.status).toBe(200)
    const registry = (await (await fetch(`${base}/v5/keys`)).json()) as KeyRegistry
    expect(verifyWithRegistry(registry, (await response.json()) as Record<string, unknown>)).toBe(true)
    expect(await balance(payTo)).toBe(before + parseUnits(t.config.x402.statusPrice, 6))
    const settlement = decodePaymentResponseHeader(response.headers.get('payment-response')!)
    expect(settlement).toMatchObject({ success: true, payer: chain.account(1).address })
    expect(facilitator.calls.settle).toBe(1)
    // Raw JSON of the same payload: the same (from, nonce), refused without reaching the facilitator.
    const replay = await fetch(`${base}/v5/status?mic=XNYS`, { headers: { 'x-payment': JSON.stringify(payload) } })
    expect(replay.status).toBe(402)
    expect(((await replay.json()) as { error: string }).error).toBe('PAYMENT_REPLAYED')
    expect(facilitator.calls.verify).toBe(1)
  })

  test('a v1 payload for too little, another recipient or another network is refused locally', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ maxAmountRequired: '999' }, 'PAYMENT_INSUFFICIENT'],
      [{ payTo: chain.account(7).address }, 'PAYMENT_WRONG_RECIPIENT'],
      [{ network: 'base' }, 'PAYMENT_WRONG_NETWORK'],
    ]
    const verifies = facilitator.calls.verify
    for (const [overrides, code] of cases) {
      const header = Buffer.from(JSON.stringify(await v1Payment(overrides))).toString('base64')
      const response = await fetch(`${base}/v5/status?mic=XNYS`, { headers: { 'x-payment': header } })
      expect(response.status).toBe(402)
      expect(((await response.json()) as { error: string }).error).toBe(code)
    }
    expect(facilitator.calls.verify).toBe(verifies)
  })
})
