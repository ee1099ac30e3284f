// GET /v5/archive?mic=&date=&cursor=: every live receipt of one MIC and UTC day, in log order.
import { Elysia, t } from 'elysia'
import type { AuditDeps } from '../deps'
import { API_KEY_HEADER } from '../../http/auth'
import { requireAccount } from '../../accounts/key-check'
import { responses } from '../../http/openapi'
import { parseMic } from '../../calendar/mic-param'
import { parseCursor, parseDateParam, utcDay } from '../dates'
import { archivePageJson, checkArchiveWindow } from '../queries'
import { JSON_CONTENT_TYPE } from '../../http/json-text'

export function archiveRoutes(deps: AuditDeps) {
  return new Elysia({ name: 'audit-archive' }).get(
    '/v5/archive',
    async ({ query, request, set }) => {
      const account = await requireAccount(deps, request.headers.get(API_KEY_HEADER))
      const mic = parseMic(query.mic)
      const today = utcDay(deps.clock.now())
      const date = parseDateParam(query.date, today)
      const cursor = parseCursor(query.cursor)
      checkArchiveWindow(account, date, today)
      const page = await archivePageJson(deps.audit.store, mic, date, cursor)
      set.headers['content-type'] = JSON_CONTENT_TYPE
      return page
    },
    {
      query: t.Object({
        mic: t.Optional(t.String({ description: 'MIC, default XNYS' })),
        date: t.Optional(t.String({ description: 'YYYY-MM-DD (UTC), default today' })),
        cursor: t.Optional(t.String({ description: 'next_cursor of the previous page' })),
      }),
      detail: {
        tags: ['audit'],
        summary: 'Archive of the live receipts of one MIC and day (API key; builder and pro: last 30 days, free and sandbox: today)',
        responses: responses({
          200: ['Archive page (at most 1,000 receipts; count is the whole day)', t.Object({ mic: t.String(), date: t.String(), count: t.Integer(), receipts: t.Array(t.Object({}, { additionalProperties: true })), next_cursor: t.Union([t.String(), t.Null()]) })],
          400: 'UNKNOWN_MIC, INVALID_DATE, DATE_OUT_OF_RANGE, DATE_IN_FUTURE or INVALID_CURSOR',
          401: 'API_KEY_REQUIRED',
          402: 'ACCOUNT_INACTIVE',
          403: 'INVALID_API_KEY, PLAN_ARCHIVE_TODAY_ONLY or ARCHIVE_WINDOW_EXCEEDED',
        }),
      },
    },
  )
}
