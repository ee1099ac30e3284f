// GET /v5/exchanges and /mics.json
import { Elysia, t } from 'elysia'
import type { CalendarDeps } from '../deps'
import { jsonResponse } from '../../http/errors'
import { responses } from '../../http/openapi'
import { exchangeDirectory } from '../directory'

const RegistryEntry = t.Object({ mic: t.String(), name: t.String(), country: t.String(), timezone: t.String(), currency: t.String(), sameAs: t.String({ format: 'uri' }) })

export function exchangeRoutes(deps: CalendarDeps) {
  return new Elysia({ name: 'calendar-exchanges' })
    .get('/v5/exchanges', () => ({ exchanges: exchangeDirectory(deps.calendars.snapshot()).map(({ mic, name, timezone }) => ({ mic, name, timezone })) }), {
      detail: { tags: ['calendars'], summary: 'Exchange directory', responses: responses({ 200: ['Every supported exchange', t.Object({ exchanges: t.Array(t.Object({ mic: t.String(), name: t.String(), timezone: t.String() })) })] }) },
    })
    .get(
      '/mics.json',
      () => {
        const entries = exchangeDirectory(deps.calendars.snapshot()).map(({ mic, name, country, timezone, currency, sameAs }) => ({ mic, name, country, timezone, currency, sameAs }))
        return jsonResponse(entries, 200, { 'cache-control': 'public, max-age=86400', vary: 'Origin' })
      },
      { detail: { tags: ['calendars'], summary: 'Exchange registry (ISO 10383 entries)', responses: responses({ 200: ['Top-level array of registry entries', t.Array(RegistryEntry)] }) } },
    )
}
