// What the calendar answers share at the door: one per-address rate for all of them and the
// feeds (CALENDAR_RATE_PER_MINUTE, counted before anything is parsed, as the other anonymous
// doors count), and a cached answer sent as JSON with its ETag and Cache-Control, or 304.
import type { CalendarDeps } from '../deps'
import { clientAddress, type PeerSource } from '../../http/client-address'
import { jsonResponse } from '../../http/errors'
import { rateLimitHeaders } from '../../http/rate-limit'
import type { CachedAnswer } from '../answer-cache'

/**
 * A refusal is held this long before it is sent: a client that ignores Retry-After and asks again
 * at once (20 connections in a loop) otherwise gets its cheap 429s as fast as the event loop can
 * answer them, and those turns are taken from paid requests (docs/performance.md, issue 30).
 */
export const REFUSAL_PAUSE_MS = 250

/** Counts the request against its address: null to go on, or the 429 RATE_LIMITED answer (after REFUSAL_PAUSE_MS). */
export async function limitCalendarCaller(deps: Pick<CalendarDeps, 'calendarLimiter' | 'config' | 'clock'>, request: Request, server: PeerSource | null): Promise<Response | null> {
  const decision = deps.calendarLimiter.hit(clientAddress(request, deps.config.clientIpHeader, server), deps.clock.now())
  if (decision.allowed) return null
  const message = `calendar answers are limited to ${decision.limit} requests a minute per address; retry in ${decision.retryAfterSeconds} s (answers carry an ETag: ask again with If-None-Match)`
  await Bun.sleep(REFUSAL_PAUSE_MS)
  return jsonResponse({ error: 'RATE_LIMITED', message }, 429, rateLimitHeaders(decision))
}

/** If-None-Match: a list of entity tags (weak ones compare by their opaque part), or *. */
export function matchesEtag(header: string | null, etag: string): boolean {
  if (!header) return false
  return header.split(',').some((tag) => {
    const value = tag.trim()
    return value === '*' || value.replace(/^W\//, '') === etag
  })
}

export function cachedJson(request: Request, answer: CachedAnswer, cacheControl: string): Response {
  // Cacheable answers say that CORS headers depend on Origin (http/cors.ts).
  const headers = { etag: answer.etag, 'cache-control': cacheControl, vary: 'Origin' }
  if (matchesEtag(request.headers.get('if-none-match'), answer.etag)) return new Response(null, { status: 304, headers })
  return new Response(answer.body, { headers: { ...headers, 'content-type': 'application/json; charset=utf-8' } })
}
