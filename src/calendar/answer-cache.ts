// Calendar answers (/v5/calendar, /v5/holidays, /v5/holidays/upcoming) are pure functions of the
// calendar snapshot and the request's normalised query (the MIC, the resolved dates): each is
// built and serialised once per snapshot and query and then served from a bounded cache, with an
// ETag (a hash of the answer, which names every venue's data_version: a new calendar version is a
// new tag, and nodes with the same files give the same one) and Cache-Control. A reload replaces
// the snapshot and empties the cache. A 366-day answer cost 4-17 ms of CPU per request before
// (docs/performance.md); from the cache it is a lookup.
import { createHash } from 'node:crypto'
import { BoundedCache } from '../http/bounded-cache'
import type { CalendarSnapshot } from './registry'
import { DAY_MS } from './zone'

export interface CachedAnswer {
  body: string
  etag: string
}

/** Every venue's year and more; the largest answers are 150-260 KB, so the bytes bound first. */
export const ANSWER_CACHE_LIMITS = { maxEntries: 512, maxBytes: 32 * 2 ** 20 }
/** How long a client or a shared cache may reuse an answer without asking (then If-None-Match). */
export const ANSWER_MAX_AGE_SECONDS = 300

export class AnswerCache {
  private snapshot: CalendarSnapshot | null = null
  private readonly answers: BoundedCache<string, CachedAnswer>
  /** Answers built (cache misses) since start. */
  built = 0

  constructor(limits = ANSWER_CACHE_LIMITS) {
    // About a byte a character (venue names are the only text outside ASCII).
    this.answers = new BoundedCache(limits, (answer) => answer.body.length + answer.etag.length)
  }

  /** The answer of `key` in `snapshot`, built with `build` when it is not cached. */
  answer(snapshot: CalendarSnapshot, key: string, build: () => unknown): CachedAnswer {
    if (snapshot !== this.snapshot) {
      this.answers.clear()
      this.snapshot = snapshot
    }
    let cached = this.answers.get(key)
    if (!cached) {
      const body = JSON.stringify(build())
      cached = { body, etag: `"${createHash('sha256').update(body).digest('hex').slice(0, 32)}"` }
      this.built++
      this.answers.set(key, cached)
    }
    return cached
  }

  get entries(): number {
    return this.answers.size
  }

  get bytes(): number {
    return this.answers.bytes
  }
}

/**
 * Cache-Control of an answer: ANSWER_MAX_AGE_SECONDS, or less when the answer's range was taken
 * from today (no `from`, `days` from today, the current year): it must not outlive the UTC day.
 */
export function answerCacheControl(now: number, fromToday: boolean): string {
  const untilMidnight = Math.max(1, Math.ceil((DAY_MS - (now % DAY_MS)) / 1000))
  return `public, max-age=${fromToday ? Math.min(ANSWER_MAX_AGE_SECONDS, untilMidnight) : ANSWER_MAX_AGE_SECONDS}`
}
