// Allowances per client address (and per recipient) stored in the database, so that a restart
// keeps them and every node shares them. One statement takes one unit (the store's
// takeAllowance): it opens a new window when the old one has ended, counts when there is room, and
// changes nothing when the allowance is used up (no row comes back). The callers take units inside
// their own unit of work, together with what the unit pays for.
import type { Step } from '../store/transaction'

export const DAY_MS = 86_400_000

export interface Allowance {
  /** Names the limit: 'instant', 'email', 'email_to', 'sandbox', 'sandbox_email'. */
  scope: string
  /** The client address, or a hash of the recipient. */
  subject: string
  limit: number
  /** Start of the window a new count opens: the UTC day's start, or now for a rolling window. */
  windowStart: number
  windowMs: number
}

export type AllowanceResult = { ok: true; count: number } | { ok: false; resetAt: number }

export function utcDayStart(now: number): number {
  return Math.floor(now / DAY_MS) * DAY_MS
}

/** The one-statement take of an allowance unit, with parameters $1 scope … $6 limit (both dialects). */
export const TAKE_ALLOWANCE_SQL = `INSERT INTO address_limits (scope, subject, window_start, count) VALUES ($1, $2, $3, 1)
ON CONFLICT (scope, subject) DO UPDATE SET
  count = CASE WHEN address_limits.window_start + $4 <= $5 THEN 1 ELSE address_limits.count + 1 END,
  window_start = CASE WHEN address_limits.window_start + $4 <= $5 THEN excluded.window_start ELSE address_limits.window_start END
WHERE address_limits.window_start + $4 <= $5 OR address_limits.count < $6
RETURNING count`

export const takeAllowanceValues = (allowance: Allowance, now: number) => [allowance.scope, allowance.subject, allowance.windowStart, allowance.windowMs, now, allowance.limit]

/**
 * Takes one unit of a sliding window: at most `limit` in any `windowMs`. Each unit is a slot
 * (`subject`, `subject#1`, …) holding the time it was last taken, free again `windowMs` later.
 */
export function* takeSliding(take: (allowance: Allowance, now: number) => Step<AllowanceResult>, allowance: Omit<Allowance, 'windowStart'>, now: number): Step<AllowanceResult> {
  let resetAt = Infinity
  for (let slot = 0; slot < allowance.limit; slot++) {
    const subject = slot === 0 ? allowance.subject : `${allowance.subject}#${slot}`
    const result = yield* take({ ...allowance, subject, limit: 1, windowStart: now }, now)
    if (result.ok) return { ok: true, count: slot + 1 }
    resetAt = Math.min(resetAt, result.resetAt)
  }
  return { ok: false, resetAt }
}
