import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { HaltMonitor } from '../../src/market/halts/monitor'
import { parseTradeHaltsRss, parseMarketStatusJson, FeedFormatError } from '../../src/market/halts/feed'
import { resolveStatus } from '../../src/market/resolve'
import { memoryLogger } from '../../src/log'
import { FakeClock, makeTestApp, sharedCalendars } from '../helpers/app'

const sample = (name: string) => readFileSync(new URL(`../fixtures/halts/${name}`, import.meta.url), 'utf8')
const OPEN_INSTANT = '2026-03-10T15:00:00.000Z' // 11:00 EDT, Tuesday

// A real HTTP feed on loopback whose answer each test sets.
let mode: { kind: 'body'; body: string; type: string } | { kind: 'status'; status: number } | { kind: 'hang' } = { kind: 'status', status: 503 }
let requests = 0
let server: ReturnType<typeof Bun.serve>
beforeAll(() => {
  server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch() {
      requests++
      if (mode.kind === 'body') return new Response(mode.body, { headers: { 'content-type': mode.type } })
      if (mode.kind === 'status') return new Response('error', { status: mode.status })
      await Bun.sleep(3000)
      return new Response('late')
    },
  })
})
afterAll(() => server.stop(true))

const rss = (name: string) => {
  mode = { kind: 'body', body: sample(name), type: 'application/rss+xml' }
}

function monitor(options: { format?: 'rss' | 'json'; intervalMs?: number; now?: string } = {}) {
  const clock = new FakeClock(Date.parse(options.now ?? OPEN_INSTANT))
  const log = memoryLogger()
  const halts = new HaltMonitor({ url: `http://127.0.0.1:${server.port}/feed`, format: options.format ?? 'rss', intervalMs: options.intervalMs ?? 30_000 }, { clock, log, calendars: sharedCalendars() })
  return { halts, clock, log }
}

describe('feed parsing', () => {
  test('an unresolved MWC halt of today is market-wide; single-stock halts and resumed or stale ones are not', () => {
    expect(parseTradeHaltsRss(sample('halt-mwc1.xml'), '03/10/2026')).toEqual([{ code: 'MWC1', haltDate: '03/10/2026', haltTime: '10:45:31', symbol: 'SPY' }])
    expect(parseTradeHaltsRss(sample('resumed-mwc1.xml'), '03/10/2026')).toEqual([])
    expect(parseTradeHaltsRss(sample('stale-mwc1.xml'), '03/10/2026')).toEqual([])
  })

  test('malformed documents are errors, not "no halts"', () => {
    expect(() => parseTradeHaltsRss(sample('malformed.xml'), '03/10/2026')).toThrow(FeedFormatError)
    expect(() => parseTradeHaltsRss('<html>maintenance</html>', '03/10/2026')).toThrow(FeedFormatError)
    expect(() => parseTradeHaltsRss('', '03/10/2026')).toThrow(FeedFormatError)
  })

  test('JSON market-status adapter', () => {
    expect(parseMarketStatusJson('{"exchanges":{"nyse":"halted","nasdaq":"open","cboe":"halted"}}')).toEqual(['XNYS'])
    expect(() => parseMarketStatusJson('{"status":"ok"}')).toThrow(FeedFormatError)
    expect(() => parseMarketStatusJson('not json')).toThrow(FeedFormatError)
  })
})

describe('halt monitor against a live loopback feed', () => {
  test('halt → HALTED/REALTIME on both US venues; resumption clears it; overrides are untouched', async () => {
    const harness = makeTestApp({ now: OPEN_INSTANT })
    const { halts, clock } = monitor()
    harness.deps.halts = halts
    harness.clock.ms = clock.ms
    await harness.deps.overrides.set({ mic: 'XLON', status: 'CLOSED', reason: 'manual', expires_at: '2026-03-10T18:00:00.000Z' }, 'test')

    rss('halt-mwc1.xml')
    await halts.tick()
    for (const mic of ['XNYS', 'XNAS'] as const) {
      const resolution = await resolveStatus(harness.deps, mic, clock.now())
      expect(resolution).toMatchObject({ status: 'HALTED', source: 'REALTIME', haltDetection: 'active' })
      expect(resolution.reason).toContain('MWC1')
      expect(resolution.reason).toContain('Nasdaq Trader')
    }
    const receipt = (await harness.json('/v5/demo?mic=XNAS')).body
    expect(receipt).toMatchObject({ status: 'HALTED', source: 'REALTIME' })
    expect(receipt.reason).toContain('MWC1')
    expect(halts.status()).toMatchObject({ status: 'ok', halted: ['XNAS', 'XNYS'], consecutive_failures: 0 })

    rss('resumed-mwc1.xml')
    clock.advance(30_000)
    await halts.tick()
    expect(await resolveStatus(harness.deps, 'XNYS', clock.now())).toMatchObject({ status: 'OPEN', source: 'SCHEDULE' })
    expect((await harness.deps.overrides.forMic('XLON'))?.status).toBe('CLOSED')
  })

  test('feed failures keep the last good state for two intervals, then report degraded; a seen halt is never dropped without a resumption', async () => {
    const { halts, clock } = monitor({ intervalMs: 30_000 })
    rss('halt-mwc1.xml')
    await halts.tick()
    expect(halts.haltedMics()).toEqual(['XNAS', 'XNYS'])

    mode = { kind: 'status', status: 500 }
    clock.advance(30_000)
    await halts.tick()
    expect(halts.status()).toMatchObject({ status: 'ok', consecutive_failures: 1, last_error: 'HTTP 500' })
    expect(halts.detectionActive('XNYS')).toBe(true)
    clock.advance(30_001)
    await halts.tick()
    const status = halts.status()
    expect(status.status).toBe('degraded')
    expect(status.last_success_at).toBe(OPEN_INSTANT)
    expect(halts.detectionActive('XNYS')).toBe(false)
    expect(halts.haltedMics()).toEqual(['XNAS', 'XNYS']) // still halted: no resumption was seen

    rss('malformed.xml')
    clock.advance(30_000)
    await halts.tick()
    expect(halts.status().last_error).toMatch(/^malformed feed/)
    expect(halts.haltedMics()).toEqual(['XNAS', 'XNYS'])

    rss('resumed-mwc1.xml')
    clock.advance(30_000)
    await halts.tick()
    expect(halts.status()).toMatchObject({ status: 'ok', halted: [], last_error: null })
  })

  test('a degraded monitor signs halt_detection schedule_only for the US venues', async () => {
    const harness = makeTestApp({ now: OPEN_INSTANT })
    const { halts, clock } = monitor({ intervalMs: 5000 })
    harness.deps.halts = halts
    mode = { kind: 'status', status: 503 }
    await halts.tick()
    clock.advance(10_001)
    harness.clock.ms = clock.ms
    await halts.tick()
    expect(halts.state()).toBe('degraded')
    const receipt = (await harness.json('/v5/demo?mic=XNYS')).body
    expect(receipt).toMatchObject({ status: 'OPEN', source: 'SCHEDULE', halt_detection: 'schedule_only' })
    const health = (await harness.json('/v5/health')).body
    expect(health.status).toBe('OK')
  })

  test('a feed that does not answer in time is a timeout failure', async () => {
    // The timeout is min(10 s, interval): a 1 s interval against a feed that answers after 3 s.
    const fast = new HaltMonitor({ url: `http://127.0.0.1:${server.port}/feed`, format: 'rss', intervalMs: 1000 }, { clock: new FakeClock(Date.parse(OPEN_INSTANT)), log: memoryLogger(), calendars: sharedCalendars() })
    mode = { kind: 'hang' }
    await fast.tick()
    expect(fast.status()).toMatchObject({ last_error: 'timeout', consecutive_failures: 1 })
  })

  test('polls only while a US venue is in session; idles and forgets intraday halts after the close', async () => {
    const { halts, clock } = monitor()
    rss('halt-mwc1.xml')
    await halts.tick()
    expect(halts.haltedMics()).toHaveLength(2)
    clock.set('2026-03-10T21:30:00.000Z') // 17:30 EDT
    const before = requests
    await halts.tick()
    expect(requests).toBe(before)
    expect(halts.status()).toMatchObject({ status: 'idle', halted: [] })
  })

  test('JSON adapter: a venue reported halted is HALTED for that venue only', async () => {
    const { halts } = monitor({ format: 'json' })
    mode = { kind: 'body', body: '{"exchanges":{"nyse":"halted","nasdaq":"open"}}', type: 'application/json' }
    await halts.tick()
    expect(halts.haltedMics()).toEqual(['XNYS'])
    expect(halts.haltFor('XNYS')!.reason).toContain('market-status feed')
  })

  test('disabled (HALT_FEED_URL=off): never polls, detection is schedule_only', async () => {
    const halts = new HaltMonitor({ url: null, format: 'rss', intervalMs: 30_000 }, { clock: new FakeClock(Date.parse(OPEN_INSTANT)), log: memoryLogger(), calendars: sharedCalendars() })
    const before = requests
    await halts.tick()
    expect(requests).toBe(before)
    expect(halts.state()).toBe('disabled')
    expect(halts.detectionActive('XNYS')).toBe(false)
  })
})
