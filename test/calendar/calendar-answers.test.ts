// Calendar answers built once per calendar snapshot and query, with an ETag tied to the data they
// carry (304 on If-None-Match) and Cache-Control that never outlives the UTC day of a range taken
// from today; one per-address rate over /v5/calendar, the holidays and the feeds (429 with the
// error object and Retry-After); days without leading zeros.
import { beforeAll, describe, expect, test } from 'bun:test'
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { calendarAnswer, parseCalendarQuery } from '../../src/calendar/calendar-answer'
import { AnswerCache } from '../../src/calendar/answer-cache'
import { BoundedCache } from '../../src/http/bounded-cache'
import { makeTestApp, REPO_SCHEDULES, sharedCalendars, tempDir, type TestApp } from '../helpers/app'

const YEAR = '/v5/calendar?mic=XNYS&from=2027-01-01&to=2027-12-31'

describe('calendar answers: once per snapshot and query, ETag and Cache-Control', () => {
  let t: TestApp
  beforeAll(() => {
    sharedCalendars()
    t = makeTestApp({ now: '2027-03-10T15:00:00.000Z' })
  }, 60_000)

  test('the same answer as building it afresh, with an ETag and a public Cache-Control; 304 on If-None-Match', async () => {
    const first = await t.request(YEAR)
    expect(first.status).toBe(200)
    expect(first.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(first.headers.get('cache-control')).toBe('public, max-age=300')
    expect(first.headers.get('vary')).toBe('Origin')
    const etag = first.headers.get('etag')!
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/)
    const body = await first.text()
    const snapshot = t.deps.calendars.snapshot()
    expect(body).toBe(JSON.stringify(calendarAnswer(snapshot, parseCalendarQuery({ mic: 'XNYS', from: '2027-01-01', to: '2027-12-31' }, t.clock.now()))))
    for (const tags of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const again = await t.request(YEAR, { headers: { 'if-none-match': tags } })
      expect([again.status, await again.text(), again.headers.get('etag'), again.headers.get('cache-control')]).toEqual([304, '', etag, 'public, max-age=300'])
    }
    expect((await t.request(YEAR, { headers: { 'if-none-match': '"other"' } })).status).toBe(200)
  })

  test('built once per query: repeated and differently spelled requests of one range share an answer; other ranges are their own', async () => {
    const built = () => t.deps.calendarAnswers.built
    const before = built()
    // Today is 2027-03-10: no `from` and an explicit `from` of today are one query.
    const implicit = await t.request('/v5/calendar?mic=XLON&to=2027-04-01')
    const explicit = await t.request('/v5/calendar?to=2027-04-01&from=2027-03-10&mic=XLON')
    for (let i = 0; i < 5; i++) await (await t.request('/v5/calendar?mic=XLON&to=2027-04-01')).text()
    expect(built() - before).toBe(1)
    expect(await explicit.text()).toBe(await implicit.text())
    for (const path of ['/v5/holidays?year=2027', '/v5/holidays?year=2027', '/v5/holidays/upcoming?days=366', '/v5/holidays/upcoming?days=366', '/v5/holidays/upcoming?days=366&mic=XNYS']) expect((await t.request(path)).status).toBe(200)
    expect(built() - before).toBe(4)
    // Refusals are not cached answers.
    expect((await t.json('/v5/calendar?mic=XNYS&from=2027-02-30')).body.error).toBe('INVALID_FROM')
    expect(built() - before).toBe(4)
  })

  test('the get_market_calendar tool answers from the same cache: one build for the route and the tool, the same days', async () => {
    const built = () => t.deps.calendarAnswers.built
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'test', version: '0' }, 'io.modelcontextprotocol/clientCapabilities': {} }
    const callTool = async (args: Record<string, string>) => {
      const answer = await t.request('/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'get_market_calendar' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_market_calendar', arguments: args, _meta: meta } }),
      })
      expect(answer.status).toBe(200)
      return ((await answer.json()) as { result: { structuredContent: unknown; content: { text: string }[]; isError?: boolean } }).result
    }
    const before = built()
    const fromTool = await callTool({ mic: 'XPAR', from: '2027-01-01', to: '2027-12-31' })
    expect(fromTool.isError).toBeFalsy()
    expect(built() - before).toBe(1)
    const fromRoute = await (await t.request('/v5/calendar?mic=XPAR&from=2027-01-01&to=2027-12-31')).json()
    expect(fromTool.structuredContent).toEqual(fromRoute)
    expect(JSON.parse(fromTool.content[0]!.text)).toEqual(fromRoute)
    await callTool({ from: '2027-01-01', to: '2027-12-31', mic: 'XPAR' })
    expect(built() - before).toBe(1)
    // A refusal is the tool's error object, and nothing is built for it.
    expect((await callTool({ mic: 'XPAR', from: '2027-02-30' })).structuredContent).toMatchObject({ error: 'INVALID_FROM' })
    expect(built() - before).toBe(1)
  })

  test('Cache-Control of a range taken from today ends with the UTC day', async () => {
    const late = makeTestApp({ now: '2027-03-10T23:59:00.000Z' })
    expect((await late.request('/v5/holidays/upcoming?days=30')).headers.get('cache-control')).toBe('public, max-age=60')
    expect((await late.request('/v5/calendar?mic=XNYS')).headers.get('cache-control')).toBe('public, max-age=60')
    expect((await late.request('/v5/holidays')).headers.get('cache-control')).toBe('public, max-age=60')
    expect((await late.request('/v5/holidays?from=2027-03-10&to=2027-03-31')).headers.get('cache-control')).toBe('public, max-age=300')
    expect((await late.request(YEAR)).headers.get('cache-control')).toBe('public, max-age=300')
  })

  test('the ETag follows the data: a reload with the same files keeps it, a new data_version changes it', async () => {
    const dir = tempDir('openbell-test-answer-etag-')
    copyFileSync(join(REPO_SCHEDULES, 'XNYS.json'), join(dir, 'XNYS.json'))
    const own = makeTestApp({ now: '2027-03-10T15:00:00.000Z', schedulesDir: dir })
    const etag = async () => (await own.request(YEAR)).headers.get('etag')
    const first = await etag()
    own.deps.calendars.reload('test')
    const built = own.deps.calendarAnswers.built
    expect(await etag()).toBe(first)
    // A new snapshot: the answer was built again (and came out the same).
    expect(own.deps.calendarAnswers.built).toBe(built + 1)
    const file = JSON.parse(readFileSync(join(dir, 'XNYS.json'), 'utf8'))
    file.data_version = '2099.1.1'
    writeFileSync(join(dir, 'XNYS.json'), JSON.stringify(file))
    own.deps.calendars.reload('test')
    const changed = await own.request(YEAR)
    expect(changed.headers.get('etag')).not.toBe(first)
    expect(((await changed.json()) as { data_version: string }).data_version).toBe('2099.1.1')
    // The old tag no longer matches: the new answer, not a 304.
    expect((await own.request(YEAR, { headers: { 'if-none-match': first! } })).status).toBe(200)
  })

  test('the cache is bounded by entries and by size; a reload empties it', () => {
    const cache = new BoundedCache<string, string>({ maxEntries: 3, maxBytes: 10 }, (value) => value.length)
    cache.set('a', 'xx')
    cache.set('b', 'xx')
    cache.set('c', 'xx')
    expect(cache.get('a')).toBe('xx')
    cache.set('d', 'xx')
    // 'b' was the least recently used.
    expect([cache.get('b'), cache.size, cache.bytes]).toEqual([undefined, 3, 6])
    cache.set('e', 'xxxxxx')
    // 12 bytes over a budget of 10: the least recently used ('c'; 'a' was read) goes.
    expect([cache.get('c'), cache.size, cache.bytes]).toEqual([undefined, 3, 10])
    cache.set('f', 'x'.repeat(11))
    expect(cache.get('f')).toBeUndefined()
    const answers = new AnswerCache({ maxEntries: 2, maxBytes: 10_000_000 })
    const snapshot = t.deps.calendars.snapshot()
    for (const key of ['k1', 'k2', 'k3']) answers.answer(snapshot, key, () => ({ key }))
    expect(answers.entries).toBe(2)
    answers.answer({ ...snapshot }, 'k1', () => ({ key: 'k1' }))
    expect(answers.entries).toBe(1)
  })
})

describe('one per-address rate over the calendar answers and feeds', () => {
  const t = makeTestApp({ now: '2027-03-10T15:00:10.000Z', env: { CALENDAR_RATE_PER_MINUTE: '4' } })
  const from = (address: string) => ({ headers: { 'cf-connecting-ip': address } })

  test('the fifth request of a minute from one address is 429 RATE_LIMITED with Retry-After, on any of them; other addresses and the next minute are free', async () => {
    const paths = ['/v5/calendar?mic=XNYS', '/v5/holidays?year=2027', '/v5/holidays/upcoming?days=30', '/v5/calendar/XNYS.ics']
    for (const path of paths) expect({ path, status: (await t.request(path, from('203.0.113.9'))).status }).toEqual({ path, status: 200 })
    for (const path of [...paths, '/v5/calendar?mic=XNYS&from=2027-02-30']) {
      const refused = await t.request(path, from('203.0.113.9'))
      expect({ path, status: refused.status }).toEqual({ path, status: 429 })
      expect(refused.headers.get('retry-after')).toBe('50')
      expect(refused.headers.get('x-ratelimit-limit')).toBe('4')
      const body = (await refused.json()) as { error: string; message: string }
      expect(body.error).toBe('RATE_LIMITED')
      expect(body.message).toContain('4 requests a minute')
    }
    expect((await t.request('/v5/calendar?mic=XNYS', from('203.0.113.10'))).status).toBe(200)
    t.clock.advance(60_000)
    expect((await t.request('/v5/calendar?mic=XNYS', from('203.0.113.9'))).status).toBe(200)
  })
})

describe('days without leading zeros', () => {
  const t = makeTestApp({ now: '2027-03-10T15:00:00.000Z' })

  test('/v5/holidays/upcoming?days=0366 is refused like 0 and 367; 366 is taken', async () => {
    for (const days of ['0366', '030', '00', '0', '+30', '3e2', ' 30']) {
      const refused = await t.json(`/v5/holidays/upcoming?days=${encodeURIComponent(days)}`)
      expect({ days, status: refused.status, error: refused.body.error }).toEqual({ days, status: 400, error: 'INVALID_DAYS' })
    }
    expect((await t.json('/v5/holidays/upcoming?days=367')).body.error).toBe('RANGE_TOO_LONG')
    expect((await t.json('/v5/holidays/upcoming?days=366')).body.days).toBe(366)
  })

  test('/v5/audit/chain refuses days=07 as it refuses 0', async () => {
    for (const days of ['07', '0', '030']) expect({ days, error: (await t.json(`/v5/audit/chain?days=${days}`)).body.error }).toEqual({ days, error: 'INVALID_DAYS' })
    expect((await t.json('/v5/audit/chain?days=7')).status).toBe(200)
  })
})
