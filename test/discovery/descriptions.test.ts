// Briefing, pre-trade stack, its deprecated alias, implementations and showcase.
import { describe, expect, test } from 'bun:test'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { makeTestApp, tempDir } from '../helpers/app'
import { SUPPORTED_MICS } from '../../src/calendar/mics'
import { REASON_CODES } from '../../src/market/safe-to-trade'
import { STACK_DEPRECATED_AT } from '../../src/discovery/catalogue'

describe('/v5/briefing', () => {
  test('a known day: NYSE session in UTC, Tokyo lunch break, weekend at the Saudi exchange, US DST change within 7 days', async () => {
    const t = makeTestApp({ now: '2026-03-06T12:00:00Z' })
    const { status, body } = await t.json('/v5/briefing?date=2026-03-06')
    expect(status).toBe(200)
    expect(body.venues).toHaveLength(SUPPORTED_MICS.length)
    const nyse = body.venues.find((venue: { mic: string }) => venue.mic === 'XNYS')
    expect(nyse.sessions).toEqual([{ local_date: '2026-03-06', open_utc: '2026-03-06T14:30:00.000Z', close_utc: '2026-03-06T21:00:00.000Z', rule: 'regular', name: null }])
    expect(body.venues.find((venue: { mic: string }) => venue.mic === 'XJPX').lunch_break).toEqual({ start: '11:30', end: '12:30', local_date: '2026-03-06' })
    expect(body.closed).toContainEqual({ mic: 'XSAU', because: 'weekend' })
    expect(body.dst_changes_next_7_days).toContainEqual({ timezone: 'America/New_York', at_utc: '2026-03-08T07:00:00.000Z', from_offset: 'UTC-05:00', to_offset: 'UTC-04:00', mics: ['XNYS', 'XNAS', 'IEPA'] })
    expect(body.trading).toContain('XCOI')
    expect(body.live).not.toBeNull()
  })

  test('holidays and early closes are named; a past date is deterministic and has no live section', async () => {
    const t = makeTestApp({ now: '2026-12-01T00:00:00Z' })
    const thanksgiving = (await t.json('/v5/briefing?date=2026-11-26')).body
    expect(thanksgiving.closed).toContainEqual({ mic: 'XNYS', because: 'Thanksgiving Day' })
    expect(thanksgiving.live).toBeNull()
    const dayAfter = (await t.json('/v5/briefing?date=2026-11-27')).body
    const nyse = dayAfter.venues.find((venue: { mic: string }) => venue.mic === 'XNYS')
    expect(nyse.sessions[0]).toMatchObject({ rule: 'early_close', close_utc: '2026-11-27T18:00:00.000Z' })
    t.clock.advance(3_600_000)
    expect((await t.json('/v5/briefing?date=2026-11-27')).body).toEqual(dayAfter)
  })

  test('a date outside a calendar\'s coverage is unknown with no sessions (the weekly pattern is not a schedule)', async () => {
    const t = makeTestApp({ now: '2026-03-06T12:00:00Z' })
    const { body } = await t.json('/v5/briefing?date=1990-01-02')
    const nyse = body.venues.find((venue: { mic: string }) => venue.mic === 'XNYS')
    expect(nyse).toMatchObject({ state: 'unknown', sessions: [], lunch_break: null, closed_because: null, special_days: [] })
    expect(nyse.reason).toContain('outside calendar coverage')
    expect(body.unknown).toContain('XNYS')
    expect(body.trading).not.toContain('XNYS')
  })

  test('an operator override in force appears in today\'s live section', async () => {
    const t = makeTestApp({ now: '2026-03-06T15:00:00Z' })
    await t.deps.overrides.set({ mic: 'XLON', status: 'HALTED', reason: 'exchange outage', expires_at: '2026-03-06T18:00:00Z' }, 'test')
    const { body } = await t.json('/v5/briefing')
    expect(body.date).toBe('2026-03-06')
    expect(body.live.overrides).toContainEqual(expect.objectContaining({ mic: 'XLON', status: 'HALTED', reason: 'exchange outage' }))
  })

  test('bad dates: 400 INVALID_DATE; real dates before 1970 400 DATE_OUT_OF_RANGE (test/http/instant-range.test.ts)', async () => {
    const t = makeTestApp()
    for (const date of ['2026-02-30', '26-03-01', 'tomorrow']) expect(await t.json(`/v5/briefing?date=${date}`)).toMatchObject({ status: 400, body: { error: 'INVALID_DATE' } })
    expect(await t.json('/v5/briefing?date=0050-03-01')).toMatchObject({ status: 400, body: { error: 'DATE_OUT_OF_RANGE' } })
  })
})

describe('/v5/pre-trade-stack and /v5/stack', () => {
  test('three steps with endpoints from the base URL and the safe-to-trade reason codes; prices from configuration', async () => {
    const t = makeTestApp({ env: { PUBLIC_BASE_URL: 'https://bell.example', X402_PAY_TO: '0x' + '1'.repeat(40), X402_STATUS_PRICE: '0.002' } })
    const { body } = await t.json('/v5/pre-trade-stack')
    expect(body.steps.map((step: { name: string }) => step.name)).toEqual(['status', 'safe-to-trade', 'verify'])
    expect(body.steps[0].endpoint).toBe('https://bell.example/v5/status?mic={MIC}')
    expect(body.steps[0].price.x402_price_usdc).toBe('0.002')
    expect(body.steps[1].fails_when).toEqual(REASON_CODES.map((code) => `reasons contains ${code}`))
  })

  test('/v5/stack wraps the same payload in _deprecated with Deprecation and successor Link headers', async () => {
    const t = makeTestApp()
    const stack = await t.request('/v5/stack')
    // RFC 9745: a structured-field date (@ and Unix seconds), not the drafts' `true`; in the past.
    const deprecation = stack.headers.get('deprecation') ?? ''
    expect(deprecation).toMatch(/^@\d+$/)
    expect(Number(deprecation.slice(1)) * 1000).toBe(Date.parse(STACK_DEPRECATED_AT))
    expect(Number(deprecation.slice(1)) * 1000).toBeLessThanOrEqual(Date.now())
    expect(stack.headers.get('link')).toBe(`<${t.config.publicBaseUrl}/v5/pre-trade-stack>; rel="successor-version"`)
    const { _deprecated, ...payload } = (await stack.json()) as Record<string, unknown>
    expect(_deprecated).toMatchObject({ replacement_path: '/v5/pre-trade-stack' })
    expect(payload).toEqual((await t.json('/v5/pre-trade-stack')).body)
  })
})

describe('/v5/implementations and /v5/showcase', () => {
  test('every standard listed names an endpoint this app serves, and the count is the list\'s length', async () => {
    const t = makeTestApp()
    const { body } = await t.json('/v5/implementations')
    const served = new Set(t.app.routes.map((route) => `${t.config.publicBaseUrl}${route.path}`))
    for (const standard of Object.values(body.standards) as { endpoint: string }[]) expect(served.has(standard.endpoint)).toBe(true)
    expect(body.total_implementations).toBe(Object.keys(body.standards).length)
    expect(body.standards['RFC 8032']).toBeDefined()
    expect(body.standards['MCP 2025-11-25']).toBeDefined()
  })

  test('a standard that needs configuration is claimed only when it is configured (security.txt contact, x402 pay-to)', async () => {
    const needing = ['RFC 9116', 'x402 v1', 'x402 v2', 'EIP-3009']
    const bare = (await makeTestApp().json('/v5/implementations')).body
    for (const id of needing) expect({ id, listed: id in bare.standards }).toEqual({ id, listed: false })
    expect((await makeTestApp().json('/.well-known/security.txt')).status).toBe(404)
    const t = makeTestApp({ env: { SECURITY_CONTACT: 'mailto:security@bell.example', X402_PAY_TO: '0x' + '3'.repeat(40) } })
    const configured = (await t.json('/v5/implementations')).body
    for (const id of needing) expect({ id, listed: id in configured.standards }).toEqual({ id, listed: true })
    expect(configured.total_implementations).toBe(bare.total_implementations + needing.length)
  })

  test('showcase is empty by default and lists the operator\'s file when it exists', async () => {
    expect((await makeTestApp().json('/v5/showcase')).body).toMatchObject({ entries: [], submit_url: null })
    const dir = tempDir()
    const file = join(dir, 'showcase.json')
    writeFileSync(file, JSON.stringify([{ name: 'Example agent', url: 'https://agent.example' }]))
    const t = makeTestApp({ env: { SHOWCASE_FILE: file, SHOWCASE_SUBMIT_URL: 'https://bell.example/submit' } })
    expect((await t.json('/v5/showcase')).body).toMatchObject({ entries: [{ name: 'Example agent' }], submit_url: 'https://bell.example/submit' })
    writeFileSync(file, '{"not": "an array"}')
    expect((await t.json('/v5/showcase')).body.entries).toEqual([])
  })
})
