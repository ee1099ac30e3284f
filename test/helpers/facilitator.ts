// An x402 facilitator for tests, running the official facilitator code (@x402/core's
// x402Facilitator with @x402/evm's exact EVM scheme) against the local chain, served over HTTP
// with the facilitator API (/verify, /settle, /supported). Settlement really moves tokens.
import { x402Facilitator } from '@x402/core/facilitator'
import { registerExactEvmScheme } from '@x402/evm/exact/facilitator'
import { toFacilitatorEvmSigner } from '@x402/evm'
import { createWalletClient, http, publicActions } from 'viem'
import type { LocalChain } from './chain'

export interface TestFacilitator {
  url: string
  calls: { verify: number; settle: number }
  /** When set, every request answers 503 (an outage). */
  down: boolean
  /** When set, /settle alone answers 503 (an outage between the verification and the settlement). */
  settleDown: boolean
  stop(): Promise<void>
}

export async function startFacilitator(chain: LocalChain, accountIndex = 9): Promise<TestFacilitator> {
  const wallet = createWalletClient({ account: chain.account(accountIndex), chain: chain.chain, transport: http(chain.rpcUrl) }).extend(publicActions)
  const facilitator = new x402Facilitator()
  registerExactEvmScheme(facilitator, { signer: toFacilitatorEvmSigner(wallet as never), networks: chain.network as `${string}:${string}` })
  const state = { calls: { verify: 0, settle: 0 }, down: false, settleDown: false }
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(request) {
      const path = new URL(request.url).pathname
      if (state.down || (state.settleDown && path === '/settle')) return new Response('unavailable', { status: 503 })
      if (path === '/supported') return Response.json(facilitator.getSupported())
      if (request.method !== 'POST') return new Response('not found', { status: 404 })
      const body = (await request.json()) as { paymentPayload: never; paymentRequirements: never }
      if (path === '/verify') {
        state.calls.verify++
        return Response.json(await facilitator.verify(body.paymentPayload, body.paymentRequirements))
      }
      if (path === '/settle') {
        state.calls.settle++
        return Response.json(await facilitator.settle(body.paymentPayload, body.paymentRequirements))
      }
      return new Response('not found', { status: 404 })
    },
  })
  return {
    url: `http://127.0.0.1:${server.port}`,
    get calls() {
      return state.calls
    },
    get down() {
      return state.down
    },
    set down(value: boolean) {
      state.down = value
    },
    get settleDown() {
      return state.settleDown
    },
    set settleDown(value: boolean) {
      state.settleDown = value
    },
    async stop() {
      await server.stop(true)
    },
  }
}
