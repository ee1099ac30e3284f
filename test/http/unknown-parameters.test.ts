// Unknown query parameters are refused on every route, from the route's declared query schema
// (issue 24 item 15): /v5/schedule?mic=XNYS&date=2026-11-26 used to answer today's schedule.
import { describe, expect, test } from 'bun:test'
import { makeTestApp } from '../helpers/app'

/** Routes whose parameters are open-ended: by their protocol (docs/operations.md), or pages people open from links (docs/board.md). */
const OPEN_ENDED = new Set(['GET /oauth/authorize', 'POST /oauth/authorize', 'GET /', 'GET /venue/{mic}', 'GET /verify', 'GET /witness'])

const PATH_VALUES: Record<string, string> = { mic: 'XNYS', webhook_id: 'wh_0000' }
const concrete = (path: string) => path.replace(/\{([^}]+)\}/g, (_, name: string) => PATH_VALUES[name] ?? 'x')

describe('unknown query parameters', () => {
  test('the reported case: /v5/schedule?mic=XNYS&date=… is 400 UNKNOWN_PARAMETER naming date', async () => {
    const harness = makeTestApp()
    const answer = await harness.json('/v5/schedule?mic=XNYS&date=2026-11-26')
    expect(answer.status).toBe(400)
    expect(answer.body).toMatchObject({ error: 'UNKNOWN_PARAMETER', parameter: 'date', accepted_parameters: ['mic'] })
    expect(answer.body.message).toContain('"date"')
    // The declared parameter alone, by any spelling of its name, still answers.
    expect((await harness.json('/v5/schedule?mic=XLON')).body.mic).toBe('XLON')
    expect((await harness.json('/v5/schedule?m%69c=XLON')).body.mic).toBe('XLON')
  })

  test('every route of /openapi.json refuses a parameter it does not declare, before auth, body or payment', async () => {
    const harness = makeTestApp()
    const document = (await harness.json('/openapi.json')).body as { paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>> }
    let walked = 0
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const route = `${method.toUpperCase()} ${path}`
        const declared = (operation.parameters ?? []).filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name)
        const response = await harness.request(`${concrete(path)}?openbell_unknown=1`, { method: method.toUpperCase() })
        const body = response.headers.get('content-type')?.includes('json') ? ((await response.json()) as Record<string, unknown>) : {}
        walked++
        if (OPEN_ENDED.has(route)) {
          expect({ route, error: body.error }).not.toEqual({ route, error: 'UNKNOWN_PARAMETER' })
          continue
        }
        expect({ route, status: response.status }).toEqual({ route, status: 400 })
        if (path.startsWith('/v1/witness/')) {
          // The witness's own error shape (witness.md 4.3): bad_request with docs.
          expect({ route, ...body }).toMatchObject({ route, error: 'bad_request', reason: 'UNKNOWN_PARAMETER', parameter: 'openbell_unknown', docs: expect.any(String) })
        } else {
          expect({ route, ...body }).toMatchObject({ route, error: 'UNKNOWN_PARAMETER', parameter: 'openbell_unknown' })
        }
        expect(body.accepted_parameters).toEqual(declared)
      }
    }
    expect(walked).toBeGreaterThan(60)
  })

  test('every declared parameter is accepted (no route refuses what it documents)', async () => {
    const harness = makeTestApp()
    const document = (await harness.json('/openapi.json')).body as { paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>> }
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const names = (operation.parameters ?? []).filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name)
        if (!names.length) continue
        const query = names.map((name) => `${name}=`).join('&')
        const response = await harness.request(`${concrete(path)}?${query}`, { method: method.toUpperCase() })
        const body = response.headers.get('content-type')?.includes('json') ? ((await response.json()) as Record<string, unknown>) : {}
        expect({ route: `${method} ${path}`, error: body.error, reason: body.reason }).not.toMatchObject({ error: 'UNKNOWN_PARAMETER' })
        expect(body.reason).not.toBe('UNKNOWN_PARAMETER')
      }
    }
  })

  test('HEAD answers as its GET; the CORS preflight keeps the query of the page it asks for', async () => {
    const harness = makeTestApp()
    expect((await harness.request('/v5/schedule?mic=XNYS&date=2026-11-26', { method: 'HEAD' })).status).toBe(400)
    expect((await harness.request('/v5/schedule?mic=XNYS', { method: 'HEAD' })).status).toBe(200)
    const preflight = await harness.request('/v5/schedule?mic=XNYS&date=2026-11-26', { method: 'OPTIONS', headers: { origin: 'https://app.example', 'access-control-request-method': 'GET' } })
    expect(preflight.status).toBe(204)
  })

  test('an empty name, an encoded unknown name and a name without a value are refused too', async () => {
    const harness = makeTestApp()
    for (const [query, name] of [['mic=XNYS&=1', ''], ['mic=XNYS&d%61te=1', 'date'], ['mic=XNYS&verbose', 'verbose'], ['x+y=1', 'x y']] as const) {
      const answer = await harness.json(`/v5/schedule?${query}`)
      expect({ query, status: answer.status, parameter: answer.body.parameter }).toEqual({ query, status: 400, parameter: name })
    }
    // An empty query and stray separators are no parameters at all.
    expect((await harness.json('/v5/schedule?')).status).toBe(200)
    expect((await harness.json('/v5/schedule?&mic=XNYS&')).status).toBe(200)
  })

  test('a refused request changes nothing: no key is minted, nothing is audited', async () => {
    const harness = makeTestApp()
    const keys = () => (harness.db.query('SELECT COUNT(*) AS n FROM api_keys').get() as { n: number }).n
    const before = keys()
    const answer = await harness.json('/v5/keys/instant?plan=pro', { method: 'POST', headers: { 'content-type': 'application/json', 'cf-connecting-ip': '192.0.2.9' }, body: JSON.stringify({ agent_id: 'unknown-parameter-test' }) })
    expect(answer.status).toBe(400)
    expect(answer.body).toMatchObject({ error: 'UNKNOWN_PARAMETER', parameter: 'plan' })
    expect(keys()).toBe(before)
  })
})
