// GET /v5/historical: unsigned reconstruction of the calendar status at an instant.
import { Elysia, t } from 'elysia'
import type { CalendarDeps } from '../deps'
import { ApiError } from '../../http/errors'
import { requiredByRoute, responses } from '../../http/openapi'
import { identityOf, unavailableReason } from '../directory'
import { reconstruct } from '../historical'
import { PHASES } from '../phases'
import { parseMic } from '../mic-param'
import { SUPPORTED_RANGE, parseUtcInstant } from '../../utc'

export function historicalRoutes(deps: CalendarDeps) {
  return new Elysia({ name: 'calendar-historical' }).get(
    '/v5/historical',
    ({ query }) => {
      const mic = parseMic(query.mic, { required: true })
      const now = deps.clock.now()
      // Without `at`: now (the spec required it; a first-time caller asking "what now?" should not need it).
      let at = now
      if (query.at !== undefined) {
        const parsed = parseUtcInstant(query.at)
        if (!parsed.ok && parsed.reason === 'out_of_range') throw new ApiError(400, 'AT_OUT_OF_RANGE', `at must be from ${SUPPORTED_RANGE.from} to ${SUPPORTED_RANGE.to}`, { supported_range: SUPPORTED_RANGE })
        if (!parsed.ok) throw new ApiError(400, 'AT_INVALID', 'at must be an ISO 8601 date-time with a zone designator, e.g. 2026-03-09T14:00:00Z (or leave it out for now)')
        at = parsed.value
      }
      const snapshot = deps.calendars.snapshot()
      return reconstruct(deps.calendars.calendar(mic, snapshot), identityOf(snapshot, mic), at, now, unavailableReason(snapshot, mic))
    },
    {
      query: t.Object({ mic: t.Optional(t.String({ description: 'MIC', ...requiredByRoute })), at: t.Optional(t.String({ description: 'instant, RFC 3339 with zone; default now' })) }),
      detail: {
        tags: ['calendars'],
        summary: 'Historical reconstruction from schedule data (unsigned)',
        responses: responses({
          200: ['Historical', t.Object({ mic: t.String(), queried_at: t.String(), computed_status: t.String(), phase: t.Union([t.Union(PHASES.map((phase) => t.Literal(phase))), t.Null()], { description: 'trading phase at the instant (continuous = OPEN); null when computed_status is UNKNOWN' }), source: t.Literal('SCHEDULE_RECONSTRUCTION'), reasoning: t.Object({}, { additionalProperties: true }), dst_note: t.Union([t.String(), t.Null()]), disclaimer: t.String() }, { additionalProperties: true })],
          400: 'MIC_REQUIRED, UNKNOWN_MIC, AT_INVALID or AT_OUT_OF_RANGE (before 1970 or after 9999)',
        }),
      },
    },
  )
}
