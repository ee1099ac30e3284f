// App-wide HTTP behaviour: the error model, 404/405 for unknown paths and methods, and one
// JSON log line per request.
import { Elysia } from 'elysia'
import type { Logger } from '../log'
import type { Clock } from '../clock'
import { ApiError, jsonResponse, storageRefusal } from './errors'
import { isAdminKey } from './auth'
import { relativePath } from './host'

interface RouteInfo {
  method: string
  path: string
}

/** Which methods serve a concrete path, from the app's own route table (params match one segment). */
export function allowedMethods(routes: readonly RouteInfo[], pathname: string): string[] {
  const methods = new Set<string>()
  for (const route of routes) {
    // The CORS preflight handler matches every path; it says nothing about which paths exist.
    if (route.method === 'OPTIONS') continue
    const pattern = new RegExp('^' + route.path.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/:[^/]+/g, '[^/]+').replace(/\*/g, '.*') + '$')
    if (pattern.test(pathname)) methods.add(route.method)
  }
  if (methods.has('GET')) methods.add('HEAD')
  if (methods.size) methods.add('OPTIONS')
  return [...methods].sort()
}

function errorStatus(code: unknown, error: unknown): { status: number; body: Record<string, unknown> } {
  switch (code) {
    case 'VALIDATION':
      return { status: 400, body: { error: 'BAD_REQUEST', message: 'request parameters or body do not match the schema' } }
    case 'PARSE':
      return { status: 400, body: { error: 'BAD_REQUEST', message: 'request body could not be parsed' } }
    case 'INVALID_COOKIE_SIGNATURE':
      return { status: 400, body: { error: 'BAD_REQUEST' } }
    default:
      return { status: 500, body: { error: 'INTERNAL_ERROR', message: 'internal error' } }
  }
}

/**
 * `keyClass` names the class of a presented key for the request log (accounts' key prefixes, handed
 * in as the admin key is, so that the HTTP layer imports no domain); null: not a key of any class.
 */
export function httpPlugin(deps: { log: Logger; clock: Clock; routes: () => readonly RouteInfo[]; adminKey?: string | null; keyClass?: (key: string) => string | null }) {
  const started = new WeakMap<Request, number>()
  return new Elysia({ name: 'openbell-http' })
    .onRequest(({ request }) => {
      started.set(request, performance.now())
    })
    .onError({ as: 'global' }, ({ error, code, request, set, path }) => {
      if (error instanceof ApiError) {
        set.status = error.status
        return error.toResponse()
      }
      if (code === 'NOT_FOUND') {
        const allow = allowedMethods(deps.routes(), path)
        if (allow.length && !allow.includes(request.method)) {
          set.status = 405
          return jsonResponse({ error: 'METHOD_NOT_ALLOWED', message: `${request.method} is not allowed here; use ${allow.join(', ')}` }, 405, { allow: allow.join(', ') })
        }
        set.status = 404
        return jsonResponse({ error: 'NOT_FOUND', message: 'no such endpoint' }, 404)
      }
      // The client went away while its body was being read (a stalled upload hit the idle
      // timeout, or the client hung up): its problem, not a fault of the service.
      if (error instanceof Error && error.name === 'AbortError') {
        deps.log.warn('request aborted by the client or the idle timeout', { path })
        set.status = 408
        return jsonResponse({ error: 'REQUEST_TIMEOUT', message: 'the connection closed before the request was read' }, 408)
      }
      // The database unreachable or its disk full, on any route: 503 with Retry-After, not a 500.
      const refusal = storageRefusal(error)
      if (refusal) {
        if (refusal.errorCode === 'STORAGE_FULL') deps.log.error('storage full: request refused, nothing saved', { path })
        else deps.log.warn('request refused: database unreachable', { path, error: error instanceof Error ? error.message : String(error) })
        set.status = refusal.status
        return refusal.toResponse()
      }
      const { status, body } = errorStatus(code, error)
      if (status >= 500) deps.log.error('unhandled error', { path, error: error instanceof Error ? error.message : String(error) })
      set.status = status
      return jsonResponse(body, status)
    })
    .onAfterResponse({ as: 'global' }, ({ request, set, path, responseValue }) => {
      if (!deps.log.enabled('info')) return
      const start = started.get(request)
      const status = responseValue instanceof Response ? responseValue.status : set.status
      const key = request.headers.get('x-oracle-key')
      // A request refused for its Host arrived with a relative URL: log the path it asked for.
      const fields: Record<string, unknown> = { method: request.method, path: relativePath(request.url) ?? path, status, ms: start === undefined ? null : Math.round((performance.now() - start) * 100) / 100 }
      // Only the key's class is logged, never any of its secret part.
      if (key) fields.key_class = deps.keyClass?.(key) ?? (isAdminKey(deps.adminKey ?? null, key) ? 'admin' : 'unrecognised')
      deps.log.info('request', fields)
    })
}
