// GET /v5/dst-risk: the next daylight-saving transition and its effect on naive agents.
import { Elysia, t } from 'elysia'
import type { CalendarDeps } from '../deps'
import { responses } from '../../http/openapi'
import type { CompiledCalendar } from '../compile'
import { dstRisk } from '../dst-risk'

export function dstRiskRoutes(deps: CalendarDeps) {
  // Recomputed when the calendars change or the next transition is reached: until then the
  // answer is the same for every "now" (the transitions are exact instants, not "now" + steps).
  let cache: { generation: number; validUntil: number; body: ReturnType<typeof dstRisk> } | null = null
  return new Elysia({ name: 'calendar-dst-risk' }).get(
    '/v5/dst-risk',
    () => {
      const now = deps.clock.now()
      const snapshot = deps.calendars.snapshot()
      if (!cache || cache.generation !== snapshot.generation || now >= cache.validUntil) {
        const calendars = [...snapshot.entries.values()].flatMap((entry) => (entry.state === 'loaded' ? [entry.calendar] : ([] as CompiledCalendar[])))
        const body = dstRisk(calendars, now)
        cache = { generation: snapshot.generation, validUntil: body.transition_utc ? Date.parse(body.transition_utc) : now + 3_600_000, body }
      }
      return cache.body
    },
    {
      detail: {
        tags: ['calendars'],
        summary: 'Next daylight-saving transition and its risk for agents',
        responses: responses({ 200: ['DST risk', t.Object({ event: t.Union([t.String(), t.Null()]), transition_utc: t.Union([t.String(), t.Null()]), affected_exchanges: t.Array(t.Object({}, { additionalProperties: true })) }, { additionalProperties: true })] }),
      },
    },
  )
}
