// GET /v5/board: every venue's state, reason, phase, local time and next transition, for the
// board page and anyone who wants the same at a glance. Public: no key, nothing signed, nothing
// metered; cacheable for one second; readable from any origin.
import { Elysia, t } from 'elysia'
import type { BoardDeps } from '../deps'
import { responses } from '../../http/openapi'
import { DAY_KINDS } from '../../calendar/days'
import { PHASES } from '../../calendar/phases'
import { REGION_ORDER } from '../present'
import { BOARD_REFRESH_SECONDS, boardSummary } from '../summary'

export const BOARD_HEADERS = { 'cache-control': `public, max-age=${BOARD_REFRESH_SECONDS}`, 'access-control-allow-origin': '*' } as const

const literals = (values: readonly string[]) => t.Union(values.map((value) => t.Literal(value)))
const Status = literals(['OPEN', 'CLOSED', 'HALTED', 'UNKNOWN'])

const VenueSchema = t.Object(
  {
    mic: t.String(),
    name: t.String(),
    region: literals(REGION_ORDER),
    country: t.String(),
    timezone: t.String({ description: 'IANA' }),
    status: Status,
    source: literals(['SCHEDULE', 'OVERRIDE', 'REALTIME', 'SYSTEM']),
    reason: t.String({ description: "why: the calendar's reason, the override's or halt's reason, or why the state is unknown" }),
    phase: t.Union([literals(PHASES), t.Null()], { description: 'calendar trading phase; null when the state is not from the calendar or is UNKNOWN' }),
    local_date: t.String({ format: 'date' }),
    local_time: t.String({ description: 'HH:MM in the venue time zone' }),
    utc_offset: t.String({ description: 'e.g. UTC-05:00' }),
    day: t.Object(
      {
        date: t.String({ format: 'date' }),
        kind: literals(DAY_KINDS),
        name: t.Union([t.String(), t.Null()], { description: 'holiday, early close, late open, special session or provisional date name' }),
        provisional_why: t.Optional(t.String()),
        open_local: t.Union([t.String(), t.Null()]),
        close_local: t.Union([t.String(), t.Null()]),
      },
      { description: "today's local date as /v5/calendar lists it" },
    ),
    next: t.Union([t.Object({ event: literals(['open', 'close', 'override_ends']), at: t.String({ format: 'date-time' }), provisional: t.Boolean() }), t.Null()], { description: 'the next transition; null when none is known (24/7 venues, real-time halts, outside coverage)' }),
    data_version: t.Union([t.String(), t.Null()]),
  },
  { additionalProperties: false },
)

export const BoardSchema = t.Object(
  {
    at: t.String({ format: 'date-time', description: 'the instant every venue was evaluated at' }),
    refresh_seconds: t.Integer(),
    venue_count: t.Integer(),
    counts: t.Object({ OPEN: t.Integer(), CLOSED: t.Integer(), HALTED: t.Integer(), UNKNOWN: t.Integer() }),
    regions: t.Array(t.String(), { description: 'regions in display order' }),
    venues: t.Array(VenueSchema),
    note: t.String(),
  },
  { additionalProperties: false },
)

export function boardApiRoutes(deps: BoardDeps) {
  return new Elysia({ name: 'board-api' }).get(
    '/v5/board',
    async ({ set }) => {
      Object.assign(set.headers, BOARD_HEADERS)
      return boardSummary(deps, deps.clock.now())
    },
    {
      query: t.Object({}),
      detail: {
        tags: ['board'],
        summary: 'Every venue now: state, reason, phase, local time, next transition (unsigned, unmetered)',
        description: 'What the board page shows. The state is the one a receipt would carry at `at` (operator overrides and real-time halts included); do not act on it: agents act on signed receipts. Cache-Control: public, max-age=1; CORS open to every origin.',
        responses: responses({ 200: ['Board', BoardSchema] }),
      },
    },
  )
}
