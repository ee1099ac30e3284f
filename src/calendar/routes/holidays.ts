// GET /v5/holidays and /v5/holidays/upcoming: closures, early closes, late opens, special
// sessions and provisional dates across venues (unsigned; calendar only).
import { Elysia, t } from 'elysia'
import type { CalendarDeps } from '../deps'
import { ApiError } from '../../http/errors'
import { responses } from '../../http/openapi'
import { DEFAULT_RANGE_DAYS, MAX_RANGE_DAYS, parseDateRange, parseUpcomingDays, parseYear, todayDay } from '../date-range'
import { holidaysView, venueCalendars } from '../holidays'
import { parseMic } from '../mic-param'
import { dateOfDayNumber } from '../zone'
import { CoverageSchema, HolidaySchema } from './day-schemas'
import { answerCacheControl } from '../answer-cache'
import { cachedJson, limitCalendarCaller } from './answers'

const VenueSchema = t.Object({
  mic: t.String(),
  data_version: t.Union([t.String(), t.Null()]),
  coverage: t.Union([CoverageSchema, t.Null()]),
  complete: t.Boolean({ description: "true when the venue's calendar covers every date of the range; otherwise missing entries prove nothing" }),
})

const holidaysBody = (extra = {}) =>
  t.Object({ from: t.String({ format: 'date' }), to: t.String({ format: 'date' }), ...extra, holidays: t.Array(HolidaySchema, { description: 'sorted by date, then MIC' }), venues: t.Array(VenueSchema) }, { additionalProperties: false })

const NOT_MODIFIED = 'Not modified (If-None-Match matched the ETag)'
const RATE_LIMITED = 'RATE_LIMITED: over CALENDAR_RATE_PER_MINUTE requests a minute from this address (with /v5/calendar and the feeds; Retry-After)'

const MIC_FILTER = t.Optional(t.String({ description: 'one MIC; default every venue' }))
const micFilter = (raw: string | undefined) => (raw === undefined || raw === '' ? undefined : parseMic(raw))

export function holidayRoutes(deps: CalendarDeps) {
  return new Elysia({ name: 'calendar-holidays' })
    .get(
      '/v5/holidays',
      async ({ query, request, server }) => {
        const refused = await limitCalendarCaller(deps, request, server)
        if (refused) return refused
        const mic = micFilter(query.mic)
        const now = deps.clock.now()
        const byRange = query.from !== undefined || query.to !== undefined
        if (query.year !== undefined && byRange) throw new ApiError(400, 'CONFLICTING_PARAMETERS', 'give year, or from and to, not both')
        const range = byRange ? parseDateRange(query, now) : parseYear(query.year ?? dateOfDayNumber(todayDay(now)).slice(0, 4))
        const snapshot = deps.calendars.snapshot()
        const answer = deps.calendarAnswers.answer(snapshot, `holidays ${mic ?? '*'} ${range.from} ${range.to}`, () => holidaysView(venueCalendars(snapshot, mic), range))
        // The current year by default, or a range from today: it must not outlive the day.
        return cachedJson(request, answer, answerCacheControl(now, byRange ? !query.from : query.year === undefined))
      },
      {
        query: t.Object({
          mic: MIC_FILTER,
          year: t.Optional(t.String({ description: 'a year YYYY; default the current year (UTC) when neither year nor from/to is given' })),
          from: t.Optional(t.String({ description: 'first local date YYYY-MM-DD, default today (UTC)' })),
          to: t.Optional(t.String({ description: `last local date (inclusive), default from + ${DEFAULT_RANGE_DAYS} days; at most ${MAX_RANGE_DAYS} days` })),
        }),
        detail: {
          tags: ['calendars'],
          summary: 'Closures, early closes, late opens, special sessions and provisional dates (unsigned)',
          description: 'For a year or a date range, across venues or for one. The answer is `{from, to, holidays, venues}`: `holidays` lists the notable days (day records with `mic`), sorted by date then MIC; `venues` says for each venue whether its calendar covers the whole range (`complete`): beyond coverage nothing is known.',
          responses: responses({ 200: ['Notable days (ETag; Cache-Control public, max-age 300, less when the range depends on today)', holidaysBody()], 304: NOT_MODIFIED, 400: 'UNKNOWN_MIC, INVALID_YEAR, CONFLICTING_PARAMETERS, INVALID_FROM, INVALID_TO, FROM_OUT_OF_RANGE, TO_OUT_OF_RANGE, INVALID_RANGE or RANGE_TOO_LONG', 429: RATE_LIMITED }),
        },
      },
    )
    .get(
      '/v5/holidays/upcoming',
      async ({ query, request, server }) => {
        const refused = await limitCalendarCaller(deps, request, server)
        if (refused) return refused
        const mic = micFilter(query.mic)
        const now = deps.clock.now()
        const range = parseUpcomingDays(query.days, now)
        const snapshot = deps.calendars.snapshot()
        const answer = deps.calendarAnswers.answer(snapshot, `upcoming ${mic ?? '*'} ${range.days} ${range.from} ${range.to}`, () => ({ days: range.days, ...holidaysView(venueCalendars(snapshot, mic), range) }))
        return cachedJson(request, answer, answerCacheControl(now, true))
      },
      {
        query: t.Object({ days: t.Optional(t.String({ description: `days from today (UTC), today included: 1..${MAX_RANGE_DAYS}, default ${DEFAULT_RANGE_DAYS}` })), mic: MIC_FILTER }),
        detail: {
          tags: ['calendars'],
          summary: 'What closes next: notable days across venues from today (unsigned)',
          description: 'The answer is `{days, from, to, holidays, venues}`, as /v5/holidays with `days` (the window asked) first: `holidays` lists the notable days from today, sorted by date then MIC.',
          responses: responses({ 200: ['Notable days from today (ETag; Cache-Control public, at most until the end of the UTC day)', holidaysBody({ days: t.Integer({ minimum: 1 }) })], 304: NOT_MODIFIED, 400: 'INVALID_DAYS (a whole number 1..366 without leading zeros), RANGE_TOO_LONG or UNKNOWN_MIC', 429: RATE_LIMITED }),
        },
      },
    )
}
