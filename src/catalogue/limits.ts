// What each plan may do: requests (spec 8 and issue 10), witness checkpoints (witness spec 8),
// webhook subscriptions and streams; and the UTC calendar the daily figures are counted in.
import type { Plan } from './plans'

export const SANDBOX_CALLS = 200
export const SANDBOX_DAYS = 7
export const PAID_DAILY_LIMITS = { builder: 50_000, pro: 200_000 } as const

/** New witness checkpoints an account of an Evidence plan may store per UTC day (witness spec 8). */
export const ACCOUNT_DAILY_QUOTA: Record<string, number> = { evidence_starter: 1000, evidence: 3000 }

/** Webhook subscriptions per key, by plan (spec 8): builder 5, pro 25; other plans cannot subscribe. */
export const WEBHOOK_LIMITS: Partial<Record<Plan, number>> = { builder: 5, pro: 25 }

/** Concurrent /v5/stream connections per API key, by plan (docs/delivery.md lists them). */
export const STREAM_LIMITS: Record<Plan, number> = {
  free: 1,
  sandbox: 1,
  builder: 25,
  pro: 250,
  evidence_starter: 1,
  evidence: 1,
}

export function streamLimit(plan: Plan): number {
  return STREAM_LIMITS[plan] ?? 1
}

export interface FreeLimits {
  /** Requests per UTC day before credits are used (FREE_DAILY_LIMIT). */
  daily: number
  /** Reported per UTC month (FREE_MONTHLY_LIMIT); the daily limit is what is enforced. */
  monthly: number
}

export type PlanLimit =
  | { kind: 'free'; daily: number; monthly: number }
  | { kind: 'sandbox'; calls: number }
  | { kind: 'paid'; daily: number }

/**
 * What a plan may do per day. The witness plans (evidence_starter, evidence) are paid keys
 * whose receipt allowance the spec does not name; they get the builder figure.
 */
export function planLimit(plan: Plan, free: FreeLimits): PlanLimit {
  switch (plan) {
    case 'free':
      return { kind: 'free', daily: free.daily, monthly: free.monthly }
    case 'sandbox':
      return { kind: 'sandbox', calls: SANDBOX_CALLS }
    case 'pro':
      return { kind: 'paid', daily: PAID_DAILY_LIMITS.pro }
    default:
      return { kind: 'paid', daily: PAID_DAILY_LIMITS.builder }
  }
}

export const utcDayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10)
export const utcMonthOf = (ms: number) => new Date(ms).toISOString().slice(0, 7)

/** The next UTC midnight after `ms`, in epoch ms. */
export function nextUtcMidnight(ms: number): number {
  const d = new Date(ms)
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1)
}

/** Whole seconds until the next UTC midnight (at least 1). */
export function secondsToMidnight(ms: number): number {
  return Math.max(1, Math.ceil((nextUtcMidnight(ms) - ms) / 1000))
}
