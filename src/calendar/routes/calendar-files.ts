// GET /v5/calendars/manifest and /v5/calendars/files/{MIC}.json: this instance as a calendar
// source. The manifest is a C2SP signed note listing every schedule file in force (MIC,
// data_version, SHA-256, size) with its serial, signed by the calendar-publisher key of /v5/keys;
// a file is served as the exact bytes the manifest hashes. ETag and 304 on both.
import { Elysia, t } from 'elysia'
import type { CalendarDeps } from '../deps'
import { ApiError } from '../../http/errors'
import { responses } from '../../http/openapi'
import { parseMic } from '../mic-param'
import { matchesEtag } from './answers'

const FILE_NAME = /^(.+)\.json$/
/** Followers poll with If-None-Match: always revalidate (a 304 costs nothing). */
const CACHE_CONTROL = 'no-cache'

export function calendarFileRoutes(deps: CalendarDeps) {
  const { publisher } = deps.calendarUpdates
  return new Elysia({ name: 'calendar-files' })
    .get(
      '/v5/calendars/manifest',
      async ({ request }) => {
        const pending = publisher.current()
        if (!pending) throw new ApiError(503, 'SIGNER_OFFLINE', 'the signing key is not available: no calendar manifest can be signed; followers keep their calendars and try again')
        const manifest = await pending
        const headers = { etag: manifest.etag, 'cache-control': CACHE_CONTROL }
        if (matchesEtag(request.headers.get('if-none-match'), manifest.etag)) return new Response(null, { status: 304, headers })
        return new Response(manifest.note, { headers: { ...headers, 'content-type': 'text/plain; charset=utf-8' } })
      },
      {
        query: t.Object({}),
        detail: {
          tags: ['calendars'],
          summary: 'Signed manifest of the schedule files in force (C2SP signed note)',
          description:
            'Text lines: `openbell calendar manifest v1`, the publisher key name, `serial <n>`, `issued <instant>`, then one `<MIC> <data_version> <sha256 hex> <size>` line per file; a blank line; the signature line by `calendar_publisher_key` of /v5/keys. The serial grows whenever the set of files changes. ETag, and 304 on If-None-Match. See docs/calendars.md.',
          responses: responses({ 200: ['The signed note', t.String(), 'text/plain'], 304: 'Not modified (If-None-Match matched the ETag)', 503: 'SIGNER_OFFLINE, STORAGE_UNAVAILABLE' }),
        },
      },
    )
    .get(
      '/v5/calendars/files/:file',
      ({ params, request }) => {
        const name = FILE_NAME.exec(params.file)
        if (!name) throw new ApiError(404, 'NOT_FOUND', 'calendar files are /v5/calendars/files/<MIC>.json')
        const mic = parseMic(name[1])
        const entry = deps.calendars.snapshot().entries.get(mic)
        if (entry?.state !== 'loaded') throw new ApiError(404, 'CALENDAR_FILE_NOT_FOUND', `no valid calendar is loaded for ${mic}; the manifest does not list it`, { mic })
        const etag = `"${entry.contentHash}"`
        const headers = { etag, 'cache-control': CACHE_CONTROL }
        if (matchesEtag(request.headers.get('if-none-match'), etag)) return new Response(null, { status: 304, headers })
        return new Response(entry.bytes as Uint8Array<ArrayBuffer>, { headers: { ...headers, 'content-type': 'application/json' } })
      },
      {
        params: t.Object({ file: t.String({ description: '<MIC>.json' }) }),
        query: t.Object({}),
        detail: {
          tags: ['calendars'],
          summary: 'The exact bytes of a schedule file in force (its SHA-256 is in the manifest)',
          responses: responses({ 200: ['The schedule file', t.Object({}, { additionalProperties: true })], 304: 'Not modified', 400: 'UNKNOWN_MIC', 404: 'NOT_FOUND (the name does not end in .json) or CALENDAR_FILE_NOT_FOUND (no valid calendar for that MIC)' }),
        },
      },
    )
}
