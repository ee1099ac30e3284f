// CORS per route (the table and its rule: cors-policy.ts). No credentials ever (keys travel in
// headers, never cookies). Headers are added only when the request carries Origin, i.e. comes
// from a browser: the @elysiajs/cors plugin sets six headers on every response, which measured
// here halved the throughput of a trivial route (106k → 51k requests/s); a header set only for
// Origin requests costs about 5%. Cacheable responses carry `Vary: Origin` themselves.
import { Elysia } from 'elysia'
import type { Config } from '../config'
import { corsRouteOf } from './cors-policy'
import { ApiError } from './errors'

const ALLOW_METHODS = 'GET, POST, DELETE, OPTIONS'
const ALLOW_HEADERS = 'Content-Type, Authorization, X-Oracle-Key, Payment-Signature, X-Payment, Mcp-Protocol-Version'
export const EXPOSE_HEADERS = 'Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Payment-Required, Payment-Response, Allow, WWW-Authenticate'
const MAX_AGE = '600'

const pathOf = (url: string) => {
  const start = url.indexOf('/', url.indexOf('//') + 2)
  const end = url.indexOf('?', start)
  return start < 0 ? '/' : url.slice(start, end < 0 ? undefined : end)
}

export function corsPlugin(config: Pick<Config, 'corsAllowedOrigins' | 'publicBaseUrl'>) {
  // The service's own pages are on its public origin (PUBLIC_BASE_URL), whatever Host a request
  // names: trusting the Host would let a DNS-rebinding page pass for one of ours.
  const listed = new Set([new URL(config.publicBaseUrl).origin, ...config.corsAllowedOrigins])
  /** Whether this browser origin may read this path's answers; null when the path has no CORS at all. */
  const decide = (request: Request, origin: string) => {
    const entry = corsRouteOf(pathOf(request.url))
    if (!entry || entry.policy === 'none') return { allowed: false, listedRoute: false }
    if (entry.policy === 'open') return { allowed: true, listedRoute: false }
    return { allowed: listed.has(origin), listedRoute: !entry.refusesItself }
  }
  return new Elysia({ name: 'openbell-cors' })
    .onRequest(({ request, set }) => {
      const origin = request.headers.get('origin')
      if (!origin || request.method === 'OPTIONS') return
      set.headers.vary = 'Origin'
      if (!decide(request, origin).allowed) return
      set.headers['access-control-allow-origin'] = origin
      set.headers['access-control-expose-headers'] = EXPOSE_HEADERS
    })
    // A key-minting, token or purchase route called by a page of another origin is refused before
    // it runs, also as a "simple" request (text/plain or a form) that a browser sends without a
    // preflight, so a page cannot spend its visitors' per-address allowances. (Here rather than in
    // onRequest: the refusal then shows in the request log.)
    .onBeforeHandle({ as: 'global' }, ({ request }) => {
      const origin = request.headers.get('origin')
      if (!origin || request.method === 'OPTIONS') return
      const { allowed, listedRoute } = decide(request, origin)
      if (listedRoute && !allowed) throw new ApiError(403, 'ORIGIN_NOT_ALLOWED', 'this route issues keys, tokens or purchases and answers only pages of this service and the origins in CORS_ALLOWED_ORIGINS', {}, { vary: 'Origin' })
    })
    .options('/*', ({ request }) => {
      const origin = request.headers.get('origin')
      // A preflight for a route closed to this origin gets no Access-Control-Allow-Origin: the
      // browser then never sends the request.
      if (!origin || !decide(request, origin).allowed) return new Response(null, { status: 204, headers: { vary: 'Origin, Access-Control-Request-Headers' } })
      return new Response(null, {
        status: 204,
        headers: {
          'access-control-allow-origin': origin,
          'access-control-allow-methods': ALLOW_METHODS,
          'access-control-allow-headers': request.headers.get('access-control-request-headers') ?? ALLOW_HEADERS,
          'access-control-expose-headers': EXPOSE_HEADERS,
          'access-control-max-age': MAX_AGE,
          vary: 'Origin, Access-Control-Request-Headers',
        },
      })
    })
}
