// The local chain harness itself: a deployed token, real transfers, receipts and Transfer logs.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { SLOW_SETUP_MS } from '../helpers/process'
import { parseEventLogs, parseUnits, type Address } from 'viem'
import { startChain, tokenArtifact, type LocalChain } from '../helpers/chain'

let chain: LocalChain
let token: Address

beforeAll(async () => {
  chain = await startChain()
  token = await chain.deployToken()
  await chain.mint(token, chain.account(1).address, '100')
}, SLOW_SETUP_MS)
afterAll(async () => chain.stop())

describe('local chain harness', () => {
  test('a transfer is mined with a Transfer log of the token', async () => {
    const to = chain.account(2).address
    const hash = await chain.transfer(token, 1, to, '1.5')
    const receipt = await chain.publicClient.getTransactionReceipt({ hash })
    expect(receipt.status).toBe('success')
    const logs = parseEventLogs({ abi: tokenArtifact().abi as never, logs: receipt.logs, eventName: 'Transfer' }) as unknown as { address: string; args: { to: string; value: bigint } }[]
    expect(logs).toHaveLength(1)
    expect(logs[0]!.address.toLowerCase()).toBe(token.toLowerCase())
    expect(logs[0]!.args).toMatchObject({ to, value: parseUnits('1.5', 6) })
  })
})
