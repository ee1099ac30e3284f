// GET /v5/calendar/changes and /v5/calendar/changes.atom: the durable list of calendar changes
// (each changed date with the time, the trigger, the data_version before and after, and the day
// before and after), newest first, paged; and the same as an Atom feed, one entry per venue and reload.
import { createHash } from 'node:crypto'
import { Elysia, t } from 'elysia'
import type { CalendarDeps } from '../deps'
import { ApiError } from '../../http/errors'
import { responses } from '../../http/openapi'
import { SUPPORTED_RANGE, parseUtcInstant } from '../../utc'
import { parseMic } from '../mic-param'
import { atomFeed } from '../changes/atom'
import { matchesEtag } from './answers'

export const DEFAULT_LIMIT = 100
export const MAX_LIMIT = 500
const FEED_EVENTS = 50
const FEED_DAYS_PER_EVENT = 100

const optionalMic = (raw: string | undefined) => (raw === undefined || raw === '' ? undefined : parseMic(raw))

function parseSince(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined
  const parsed = parseUtcInstant(raw)
  if (!parsed.ok && parsed.reason === 'out_of_range') throw new ApiError(400, 'SINCE_OUT_OF_RANGE', 'since must be from 1970-01-01T00:00:00Z on', { supported_range: SUPPORTED_RANGE })
  if (!parsed.ok) throw new ApiError(400, 'INVALID_SINCE', 'since must be an ISO 8601 instant with a zone, e.g. 2026-12-01T00:00:00Z')
  return new Date(parsed.value).toISOString()
}

function parseLimit(raw: string | undefined): number {
  if (raw === undefined || raw === '') return DEFAULT_LIMIT
  if (!/^[1-9][0-9]{0,2}$/.test(raw) || Number(raw) > MAX_LIMIT) throw new ApiError(400, 'INVALID_LIMIT', `limit must be a whole number from 1 to ${MAX_LIMIT}`)
  return Number(raw)
}

function parseCursor(raw: string | undefined): number | undefined {
  if (raw === undefined || raw === '') return undefined
  if (!/^[1-9][0-9]{0,15}$/.test(raw)) throw new ApiError(400, 'INVALID_CURSOR', 'cursor must be a next_cursor value from a previous page')
  return Number(raw)
}

/** The answer with a strong ETag of its bytes, or 304 when the client has them. */
function tagged(request: Request, body: string, contentType: string): Response {
  const etag = `"${createHash('sha256').update(body).digest('hex').slice(0, 32)}"`
  const headers = { etag, 'cache-control': 'no-cache' }
  if (matchesEtag(request.headers.get('if-none-match'), etag)) return new Response(null, { status: 304, headers })
  return new Response(body, { headers: { ...headers, 'content-type': contentType } })
}

const ChangeSchema = t.Object(
  {
    id: t.Integer(),
    event_id: t.Integer({ description: 'the venue-and-reload change this date belongs to (webhook and stream events carry it)' }),
    mic: t.String(),
    at: t.String({ format: 'date-time', description: 'when the change was recorded' }),
    trigger: t.String({ description: 'upstream, watch, SIGHUP or admin' }),
    data_version_before: t.Union([t.String(), t.Null()]),
    data_version_after: t.Union([t.String(), t.Null()]),
    date: t.String({ format: 'date' }),
    change: t.String({ description: 'holiday_added, holiday_removed, holiday_renamed, early_close_added|moved|removed, late_open_added|moved|removed, special_session_added|changed|removed, provisional_added, provisional_confirmed, hours_changed, phases_changed, renamed, coverage_extended, coverage_reduced' }),
    to: t.Optional(t.String({ format: 'date', description: 'last date of a coverage range' })),
    before: t.Union([t.Object({}, { additionalProperties: true }), t.Null()], { description: 'the day as /v5/calendar gave it before (null: not covered)' }),
    after: t.Union([t.Object({}, { additionalProperties: true }), t.Null()], { description: 'the day as /v5/calendar gives it now' }),
  },
  { additionalProperties: false },
)

export function calendarChangeRoutes(deps: CalendarDeps) {
  const store = deps.calendarUpdates.changes
  return new Elysia({ name: 'calendar-changes' })
    .get(
      '/v5/calendar/changes',
      async ({ query, request }) => {
        const mic = optionalMic(query.mic)
        const since = parseSince(query.since)
        const limit = parseLimit(query.limit)
        const before = parseCursor(query.cursor)
        const changes = await store.list({ mic, since, before, limit })
        const body = { changes, count: changes.length, next_cursor: changes.length === limit ? String(changes.at(-1)!.id) : null }
        return tagged(request, JSON.stringify(body), 'application/json; charset=utf-8')
      },
      {
        query: t.Object({
          mic: t.Optional(t.String({ description: 'one venue (default: every venue)' })),
          since: t.Optional(t.String({ description: 'ISO 8601 instant: changes recorded at or after it' })),
          limit: t.Optional(t.String({ description: `rows per page, 1–${MAX_LIMIT} (default ${DEFAULT_LIMIT})` })),
          cursor: t.Optional(t.String({ description: 'next_cursor of the previous page' })),
        }),
        detail: {
          tags: ['calendars'],
          summary: 'Changed calendar dates, newest first (durable; paged)',
          description: 'Every reload that changed a date (an upstream update, a local edit, SIGHUP, the admin reload) is compared with the calendar before it, day by day; each changed date is listed with its time, trigger, data_version before and after, and the day record before and after. Webhooks (`calendar_change`) and /v5/stream (`event: calendar_change`) announce the same changes.',
          responses: responses({ 200: ['Changes', t.Object({ changes: t.Array(ChangeSchema), count: t.Integer(), next_cursor: t.Union([t.String(), t.Null()]) })], 304: 'Not modified', 400: 'UNKNOWN_MIC, INVALID_SINCE, SINCE_OUT_OF_RANGE, INVALID_LIMIT, INVALID_CURSOR' }),
        },
      },
    )
    .get(
      '/v5/calendar/changes.atom',
      async ({ query, request }) => {
        const mic = optionalMic(query.mic) ?? null
        const events = await store.events({ mic: mic ?? undefined, limit: FEED_EVENTS, daysPerEvent: FEED_DAYS_PER_EVENT })
        const feed = atomFeed(events, { baseUrl: deps.config.publicBaseUrl, authority: deps.config.issuer.replace(/:\d+$/, ''), mic, emptyUpdated: '1970-01-01T00:00:00.000Z' })
        return tagged(request, feed, 'application/atom+xml; charset=utf-8')
      },
      {
        query: t.Object({ mic: t.Optional(t.String({ description: 'one venue (default: every venue)' })) }),
        detail: {
          tags: ['calendars'],
          summary: 'Calendar changes as an Atom feed (one entry per venue and reload, newest 50)',
          responses: responses({ 200: ['Atom 1.0 feed', t.String(), 'application/atom+xml'], 304: 'Not modified', 400: 'UNKNOWN_MIC' }),
        },
      },
    )
}
