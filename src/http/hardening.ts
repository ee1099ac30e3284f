// Response and request rules that hold for every route: `X-Content-Type-Options: nosniff` on
// every answer; a missing or malformed Host is refused before routing (http/host.ts); a query
// parameter given twice is refused (400) rather than silently taking one of the values, since
// which one wins differs between proxies, caches and frameworks; a query parameter the route
// does not declare is refused (http/query-params.ts).
import { Elysia } from 'elysia'
import { ApiError } from './errors'
import { hostProblem } from './host'
import { queryTable, unknownParameter, unknownParameterError, type AcceptedQuery } from './query-params'

/** A surface with its own error shape (the witness) can restate a refusal made here. */
export type RefusalShape = (url: string, error: ApiError) => ApiError

export const NOSNIFF = { 'x-content-type-options': 'nosniff' } as const

/** The first query parameter name that occurs more than once, or null. */
export function repeatedQueryParameter(url: string): string | null {
  const start = url.indexOf('?')
  if (start < 0) return null
  // URLSearchParams splits only on '&': a query without one has a single parameter.
  if (url.indexOf('&', start) < 0) return null
  const seen = new Set<string>()
  for (const name of new URLSearchParams(url.slice(start + 1)).keys()) {
    if (seen.has(name)) return name
    seen.add(name)
  }
  return null
}

export interface HardeningOptions {
  /** The app's registered routes with their hooks (their declared query schemas). */
  routes: () => readonly { method: string; path: string; hooks?: unknown }[]
  shape?: RefusalShape
}

export function hardeningPlugin(options: HardeningOptions) {
  const shape: RefusalShape = options.shape ?? ((_url, error) => error)
  // Nearly every request of a server carries the same Host: the last good one is not re-checked.
  let goodHost: string | null = null
  // Built from the route table on first use (every route is registered by then).
  let table: Map<string, AcceptedQuery> | null = null
  let tableRoutes = -1
  const accepted = (method: string, route: string): AcceptedQuery | undefined => {
    const routes = options.routes()
    if (table === null || tableRoutes !== routes.length) {
      table = queryTable(routes)
      tableRoutes = routes.length
    }
    return table.get(`${method === 'HEAD' ? 'GET' : method} ${route}`)
  }
  return new Elysia({ name: 'openbell-hardening' })
    .onRequest(({ request, set }) => {
      set.headers['x-content-type-options'] = NOSNIFF['x-content-type-options']
      const url = request.url
      const host = request.headers.get('host')
      if (host === null || host !== goodHost || url.charCodeAt(0) === 47) {
        const problem = hostProblem(host, url)
        if (problem !== null) throw shape(url, new ApiError(400, 'INVALID_HOST', `${problem}; send the service's host name, e.g. Host: example.com or Host: [2001:db8::1]:8080`))
        if (host !== null) goodHost = host
      }
      if (url.indexOf('?') < 0) return
      // The witness routes answer this themselves with the witness error shape (witness.md 4.3).
      if (url.startsWith('/v1/witness/', url.indexOf('/', url.indexOf('//') + 2))) return
      const repeated = repeatedQueryParameter(url)
      if (repeated !== null) throw new ApiError(400, 'BAD_REQUEST', `query parameter ${JSON.stringify(repeated.slice(0, 64))} is given more than once; give it once`)
    })
    // Once the route is known and before its body is validated, its key checked or anything
    // spent. The CORS preflight carries the query of the request it asks about: not checked.
    .onTransform({ as: 'global' }, ({ request, route }) => {
      const url = request.url
      if (url.indexOf('?') < 0 || request.method === 'OPTIONS') return
      const names = accepted(request.method, route)
      if (names === undefined) return
      const unknown = unknownParameter(url, names)
      if (unknown !== null) throw shape(url, unknownParameterError(unknown, names ?? new Set()))
    })
}
