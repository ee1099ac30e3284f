// GET /venue/{MIC}: one venue's page (sessions, phases, the next 30 days, the year's holidays,
// clock changes, data version, basis and sources). An unknown MIC is 400 UNKNOWN_MIC: as a page
// for a browser, as the error object for anyone else.
import { Elysia, t } from 'elysia'
import type { BoardDeps } from '../deps'
import { ApiError } from '../../http/errors'
import { responses } from '../../http/openapi'
import { parseMic } from '../../calendar/mic-param'
import { pageResponse } from '../layout'
import { pageError } from '../pages/error-page'
import { venuePageBody } from '../pages/venue-page'
import { venueDetails } from '../venue-details'

export function venuePageRoutes(deps: BoardDeps) {
  return new Elysia({ name: 'board-venue-page' }).get(
    '/venue/:mic',
    async ({ params, request }) => {
      let mic
      try {
        mic = parseMic(params.mic, { required: true })
      } catch (error) {
        if (error instanceof ApiError) return pageError(request, error)
        throw error
      }
      const now = deps.clock.now()
      // The page still shows without the change list (the database unreachable): the date is then unknown.
      const lastChange = await deps.calendarUpdates.changes.latest(mic).catch(() => null)
      const details = await venueDetails(deps, mic, now, lastChange)
      return pageResponse({ page: 'venue', title: `${details.venue.mic} ${details.venue.name}`, body: venuePageBody(details, now), data: { at: new Date(now).toISOString(), mic } })
    },
    {
      params: t.Object({ mic: t.String() }),
      query: t.Object({}, { additionalProperties: true }),
      detail: {
        tags: ['board'],
        summary: "A venue's page: today's sessions and phases, the next 30 days, the year's holidays, clock changes, data version, basis and sources",
        responses: responses({ 200: ['HTML page', t.String(), 'text/html'], 400: 'UNKNOWN_MIC (an HTML page for a browser)' }),
      },
    },
  )
}
