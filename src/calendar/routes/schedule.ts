// GET /v5/schedule: the unsigned calendar view of one venue.
import { Elysia, t } from 'elysia'
import type { CalendarDeps } from '../deps'
import { responses } from '../../http/openapi'
import { identityOf, unavailableReason } from '../directory'
import { parseMic } from '../mic-param'
import { PHASES } from '../phases'
import { scheduleView } from '../schedule'

const ScheduleSchema = t.Object(
  {
    mic: t.String(),
    name: t.String(),
    timezone: t.String(),
    queried_at: t.String({ format: 'date-time' }),
    current_status: t.Union([t.Literal('OPEN'), t.Literal('CLOSED'), t.Literal('UNKNOWN')]),
    reason: t.String({ description: 'why: regular session, after close, holiday: <name>, lunch break, provisional: …, outside calendar coverage …' }),
    phase: t.Union([t.Union(PHASES.map((phase) => t.Literal(phase))), t.Null()], { description: 'trading phase now, as /v5/historical gives it (continuous = OPEN); null when current_status is UNKNOWN' }),
    phase_until: t.Union([t.String({ format: 'date-time' }), t.Null()], { description: 'when that phase ends (a band ends, the venue opens or closes, the next band starts); null for 24/7 venues and when UNKNOWN' }),
    next_open: t.Union([t.String({ format: 'date-time' }), t.Null()]),
    next_close: t.Union([t.String({ format: 'date-time' }), t.Null()]),
    next_open_provisional: t.Boolean({ description: 'true when next_open was found across a provisional day (which may yet trade)' }),
    next_close_provisional: t.Boolean({ description: 'true when next_close was found across, or runs into, a provisional day' }),
    lunch_break: t.Union([t.Object({ start: t.String(), end: t.String() }), t.Null()]),
    note: t.String(),
    data_version: t.Union([t.String(), t.Null()]),
  },
  { additionalProperties: true },
)

export function scheduleRoutes(deps: CalendarDeps) {
  return new Elysia({ name: 'calendar-schedule' }).get(
    '/v5/schedule',
    ({ query }) => {
      const mic = parseMic(query.mic)
      const snapshot = deps.calendars.snapshot()
      return scheduleView(deps.calendars.calendar(mic, snapshot), identityOf(snapshot, mic), deps.clock.now(), unavailableReason(snapshot, mic))
    },
    {
      query: t.Object({ mic: t.Optional(t.String({ description: 'MIC, default XNYS' })) }),
      detail: { tags: ['calendars'], summary: 'Calendar schedule (unsigned; ignores overrides and halts): what the venue is doing now, why, and until when', description: 'One call for "what is this venue doing now, why, and until when": current_status and reason, the trading phase and phase_until, next_open and next_close. Calendar only: an override or a real-time halt shows in /v5/status.', responses: responses({ 200: ['Schedule', ScheduleSchema], 400: 'UNKNOWN_MIC' }) },
    },
  )
}
