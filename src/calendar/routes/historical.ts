// GET /v5/historical: unsigned reconstruction of the calendar status at an instant.
import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../deps'
import { ApiError } from '../../http/errors'
import { responses } from '../../http/openapi'
import { identityOf, unavailableReason } from '../directory'
import { reconstruct } from '../historical'
import { parseMic } from '../mic-param'

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i

/** An RFC 3339 date-time with a zone designator; calendar-impossible values are refused. */
export function parseInstant(text: string): number | null {
  const match = RFC3339.exec(text)
  if (!match) return null
  const [, year, month, day, hour, minute, second = '0'] = match
  if (Number(month) < 1 || Number(month) > 12 || Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return null
  const daysInMonth = new Date(Date.UTC(Number(year), Number(month), 0)).getUTCDate()
  if (Number(day) < 1 || Number(day) > daysInMonth) return null
  const ms = Date.parse(text.toUpperCase())
  return Number.isFinite(ms) ? ms : null
}

export function historicalRoutes(deps: AppDeps) {
  return new Elysia({ name: 'calendar-historical' }).get(
    '/v5/historical',
    ({ query }) => {
      const mic = parseMic(query.mic, { required: true })
      if (!query.at) throw new ApiError(400, 'AT_REQUIRED', 'query parameter at (an ISO 8601 date-time with a zone, e.g. 2026-03-09T14:00:00Z) is required')
      const at = parseInstant(query.at)
      if (at === null) throw new ApiError(400, 'AT_INVALID', 'at must be an ISO 8601 date-time with a zone designator, e.g. 2026-03-09T14:00:00Z')
      const snapshot = deps.calendars.snapshot()
      return reconstruct(deps.calendars.calendar(mic, snapshot), identityOf(snapshot, mic), at, deps.clock.now(), unavailableReason(snapshot, mic))
    },
    {
      query: t.Object({ mic: t.Optional(t.String({ description: 'MIC (required)' })), at: t.Optional(t.String({ description: 'instant (required), RFC 3339 with zone' })) }),
      detail: {
        tags: ['calendars'],
        summary: 'Historical reconstruction from schedule data (unsigned)',
        responses: responses({
          200: ['Historical', t.Object({ mic: t.String(), queried_at: t.String(), computed_status: t.String(), source: t.Literal('SCHEDULE_RECONSTRUCTION'), reasoning: t.Object({}, { additionalProperties: true }), dst_note: t.Union([t.String(), t.Null()]), disclaimer: t.String() }, { additionalProperties: true })],
          400: 'MIC_REQUIRED, UNKNOWN_MIC, AT_REQUIRED or AT_INVALID',
        }),
      },
    },
  )
}
