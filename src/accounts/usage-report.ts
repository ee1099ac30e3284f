// The Usage object of GET /v5/usage (spec 2.7), from the meter's counts and the key's plan.
import type { MeterDeps } from './deps'
import type { AccountRow } from './store'
import { nextUtcMidnight } from '../catalogue/limits'
import { upgradeUrlOf } from './meter-answer'

export interface UsageReport {
  key_prefix: string
  plan: string
  requests_today: number
  requests_this_month: number
  daily_limit: number | null
  monthly_limit: number | null
  percent_used_today: number
  percent_used_month: number
  rate_limit_resets_at: string
  upgrade_url: string
  x402_available: boolean
  x402_amount: string
  credit_balance: number
  /** Sandbox keys only: calls left of 200, and the key's expiry. */
  calls_remaining?: number
  expires_at?: string | null
}

const percent = (used: number, limit: number | null) => (limit ? Math.round((used / limit) * 10_000) / 100 : 0)

export async function usageReport(deps: MeterDeps, account: AccountRow): Promise<UsageReport> {
  const now = deps.clock.now()
  const { today, month } = await deps.meter.usage(account)
  const limit = deps.meter.limitOf(account)
  const common = {
    key_prefix: account.key_prefix,
    plan: account.plan,
    requests_today: today,
    requests_this_month: month,
    upgrade_url: upgradeUrlOf(deps),
    x402_available: deps.config.x402.payTo !== null,
    x402_amount: deps.config.x402.statusPrice,
    credit_balance: await deps.meter.creditBalance(account.id),
  }
  const resetsAt = new Date(nextUtcMidnight(now)).toISOString()
  switch (limit.kind) {
    case 'free':
      return { ...common, daily_limit: limit.daily, monthly_limit: limit.monthly, percent_used_today: percent(today, limit.daily), percent_used_month: percent(month, limit.monthly), rate_limit_resets_at: resetsAt }
    case 'paid':
      return { ...common, daily_limit: limit.daily, monthly_limit: null, percent_used_today: percent(today, limit.daily), percent_used_month: 0, rate_limit_resets_at: resetsAt }
    case 'sandbox': {
      // The sandbox allowance never resets: it ends (200 calls or the expiry, whichever first).
      const left = await deps.meter.sandboxCallsLeft(account.id, limit.calls)
      const used = percent(limit.calls - left, limit.calls)
      return { ...common, daily_limit: null, monthly_limit: null, percent_used_today: used, percent_used_month: used, rate_limit_resets_at: account.expires_at ?? resetsAt, calls_remaining: left, expires_at: account.expires_at }
    }
  }
}
