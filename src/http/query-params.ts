// Unknown query parameters are refused (400 UNKNOWN_PARAMETER naming the parameter) instead of
// being silently ignored: `/v5/schedule?mic=XNYS&date=2026-11-26` would otherwise answer today's
// schedule to someone who asked about another day. What a route accepts is read from the query
// schema the route declares (the same schema that documents it in /openapi.json), so a new route
// gets the rule by declaring its parameters. A route that legitimately takes open-ended
// parameters says so in its schema: `t.Object({}, { additionalProperties: true })`.
import { ApiError } from './errors'

interface RouteWithHooks {
  method: string
  path: string
  hooks?: unknown
}

/** The query names a route accepts; null = any (its schema allows additional properties). */
export type AcceptedQuery = ReadonlySet<string> | null

type QuerySchema = { properties?: Record<string, unknown>; additionalProperties?: unknown }

export function acceptedQuery(hooks: unknown): AcceptedQuery {
  const schema = (hooks as { query?: QuerySchema } | undefined)?.query
  if (!schema) return new Set()
  if (schema.additionalProperties === true || (typeof schema.additionalProperties === 'object' && schema.additionalProperties !== null)) return null
  return new Set(Object.keys(schema.properties ?? {}))
}

/** `METHOD path` → accepted names, for every registered route (HEAD answers as its GET). */
export function queryTable(routes: readonly RouteWithHooks[]): Map<string, AcceptedQuery> {
  const table = new Map<string, AcceptedQuery>()
  for (const route of routes) table.set(`${route.method} ${route.path}`, acceptedQuery(route.hooks))
  return table
}

function decodeName(raw: string): string {
  if (raw.indexOf('%') < 0 && raw.indexOf('+') < 0) return raw
  try {
    return decodeURIComponent(raw.replaceAll('+', ' '))
  } catch {
    return raw
  }
}

/** The first parameter name in the query of `url` that `accepted` does not list, or null. */
export function unknownParameter(url: string, accepted: AcceptedQuery): string | null {
  if (accepted === null) return null
  const start = url.indexOf('?')
  if (start < 0) return null
  let from = start + 1
  while (from < url.length) {
    let end = url.indexOf('&', from)
    if (end < 0) end = url.length
    if (end > from) {
      const equals = url.indexOf('=', from)
      const name = decodeName(url.slice(from, equals >= 0 && equals < end ? equals : end))
      if (!accepted.has(name)) return name
    }
    from = end + 1
  }
  return null
}

export function unknownParameterError(name: string, accepted: ReadonlySet<string>): ApiError {
  const shown = JSON.stringify(name.slice(0, 64))
  const takes = accepted.size ? `this endpoint takes ${[...accepted].join(', ')}` : 'this endpoint takes no query parameters'
  return new ApiError(400, 'UNKNOWN_PARAMETER', `unknown query parameter ${shown}; ${takes}`, { parameter: name.slice(0, 64), accepted_parameters: [...accepted] })
}
