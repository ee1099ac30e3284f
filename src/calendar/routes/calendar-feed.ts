// GET /v5/calendar/{MIC}.ics and /v5/calendar/all.ics: iCalendar feeds for calendar
// applications, with an ETag (304 on If-None-Match). A feed is built once per calendar
// generation and UTC day (its window starts 30 days back) and then served from memory.
import { createHash } from 'node:crypto'
import { Elysia, t } from 'elysia'
import type { CalendarDeps } from '../deps'
import { ApiError } from '../../http/errors'
import { responses } from '../../http/openapi'
import { unavailableReason } from '../directory'
import { buildFeed, FEED_PAST_DAYS, FEED_REFRESH_SECONDS, feedStartDay, type FeedVenue } from '../ics-feed'
import { parseMic } from '../mic-param'
import { SUPPORTED_MICS } from '../mics'
import type { CalendarSnapshot } from '../registry'
import { dateOfDayNumber } from '../zone'
import { limitCalendarCaller, matchesEtag } from './answers'

const FEED_NAME = /^(.+)\.ics$/i
const CONTENT_TYPE = 'text/calendar; charset=utf-8'

interface Feed {
  body: string
  etag: string
}

function feedVenues(snapshot: CalendarSnapshot, mics: readonly string[]): FeedVenue[] {
  return mics.flatMap((mic) => {
    const entry = snapshot.entries.get(mic)
    return entry?.state === 'loaded' ? [{ mic, name: entry.calendar.name, calendar: entry.calendar }] : []
  })
}

function makeFeed(snapshot: CalendarSnapshot, target: string, startDay: number): Feed {
  const since = dateOfDayNumber(startDay)
  let body: string
  if (target === 'all') {
    const venues = feedVenues(snapshot, SUPPORTED_MICS)
    const missing = SUPPORTED_MICS.filter((mic) => !venues.some((venue) => venue.mic === mic))
    const description = `Closures, early closes, late opens, special sessions and provisional days of every venue openbell covers, from ${since} to the end of each calendar's coverage.${missing.length ? ` No valid calendar (nothing listed, treat as closed): ${missing.join(', ')}.` : ''}`
    body = buildFeed(venues, startDay, { name: 'openbell: market closures, all venues', description })
  } else {
    const [venue] = feedVenues(snapshot, [target])
    if (!venue) throw new ApiError(503, 'CALENDAR_UNAVAILABLE', `no valid calendar is loaded for ${target} (${unavailableReason(snapshot, target as never) ?? 'unavailable'}); treat it as closed`, { mic: target })
    const coverage = venue.calendar.coverageTo ? ` to ${venue.calendar.coverageTo}, the end of its calendar's coverage (nothing is known after it)` : ''
    body = buildFeed([venue], startDay, { name: `openbell: ${target} ${venue.name}`, description: `Closures, early closes, late opens, special sessions and provisional days of ${venue.name} (${target}) from ${since}${coverage}.` })
  }
  return { body, etag: `"${createHash('sha256').update(body).digest('hex').slice(0, 32)}"` }
}

export function calendarFeedRoutes(deps: CalendarDeps) {
  let cache: { generation: number; startDay: number; feeds: Map<string, Feed> } | null = null
  return new Elysia({ name: 'calendar-feed' }).get(
    '/v5/calendar/:feed',
    async ({ params, request, server }) => {
      const refused = await limitCalendarCaller(deps, request, server)
      if (refused) return refused
      const name = FEED_NAME.exec(params.feed)
      if (!name) throw new ApiError(404, 'NOT_FOUND', 'calendar feeds are /v5/calendar/<MIC>.ics and /v5/calendar/all.ics')
      const target = name[1]!.toLowerCase() === 'all' ? 'all' : parseMic(name[1])
      const snapshot = deps.calendars.snapshot()
      const startDay = feedStartDay(deps.clock.now())
      if (!cache || cache.generation !== snapshot.generation || cache.startDay !== startDay) cache = { generation: snapshot.generation, startDay, feeds: new Map() }
      let feed = cache.feeds.get(target)
      if (!feed) {
        feed = makeFeed(snapshot, target, startDay)
        cache.feeds.set(target, feed)
      }
      const headers = { etag: feed.etag, 'cache-control': `public, max-age=${Math.min(3600, FEED_REFRESH_SECONDS)}`, vary: 'Origin' }
      if (matchesEtag(request.headers.get('if-none-match'), feed.etag)) return new Response(null, { status: 304, headers })
      return new Response(feed.body, { headers: { ...headers, 'content-type': CONTENT_TYPE } })
    },
    {
      params: t.Object({ feed: t.String({ description: '<MIC>.ics (one venue, e.g. XNYS.ics) or all.ics (every venue)' }) }),
      query: t.Object({}),
      detail: {
        tags: ['calendars'],
        summary: 'iCalendar feed of closures, shortened sessions and provisional days (RFC 5545)',
        description: `Subscribe in a calendar application. From ${FEED_PAST_DAYS} days ago to the end of coverage: all-day events for closures and provisional days (TENTATIVE), timed events for early closes, late opens and special sessions; UID stable per venue and date; LAST-MODIFIED, DTSTAMP and SEQUENCE from the calendar's data_version, so a confirmed provisional day replaces its event at the next refresh. ETag, and 304 on If-None-Match.`,
        responses: responses({
          200: ['The feed', t.String({ description: 'text/calendar (RFC 5545)' }), 'text/calendar'],
          304: 'Not modified (If-None-Match matched the ETag)',
          400: 'UNKNOWN_MIC',
          404: 'NOT_FOUND (the name does not end in .ics)',
          429: 'RATE_LIMITED: over CALENDAR_RATE_PER_MINUTE requests a minute from this address (with /v5/calendar and the holidays; Retry-After)',
          503: 'CALENDAR_UNAVAILABLE (no valid calendar is loaded for that venue)',
        }),
      },
    },
  )
}
