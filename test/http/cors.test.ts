// CORS per route (issue 24 item 4): the table in src/http/cors-policy.ts covers every route of the
// app and is the one in docs/operations.md; routes a browser needs answer any origin; key minting,
// tokens and purchases answer only the service's own origin and CORS_ALLOWED_ORIGINS (a preflight
// from elsewhere gets no Access-Control-Allow-Origin, and a "simple" request that skips the
// preflight is refused before it runs); operator routes and the billing webhook answer none.
import { describe, expect, test } from 'bun:test'
import { docSection } from '../helpers/doc-sections'
import { makeTestApp, type TestApp } from '../helpers/app'
import { CORS_ROUTES, corsRouteOf, corsTable } from '../../src/http/cors-policy'

const PAGE = 'https://page.example'
const preflight = (t: TestApp, path: string, method = 'POST', origin = PAGE) =>
  t.request(path, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'content-type, x-oracle-key' } })
const count = (t: TestApp, table: string) => (t.db.query(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n

/** A concrete path for a route pattern (`:param` → a value that matches). */
const concrete = (path: string) => path.replace(':mic', 'XNYS').replace(':feed', 'XNYS.ics').replace(/:[a-z_]+/g, 'x').replace(/\/\*$/, '/x')

describe('the table', () => {
  const t = makeTestApp()
  const routes = t.app.routes.filter((route) => route.method !== 'OPTIONS')

  test('every route of the app has an entry, and every entry serves a route', () => {
    for (const route of routes) expect([route.method, route.path, corsRouteOf(concrete(route.path)) !== null]).toEqual([route.method, route.path, true])
    for (const entry of CORS_ROUTES) {
      const served = routes.some((route) => corsRouteOf(concrete(route.path)) === entry)
      expect([entry.path, served]).toEqual([entry.path, true])
    }
  })

  test('docs/operations.md carries the table as generated from the code', () => {
    expect(docSection('operations.md', 'cors-table')).toBe(corsTable())
  })

  test('exact paths win over prefixes; an unknown path has no entry', () => {
    expect(corsRouteOf('/v5/keys')?.policy).toBe('open')
    expect(corsRouteOf('/v5/keys/instant')?.policy).toBe('listed')
    expect(corsRouteOf('/v5/calendar/XNYS.ics')?.policy).toBe('open')
    expect(corsRouteOf('/v5/admin/overrides/XNYS')?.policy).toBe('none')
    expect(corsRouteOf('/v5/nothing-here')).toBeNull()
  })
})

describe('preflights and answers', () => {
  const t = makeTestApp()

  test('the routes a browser needs answer any origin, preflight and request', async () => {
    for (const path of ['/v1/witness/checkpoints', '/v5/keys', '/.well-known/jwks.json', '/v5/demo', '/v5/schedule', '/v5/exchanges', '/v5/verify', '/v5/calendar', '/v5/holidays', '/v5/calendar/XNYS.ics', '/v5/status', '/v5/stream']) {
      const answer = await preflight(t, path)
      expect([path, answer.status, answer.headers.get('access-control-allow-origin')]).toEqual([path, 204, PAGE])
    }
    const read = await t.request('/v5/schedule?mic=XNYS', { headers: { origin: PAGE } })
    expect(read.headers.get('access-control-allow-origin')).toBe(PAGE)
    expect(read.headers.get('vary')).toBe('Origin')
  })

  test('key minting, tokens, purchases, operator routes and the billing webhook answer a preflight without Access-Control-Allow-Origin', async () => {
    for (const [path, method] of [['/v5/keys/instant', 'POST'], ['/v5/keys/request', 'POST'], ['/v5/sandbox', 'POST'], ['/oauth/token', 'POST'], ['/v5/checkout', 'POST'], ['/v5/x402/mint', 'POST'], ['/v5/credits/purchase', 'POST'], ['/v5/admin/overrides', 'POST'], ['/v5/admin/overrides/XNYS', 'DELETE'], ['/v5/admin/schedules/reload', 'POST'], ['/v5/funnel', 'GET'], ['/webhooks/paddle', 'POST']]) {
      const answer = await preflight(t, path!, method)
      expect([path, answer.status, answer.headers.get('access-control-allow-origin'), answer.headers.get('access-control-allow-methods')]).toEqual([path, 204, null, null])
    }
    // An operator route read with an Origin: answered (the key decides), but never readable by the page.
    const admin = await t.request('/v5/admin/overrides', { headers: { origin: PAGE, 'x-oracle-key': 'wrong' } })
    expect(admin.headers.get('access-control-allow-origin')).toBeNull()
  })

  test('a "simple" request from another origin (text/plain, a form) that skips the preflight is refused before it runs; nothing is stored', async () => {
    const instant = await t.json('/v5/keys/instant', { method: 'POST', headers: { origin: PAGE, 'content-type': 'text/plain' }, body: '{"agent_id":"through-a-visitor"}' })
    expect(instant.status).toBe(403)
    expect(instant.body.error).toBe('ORIGIN_NOT_ALLOWED')
    expect(instant.headers.get('access-control-allow-origin')).toBeNull()
    const sandbox = await t.json('/v5/sandbox', { method: 'POST', headers: { origin: 'null', 'content-type': 'text/plain' }, body: '{"email":"v@example.com"}' })
    expect(sandbox.body.error).toBe('ORIGIN_NOT_ALLOWED')
    const { key } = await import('../../src/accounts/keys').then(({ issueKey }) => issueKey(t.deps.accounts, { plan: 'free', now: new Date(t.clock.now()) }))
    const token = await t.json('/oauth/token', { method: 'POST', headers: { origin: PAGE, 'content-type': 'application/x-www-form-urlencoded' }, body: `grant_type=client_credentials&client_id=${key}` })
    expect(token.body.error).toBe('ORIGIN_NOT_ALLOWED')
    expect([count(t, 'api_keys'), count(t, 'address_limits'), count(t, 'oauth_tokens')]).toEqual([1, 0, 0])
    // A DNS-rebinding page: its origin and Host name the attacker's host, not the service's.
    const rebound = await t.json('/v5/keys/instant', { method: 'POST', headers: { origin: 'http://rebind.example', host: 'rebind.example', 'content-type': 'text/plain' }, body: '{"agent_id":"rebound"}' })
    expect(rebound.status).toBe(403)
  })

  test('without Origin (curl, an agent, a server) nothing changes; a page of the service itself (its PUBLIC_BASE_URL origin) may mint', async () => {
    expect((await t.json('/v5/keys/instant', { method: 'POST', body: '{"agent_id":"from-curl"}' })).status).toBe(200)
    const own = new URL(t.config.publicBaseUrl).origin
    expect((await preflight(t, '/v5/keys/instant', 'POST', own)).headers.get('access-control-allow-origin')).toBe(own)
    const minted = await t.json('/v5/keys/instant', { method: 'POST', headers: { origin: own, 'content-type': 'application/json' }, body: '{"agent_id":"from-our-page"}' })
    expect(minted.status).toBe(200)
    expect(minted.headers.get('access-control-allow-origin')).toBe(own)
  })
})

test('CORS_ALLOWED_ORIGINS opens minting to the listed origins only', async () => {
  const t = makeTestApp({ env: { CORS_ALLOWED_ORIGINS: 'https://app.example, http://localhost:3000' } })
  for (const origin of ['https://app.example', 'http://localhost:3000']) {
    expect((await preflight(t, '/v5/keys/instant', 'POST', origin)).headers.get('access-control-allow-origin')).toBe(origin)
    expect((await preflight(t, '/oauth/token', 'POST', origin)).headers.get('access-control-allow-origin')).toBe(origin)
  }
  const listed = await t.json('/v5/keys/instant', { method: 'POST', headers: { origin: 'https://app.example', 'content-type': 'application/json' }, body: '{"agent_id":"listed-page"}' })
  expect(listed.status).toBe(200)
  expect(listed.headers.get('access-control-allow-origin')).toBe('https://app.example')
  expect((await preflight(t, '/v5/keys/instant', 'POST', 'https://other.example')).headers.get('access-control-allow-origin')).toBeNull()
  expect((await t.json('/v5/keys/instant', { method: 'POST', headers: { origin: 'https://other.example', 'content-type': 'text/plain' }, body: '{"agent_id":"x"}' })).status).toBe(403)
  // Operator routes stay closed whatever is listed.
  expect((await preflight(t, '/v5/admin/overrides', 'POST', 'https://app.example')).headers.get('access-control-allow-origin')).toBeNull()
})
