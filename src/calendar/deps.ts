// What the calendar domain's routes and jobs take (types only: a full set of the app's
// dependencies satisfies each).
import type { Config } from '../config'
import type { Clock } from '../clock'
import type { Logger } from '../log'
import type { CalendarRegistry } from './registry'
import type { AnswerCache } from './answer-cache'
import type { RateLimiter } from '../http/rate-limit'
import type { CalendarUpdates } from './updates/services'

/** The calendar surfaces (routes/): the snapshot registry, the clock, the admin key of the reload. */
export interface CalendarDeps {
  config: Config
  clock: Clock
  calendars: CalendarRegistry
  /** Per-address limiter shared by the calendar answers and feeds (CALENDAR_RATE_PER_MINUTE). */
  calendarLimiter: RateLimiter
  /** The calendar answers built once per calendar snapshot and query (answer-cache.ts). */
  calendarAnswers: AnswerCache
  /** The manifest this instance publishes, the upstream it follows, the durable list of calendar changes. */
  calendarUpdates: CalendarUpdates
}

/** The calendar jobs (jobs.ts): directory watch, SIGHUP reload, horizon alarm, their /v5/health extras. */
export interface CalendarJobDeps {
  clock: Clock
  log: Logger
  calendars: CalendarRegistry
  /** Unsigned extra fields for /v5/health (warnings from background jobs). */
  healthExtras: Array<() => Record<string, unknown>>
}
