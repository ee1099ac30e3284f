// The payment variables are checked when the service starts, like every other variable.
import { describe, expect, test } from 'bun:test'
import { ConfigError, loadConfig } from '../../src/config'

const variableOf = (env: Record<string, string>) => {
  try {
    loadConfig(env)
  } catch (error) {
    if (error instanceof ConfigError) return error.variable
    throw error
  }
  return null
}

describe('payment configuration', () => {
  test('payments are off by default; Base mainnet USDC is the default asset', () => {
    const { x402, paddle } = loadConfig({})
    expect(x402).toMatchObject({ payTo: null, network: 'eip155:8453', asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', assetName: 'USD Coin', assetVersion: '2', chainRpcUrl: null, facilitatorUrl: null, maxTxAgeSeconds: 300 })
    expect(paddle).toMatchObject({ webhookSecrets: [], apiKey: null, apiUrl: 'https://api.paddle.com', prices: {} })
  })

  const bad: [string, Record<string, string>][] = [
    ['X402_PAY_TO', { X402_PAY_TO: '0x1234' }],
    ['X402_NETWORK', { X402_NETWORK: 'base' }],
    // Only EVM chains can be paid on: a CAIP-2 id of another family would accept nothing.
    ['X402_NETWORK', { X402_NETWORK: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp' }],
    ['X402_ASSET', { X402_ASSET: 'USDC' }],
    ['CHAIN_RPC_URL', { CHAIN_RPC_URL: 'localhost:8545' }],
    ['X402_FACILITATOR_URL', { X402_FACILITATOR_URL: 'x402.org/facilitator' }],
    ['X402_MAX_TX_AGE_SECONDS', { X402_MAX_TX_AGE_SECONDS: '5' }],
    ['PADDLE_WEBHOOK_SECRET', { PADDLE_WEBHOOK_SECRET: 'short' }],
    ['PADDLE_API_URL', { PADDLE_API_URL: 'https://api.paddle.com/' }],
    ['PADDLE_PRICE_PRO', { PADDLE_PRICE_PRO: 'pro' }],
    // Payments on another chain with the default token (USDC on Base mainnet) could never settle.
    ['X402_ASSET', { X402_PAY_TO: `0x${'1'.repeat(40)}`, X402_NETWORK: 'eip155:84532' }],
  ]
  for (const [variable, env] of bad) {
    test(`a bad ${variable} stops the start (${JSON.stringify(env)})`, () => {
      expect(variableOf(env)).toBe(variable)
    })
  }

  test('several webhook secrets during a rotation; the facilitator URL without its trailing slash', () => {
    const config = loadConfig({ PADDLE_WEBHOOK_SECRET: 'pdl_ntfset_new_0123, pdl_ntfset_old_0123', X402_FACILITATOR_URL: 'https://x402.org/facilitator/', X402_NETWORK: 'eip155:84532' })
    expect(config.paddle.webhookSecrets).toEqual(['pdl_ntfset_new_0123', 'pdl_ntfset_old_0123'])
    expect(config.x402.facilitatorUrl).toBe('https://x402.org/facilitator')
    expect(config.x402.network).toBe('eip155:84532')
    const sepolia = loadConfig({ X402_PAY_TO: `0x${'1'.repeat(40)}`, X402_NETWORK: 'eip155:84532', X402_ASSET: '0x036CbD53842c5426634e7929541eC2318f3dCF7e' })
    expect(sepolia.x402.asset).toBe('0x036CbD53842c5426634e7929541eC2318f3dCF7e')
  })
})
