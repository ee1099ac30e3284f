// get_payment_options: every figure read from where it is enforced, so it moves with its source,
// and only what this installation can sell (issue 24 item 17).
import { describe, expect, test } from 'bun:test'
import { makeTestApp } from '../helpers/app'
import { paymentOptions } from '../../src/mcp/payment-options'
import { CREDIT_PACKS, creditsFor } from '../../src/catalogue/credit-packs'
import { atomicAmount } from '../../src/catalogue/prices'
import { SANDBOX_CALLS, SANDBOX_DAYS, PAID_DAILY_LIMITS } from '../../src/catalogue/limits'
import { TOKEN_LIFETIME_SECONDS } from '../../src/accounts/tokens'
import { FULLY_CONFIGURED } from '../helpers/configured'

describe('get_payment_options', () => {
  test('limits, token lifetime, credit packs and plans come from the code that enforces them; prices and the free limit from configuration', () => {
    const t = makeTestApp({ env: { ...FULLY_CONFIGURED, FREE_DAILY_LIMIT: '37', X402_STATUS_PRICE: '0.003' } })
    const options = paymentOptions(t.deps)
    expect(options.sandbox.limits).toEqual({ days: SANDBOX_DAYS, calls: SANDBOX_CALLS })
    expect(options.oauth.token_lifetime_seconds).toBe(TOKEN_LIFETIME_SECONDS)
    expect(options.plans).toMatchObject({ free: { daily_limit: 37 }, builder: { daily_limit: PAID_DAILY_LIMITS.builder }, pro: { daily_limit: PAID_DAILY_LIMITS.pro } })
    expect(options.x402).toMatchObject({ enabled: true, prices_usdc: { '/v5/status': '0.003' } })
    // Each advertised pack buys exactly the credits it says when paid on chain.
    const packs = options.credits!.packs_usdc!
    expect(Object.keys(packs)).toHaveLength(CREDIT_PACKS.length)
    for (const [price, credits] of Object.entries(packs)) expect({ price, credits: creditsFor(BigInt(atomicAmount(price))) }).toEqual({ price, credits })
    expect(paymentOptions(makeTestApp().deps).plans.free!.daily_limit).toBe(makeTestApp().config.metering.freeDailyLimit)
  })

  test('a bare installation offers the free plan only: no credits, no builder or pro, x402 not enabled', () => {
    const options = paymentOptions(makeTestApp().deps)
    expect(Object.keys(options.plans)).toEqual(['free'])
    expect(options.credits).toBeNull()
    expect(options.x402.enabled).toBe(false)
  })
})
