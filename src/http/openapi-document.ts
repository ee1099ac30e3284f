// /openapi.json: an OpenAPI 3.1 description generated from the app's registered routes — their
// query, path and header schemas, request bodies and documented responses (the TypeBox schemas
// the route files declare, so the document cannot drift from them) — plus the auth each needs.
// Every registered route appears except the CORS preflight wildcard (OPTIONS /*), which is
// described once in info.description.
import { API_VERSION } from '../version'
import { operationSecurity, SECURITY_SCHEMES } from './openapi-security'
import { REQUIRED_IN_DOCUMENT } from './openapi'

export const OPENAPI_VERSION = '3.1.0'

export interface RegisteredRoute {
  method: string
  path: string
  hooks?: unknown
}

interface Hooks {
  query?: Schema
  params?: Schema
  headers?: Schema
  body?: Schema
  parse?: unknown
  type?: unknown
  detail?: Record<string, unknown> & { hide?: boolean; responses?: Record<string, unknown>; security?: unknown; requestBody?: unknown }
}

type Schema = Record<string, unknown> & { properties?: Record<string, Schema>; required?: string[] }

const TAG_DESCRIPTIONS: Record<string, string> = {
  discovery: 'Keys, health, documents for agents, figures and public descriptions',
  calendars: 'Exchange directory, schedules, calendar by date, holidays, iCalendar feeds, history and DST risk (unsigned)',
  market: 'Signed market-state and safe-to-trade receipts',
  verification: 'Receipt verification and conformance vectors',
  witness: 'Checkpoint witness (witness-spec/0.5) and the C2SP tlog-witness (add-checkpoint)',
  transparency: 'The receipt log as a C2SP tiled log: checkpoint, tiles, entry bundles, consistency and inclusion proofs',
  audit: 'Receipt archive, receipt listing, daily Merkle digests, their chain and inclusion proofs',
  operator: 'Operator endpoints (ADMIN_KEY in X-Oracle-Key)',
  tools: 'Tool endpoint (JSON-RPC 2.0, Model Context Protocol)',
  payments: 'x402 payments, credits, paid keys, card checkout and billing-provider notifications',
  accounts: 'Self-service keys (instant, e-mail, sandbox), account, usage, OAuth client-credentials tokens and the key funnel',
  delivery: 'Server-sent event stream and webhooks for market state changes',
  board: 'The status board: every venue now (GET /v5/board, unsigned), the venue, verify and witness pages and their assets',
}

/** Elysia's t.Integer, t.Numeric and t.BooleanString also accept a numeric string (query coercion). */
const COERCION_FORMATS = new Set(['integer', 'numeric', 'boolean'])
const isCoercionMember = (member: unknown) => {
  const m = member as Record<string, unknown> | null
  return m !== null && typeof m === 'object' && ((m.type === 'string' && COERCION_FORMATS.has(m.format as string)) || m.type === 'Date')
}

/** Rewrites Elysia's coercion unions into the JSON Schema of the value itself (t.Integer → type integer). */
function standardSchema(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(standardSchema)
  if (value === null || typeof value !== 'object') return value
  const object = Object.fromEntries(Object.entries(value).map(([name, member]) => [name, standardSchema(member)]))
  if (Array.isArray(object.anyOf) && object.anyOf.some(isCoercionMember)) {
    const members = object.anyOf.filter((member) => !isCoercionMember(member))
    const { anyOf: _anyOf, ...outer } = object
    if (members.length === 1) return { ...outer, ...(members[0] as object) }
    return { ...outer, anyOf: members }
  }
  return object
}

/** A plain-JSON copy (TypeBox adds symbol keys; undefined members vanish) in standard JSON Schema. */
const plain = <T>(value: T): T => standardSchema(JSON.parse(JSON.stringify(value))) as T

/** `:name` → `{name}`; a trailing wildcard (the tile paths of /log/tile/*) → `{path}`, one parameter holding the rest. */
export const toOpenApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)\??/g, '{$1}').replace(/\/\*$/, '/{path}')

function operationId(method: string, path: string): string {
  const words = path.split(/[^A-Za-z0-9]+/).filter(Boolean)
  return method.toLowerCase() + (words.length ? words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join('') : 'Index')
}

function parametersOf(hooks: Hooks, path: string) {
  const parameters: Record<string, unknown>[] = []
  const add = (where: 'query' | 'path' | 'header', schema: Schema | undefined) => {
    for (const [name, property] of Object.entries(schema?.properties ?? {})) {
      const { description, [REQUIRED_IN_DOCUMENT]: requiredByRoute, ...rest } = plain(property) as Schema
      parameters.push({ name, in: where, required: where === 'path' || (schema?.required ?? []).includes(name) || requiredByRoute === true, ...(description ? { description } : {}), schema: rest })
    }
  }
  add('path', hooks.params)
  for (const name of [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!)) {
    if (!parameters.some((parameter) => parameter.in === 'path' && parameter.name === name)) parameters.push({ name, in: 'path', required: true, schema: { type: 'string' } })
  }
  add('query', hooks.query)
  add('header', hooks.headers)
  return parameters
}

const MEDIA_TYPES: Record<string, string> = {
  json: 'application/json',
  urlencoded: 'application/x-www-form-urlencoded',
  formdata: 'multipart/form-data',
  text: 'text/plain',
  arrayBuffer: 'application/octet-stream',
}

/** The media type a body schema is read as: the route's parser or declared type, else JSON. */
function bodyMediaType(hooks: Hooks): string {
  for (const hint of [hooks.type, ...(Array.isArray(hooks.parse) ? hooks.parse : [hooks.parse])]) {
    const name = typeof hint === 'string' ? hint : typeof (hint as { fn?: unknown } | null)?.fn === 'string' ? (hint as { fn: string }).fn : null
    if (name && name.includes('/')) return name
    if (name && MEDIA_TYPES[name]) return MEDIA_TYPES[name]
  }
  return 'application/json'
}

function operationOf(method: string, path: string, hooks: Hooks) {
  const { hide: _hide, responses, security, requestBody, ...detail } = hooks.detail ?? {}
  const parameters = parametersOf(hooks, path)
  const body = requestBody ?? (hooks.body ? { required: true, content: { [bodyMediaType(hooks)]: { schema: hooks.body } } } : undefined)
  return plain({
    operationId: operationId(method, path),
    ...detail,
    ...(parameters.length ? { parameters } : {}),
    ...(body ? { requestBody: body } : {}),
    responses: responses ?? { default: { description: 'not documented' } },
    security: security ?? operationSecurity(method, path, hooks.detail ?? {}),
  })
}

export function openApiDocument(routes: readonly RegisteredRoute[], options: { baseUrl: string }) {
  const paths: Record<string, Record<string, unknown>> = {}
  const tags = new Set<string>()
  for (const route of routes) {
    const hooks = (route.hooks ?? {}) as Hooks
    // The CORS preflight answers every path (OPTIONS /*): said in the description, not a path.
    if (route.path === '/*' || hooks.detail?.hide) continue
    const method = route.method.toLowerCase()
    const path = toOpenApiPath(route.path)
    const operation: Record<string, unknown> = operationOf(route.method, path, hooks)
    for (const tag of (operation.tags as string[] | undefined) ?? []) tags.add(tag)
    // A route registered again later replaces the earlier one (as in the router).
    paths[path] = { ...paths[path], [method]: operation }
  }
  return {
    openapi: OPENAPI_VERSION,
    info: {
      title: 'openbell',
      version: API_VERSION,
      description:
        'Signed market-state receipts (Ed25519) and a checkpoint witness. Fail-closed: UNKNOWN means treat the market as CLOSED; never act after expires_at. ' +
        'Every path also answers CORS preflight requests (OPTIONS). Errors are JSON objects with `error` (machine code) and `message`.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: options.baseUrl }],
    tags: [...tags].sort().map((name) => ({ name, ...(TAG_DESCRIPTIONS[name] ? { description: TAG_DESCRIPTIONS[name] } : {}) })),
    paths,
    components: { securitySchemes: SECURITY_SCHEMES },
  }
}
