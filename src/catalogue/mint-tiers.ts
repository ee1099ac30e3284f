// What a key minted from an on-chain transfer costs and lasts (POST /v5/x402/mint, spec 8). Kept
// apart from the route so that the offers every self-service surface names can read the prices
// without importing a route module (and through it the app's dependency type).
import { PAID_DAILY_LIMITS } from './limits'

/** Prices of spec 8; the daily limits are the ones metering enforces for the plan. */
export const MINT_TIERS = { builder: { priceUsdc: '99', dailyLimit: PAID_DAILY_LIMITS.builder }, pro: { priceUsdc: '299', dailyLimit: PAID_DAILY_LIMITS.pro } } as const
export const MINT_PERIOD_DAYS = 30
export const MINT_MAX_PERIODS = 12
