// The retry schedule, in units of WEBHOOK_DISPATCH_INTERVAL_SECONDS: after the first failed
// attempt wait 1 interval, then 5, 30, 150 and 600 (six attempts in all). At the default 60 s
// that is waits of 1 min, 5 min, 30 min, 2.5 h and 10 h (the last attempt about 13 h after the first); with a
// 2 s interval the first three attempts fall within 12 s. Each wait gets ±10 % jitter so that
// many receivers failing together do not retry in step.
export const RETRY_INTERVALS = [1, 5, 30, 150, 600] as const
export const MAX_ATTEMPTS = RETRY_INTERVALS.length + 1

/** Milliseconds to wait after `attempts` failed attempts, or null when none is left. */
export function retryDelayMs(attempts: number, intervalSeconds: number, random: () => number = Math.random): number | null {
  const multiplier = RETRY_INTERVALS[attempts - 1]
  if (multiplier === undefined) return null
  return Math.round(multiplier * intervalSeconds * 1000 * (0.9 + 0.2 * random()))
}
