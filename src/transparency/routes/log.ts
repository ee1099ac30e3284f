// The tiled log as C2SP tlog-tiles serves it: GET /log/checkpoint (the latest signed note with its
// cosignatures), GET /log/tile/<L>/<N>[.p/<W>] and /log/tile/entries/<N>[.p/<W>]. Full tiles and
// bundles never change (cached for a year, immutable); a partial one is a fixed prefix too but
// short-lived (the spec lets logs drop them), so it is cached for minutes, never immutable.
import { Elysia, t } from 'elysia'
import type { TransparencyDeps } from '../deps'
import { ApiError } from '../../http/errors'
import { responses } from '../../http/openapi'
import { acceptsGzip } from '../../http/accept-encoding'
import { ENTRIES_LEVEL, parseTilePath, TILE_WIDTH } from '../tiles'

export const FULL_TILE_CACHE = 'public, max-age=31536000, immutable'
export const PARTIAL_TILE_CACHE = 'public, max-age=300'
/** The checkpoint changes every second while receipts flow. */
export const CHECKPOINT_CACHE = 'public, max-age=1'

/** The log's store cannot be read (database unreachable): 503, as every surface fails closed. */
export async function orUnavailable<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read()
  } catch (error) {
    if (error instanceof ApiError) throw error
    throw new ApiError(503, 'LOG_UNAVAILABLE', 'the log cannot be read right now; retry shortly', {}, { 'retry-after': '2' })
  }
}

const notFound = (what: string) => new ApiError(404, 'TILE_NOT_FOUND', `${what} is not in the log's latest checkpoint`)

export function logRoutes(deps: TransparencyDeps) {
  const { reader } = deps.transparency
  const published = async () => {
    const state = await orUnavailable(() => reader.latest())
    if (state.checkpoint === null) throw new ApiError(503, 'LOG_NOT_READY', 'the log has published no checkpoint yet; retry in a few seconds', {}, { 'retry-after': '2' })
    return state
  }
  return new Elysia({ name: 'transparency-log' })
    .get(
      '/log/checkpoint',
      async () => new Response((await published()).checkpoint, { headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': CHECKPOINT_CACHE } }),
      {
        detail: {
          tags: ['transparency'],
          summary: 'The latest checkpoint of the receipt log (C2SP signed note: origin, tree size, root; the log note key, then cosignatures)',
          responses: responses({ 200: ['Signed note', t.String(), 'text/plain'], 503: 'LOG_NOT_READY' }),
        },
      },
    )
    .get(
      '/log/tile/*',
      async ({ params, request }) => {
        const path = params['*']
        const slash = path.indexOf('/')
        const address = slash > 0 ? parseTilePath(path.slice(0, slash), path.slice(slash + 1)) : null
        if (!address) throw new ApiError(404, 'TILE_NOT_FOUND', 'not a tile path: tile/<level>/<index>[.p/<width>] or tile/entries/<index>[.p/<width>], the index in groups of three digits (x001/x234/067)')
        const { size } = await published().then((state) => ({ size: state.checkpointSize }))
        if (address.index > BigInt(Number.MAX_SAFE_INTEGER)) throw notFound('the tile')
        const body = await orUnavailable(() => reader.tile(address.level, Number(address.index), address.width, size))
        if (!body) throw notFound(address.level === ENTRIES_LEVEL ? 'the entry bundle' : 'the tile')
        const headers: Record<string, string> = { 'content-type': 'application/octet-stream', 'cache-control': address.width === TILE_WIDTH ? FULL_TILE_CACHE : PARTIAL_TILE_CACHE }
        if (!body.gzip) return new Response(body.data as Uint8Array<ArrayBuffer>, { headers })
        // Full bundles are stored compressed: as they are to clients that take gzip; decoded once
        // (a small cache) for the others.
        if (acceptsGzip(request.headers.get('accept-encoding'))) return new Response(body.data as Uint8Array<ArrayBuffer>, { headers: { ...headers, 'content-encoding': 'gzip', vary: 'Accept-Encoding' } })
        return new Response(reader.decodedBundle(Number(address.index), body.data) as Uint8Array<ArrayBuffer>, { headers: { ...headers, vary: 'Accept-Encoding' } })
      },
      {
        detail: {
          tags: ['transparency'],
          summary: 'A tile (256 hashes of 32 bytes; .p/<W> for a partial one) or an entry bundle (uint16-length-prefixed receipts, exactly as logged) of the receipt log (C2SP tlog-tiles)',
          responses: responses({ 200: ['Tile or entry bundle', t.String(), 'application/octet-stream'], 404: 'TILE_NOT_FOUND: not a tile path, or beyond the latest checkpoint', 503: 'LOG_NOT_READY' }),
        },
      },
    )
}
