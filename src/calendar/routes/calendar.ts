// GET /v5/calendar: a venue's days over a date range (unsigned; calendar only).
import { Elysia, t } from 'elysia'
import type { CalendarDeps } from '../deps'
import { responses } from '../../http/openapi'
import { cachedCalendarAnswer, parseCalendarQuery } from '../calendar-answer'
import { answerCacheControl } from '../answer-cache'
import { cachedJson, limitCalendarCaller } from './answers'
import { DEFAULT_RANGE_DAYS, MAX_RANGE_DAYS } from '../date-range'
import { CoverageSchema, DaySchema } from './day-schemas'

const CalendarSchema = t.Object(
  {
    mic: t.String(),
    timezone: t.String(),
    data_version: t.Union([t.String(), t.Null()]),
    coverage: t.Union([CoverageSchema, t.Null()], { description: 'null when no valid calendar is loaded' }),
    from: t.String({ format: 'date' }),
    to: t.String({ format: 'date' }),
    note: t.Optional(t.String()),
    days: t.Array(DaySchema),
  },
  { additionalProperties: false },
)

export const CALENDAR_QUERY = t.Object({
  mic: t.Optional(t.String({ description: 'MIC, default XNYS' })),
  from: t.Optional(t.String({ description: 'first local date YYYY-MM-DD, default today (UTC)' })),
  to: t.Optional(t.String({ description: `last local date YYYY-MM-DD (inclusive), default from + ${DEFAULT_RANGE_DAYS} days; at most ${MAX_RANGE_DAYS} days per call` })),
})

export function calendarRoutes(deps: CalendarDeps) {
  return new Elysia({ name: 'calendar-days' }).get(
    '/v5/calendar',
    async ({ query, request, server }) => {
      const refused = await limitCalendarCaller(deps, request, server)
      if (refused) return refused
      const now = deps.clock.now()
      const asked = parseCalendarQuery(query, now)
      const answer = cachedCalendarAnswer(deps.calendars, deps.calendarAnswers, asked)
      return cachedJson(request, answer, answerCacheControl(now, asked.fromToday))
    },
    {
      query: CALENDAR_QUERY,
      detail: {
        tags: ['calendars'],
        summary: 'Sessions, holidays and phases of a venue by date (unsigned)',
        description:
          "Each local date with its kind (regular, early_close, late_open, special, holiday, weekend, provisional, unknown), name, basis, sessions (UTC instants and local HH:MM; a lunch break gives two) and trading phases where the venue's file has them. Dates outside the calendar's coverage are `unknown`, never guessed. Calendar only: ignores overrides and halts.",
        responses: responses({
          200: ['Days of the range (ETag; Cache-Control public, max-age 300, less when the range starts today)', CalendarSchema],
          304: 'Not modified (If-None-Match matched the ETag)',
          400: `UNKNOWN_MIC, INVALID_FROM, INVALID_TO, FROM_OUT_OF_RANGE, TO_OUT_OF_RANGE, INVALID_RANGE (to before from) or RANGE_TOO_LONG (more than ${MAX_RANGE_DAYS} days)`,
          429: 'RATE_LIMITED: over CALENDAR_RATE_PER_MINUTE requests a minute from this address (with the feeds and holidays; Retry-After)',
        }),
      },
    },
  )
}
