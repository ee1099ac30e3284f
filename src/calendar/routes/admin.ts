// POST /v5/admin/schedules/reload: validate and load changed calendar files without a restart.
import { Elysia, t } from 'elysia'
import type { CalendarDeps } from '../deps'
import { authPlugin } from '../../http/auth'
import { responses } from '../../http/openapi'

export function calendarAdminRoutes(deps: CalendarDeps) {
  return new Elysia({ name: 'calendar-admin' }).use(authPlugin(deps)).post('/v5/admin/schedules/reload', () => deps.calendars.reload('admin'), {
    admin: true,
    detail: {
      tags: ['operator'],
      summary: 'Reload calendars (X-Oracle-Key: ADMIN_KEY)',
      description: 'Every file is validated first; an invalid file leaves the previous version of that MIC in force. Answers the per-MIC result.',
      responses: responses({ 200: ['Per-MIC reload result', t.Object({ ok: t.Boolean(), generation: t.Integer(), results: t.Array(t.Object({ mic: t.String(), outcome: t.String(), data_version: t.Union([t.String(), t.Null()]) }, { additionalProperties: true })) }, { additionalProperties: true })], 401: 'ADMIN_KEY_REQUIRED', 403: 'INVALID_ADMIN_KEY or ADMIN_DISABLED' }),
    },
  })
}
