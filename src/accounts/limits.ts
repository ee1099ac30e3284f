// Allowances per client address (and per recipient) stored in SQLite, so that a restart keeps
// them. One statement takes one unit: it opens a new window when the old one has ended, counts
// when there is room, and changes nothing when the allowance is used up (no row comes back).
// Callers run it inside their own immediate transaction, together with what the unit pays for.
import type { Database } from 'bun:sqlite'

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

export function addressLimits(db: Database) {
  const take = db.query(
    `INSERT INTO address_limits (scope, subject, window_start, count) VALUES ($scope, $subject, $start, 1)
     ON CONFLICT (scope, subject) DO UPDATE SET
       count = CASE WHEN address_limits.window_start + $window_ms <= $now THEN 1 ELSE address_limits.count + 1 END,
       window_start = CASE WHEN address_limits.window_start + $window_ms <= $now THEN excluded.window_start ELSE address_limits.window_start END
     WHERE address_limits.window_start + $window_ms <= $now OR address_limits.count < $limit
     RETURNING count`,
  )
  const windowOf = db.query('SELECT window_start FROM address_limits WHERE scope = ? AND subject = ?')
  const prune = db.query('DELETE FROM address_limits WHERE window_start < ?')
  const takeOne = (allowance: Allowance, now: number): AllowanceResult => {
    const row = take.get({ scope: allowance.scope, subject: allowance.subject, start: allowance.windowStart, window_ms: allowance.windowMs, now, limit: allowance.limit }) as { count: number } | null
    if (row) return { ok: true, count: row.count }
    const current = windowOf.get(allowance.scope, allowance.subject) as { window_start: number }
    return { ok: false, resetAt: current.window_start + allowance.windowMs }
  }
  return {
    /** Takes one unit, or reports when the window ends. Run inside the caller's transaction. */
    take: takeOne,
    /**
     * Takes one unit of a sliding window: at most `limit` in any `windowMs`. Each unit is a slot
     * (`subject`, `subject#1`, …) holding the time it was last taken, free again `windowMs` later.
     * Run inside the caller's transaction.
     */
    takeSliding(allowance: Omit<Allowance, 'windowStart'>, now: number): AllowanceResult {
      let resetAt = Infinity
      for (let slot = 0; slot < allowance.limit; slot++) {
        const subject = slot === 0 ? allowance.subject : `${allowance.subject}#${slot}`
        const result = takeOne({ ...allowance, subject, limit: 1, windowStart: now }, now)
        if (result.ok) return { ok: true, count: slot + 1 }
        resetAt = Math.min(resetAt, result.resetAt)
      }
      return { ok: false, resetAt }
    },
    /** Removes windows that started before `before` (all limits here last at most 7 days). */
    prune(before: number): number {
      return prune.run(before).changes
    },
  }
}

export type AddressLimits = ReturnType<typeof addressLimits>
