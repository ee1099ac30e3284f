// Fail closed, on every surface that serves a state: a venue whose calendar is missing (no file)
// or invalid (a file the registry refused) answers UNKNOWN — never CLOSED, never a guess — on the
// signed receipts (/v5/status, /v5/demo, /v5/status/realtime, /v5/batch, /v5/stream, the paid and
// sample safe-to-trade doors, the tool endpoint, a webhook test delivery) and on the unsigned views
// (/v5/schedule, /v5/historical, /v5/briefing, the status card, the status board). reload.test.ts checks what the
// registry holds; this file checks what is answered from it. XNYS has a valid file and answers
// OPEN, so an UNKNOWN below is the missing calendar's, not a broken harness.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { freePort } from '../helpers/process'
import { makeTestApp, type TestApp } from '../helpers/app'
import { scheduleDir, scheduleFixture, writeSchedule } from '../helpers/calendars'
import { issueKey } from '../../src/accounts/keys'

// Monday 2026-03-02, 10:00 in New York: the valid XNYS fixture is OPEN.
const NOW = '2026-03-02T15:00:00.000Z'
const INVALID = 'XNAS'
const MISSING = 'XLON'

let t: TestApp
let headers: Record<string, string>

beforeAll(async () => {
  const dir = scheduleDir([scheduleFixture()])
  writeSchedule(dir, '{ "schema_version": 1, not json', INVALID)
  t = makeTestApp({ now: NOW, schedulesDir: dir, env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } })
  expect(t.deps.calendars.snapshot().entries.get(INVALID)!.state).toBe('invalid')
  expect(t.deps.calendars.calendar(MISSING)).toBeNull()
  headers = { 'x-oracle-key': (await issueKey(t.deps.accounts, { plan: 'pro', now: new Date(t.clock.now()) })).key }
})
afterAll(() => t.deps.delivery.streams.closeAll())

const statusOf = async (path: string, pick: (body: any) => unknown, init: RequestInit = {}) => {
  const answer = await t.json(path, init)
  expect([path, answer.status]).toEqual([path, 200])
  return pick(answer.body)
}

/** The `data` of the first market_status event of a stream. */
async function firstStreamReceipt(mic: string) {
  const response = await t.request(`/v5/stream?mic=${mic}`, { headers })
  const reader = response.body!.getReader()
  let text = ''
  while (!text.includes('event: market_status\ndata: ')) text += new TextDecoder().decode((await reader.read()).value)
  await reader.cancel()
  const data = text.slice(text.indexOf('event: market_status\ndata: ') + 'event: market_status\ndata: '.length)
  return JSON.parse(data.slice(0, data.indexOf('\n'))) as Record<string, unknown>
}

async function toolCall(name: string, mic: string) {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: { mic } } })
  const answer = await t.json('/mcp', { method: 'POST', headers: { 'content-type': 'application/json', 'cf-connecting-ip': '203.0.113.40' }, body })
  expect(answer.body.result.isError).toBeFalsy()
  return JSON.parse(answer.body.result.content[0].text) as Record<string, unknown>
}

describe.each([
  ['a missing calendar', MISSING],
  ['an invalid calendar', INVALID],
])('%s answers UNKNOWN', (_name, mic) => {
  test('signed receipts: /v5/status, /v5/demo, /v5/status/realtime, /v5/batch', async () => {
    expect(await statusOf('/v5/status?mic=XNYS', (body) => body.status, { headers })).toBe('OPEN')
    expect(await statusOf(`/v5/status?mic=${mic}`, (body) => [body.status, body.source], { headers })).toEqual(['UNKNOWN', 'SCHEDULE'])
    expect(await statusOf(`/v5/demo?mic=${mic}`, (body) => body.status)).toBe('UNKNOWN')
    expect(await statusOf(`/v5/status/realtime?mic=${mic}`, (body) => body.signed_receipt.status, { headers })).toBe('UNKNOWN')
    expect(await statusOf(`/v5/batch?mics=XNYS,${mic}`, (body) => body.receipts.map((receipt: { mic: string; status: string }) => [receipt.mic, receipt.status]), { headers })).toEqual([
      ['XNYS', 'OPEN'],
      [mic, 'UNKNOWN'],
    ])
  })

  test('the stream, the tool endpoint and a webhook test delivery', async () => {
    expect((await firstStreamReceipt(mic)).status).toBe('UNKNOWN')
    expect((await toolCall('get_market_status', mic)).status).toBe('UNKNOWN')
    expect((await toolCall('get_market_schedule', mic)).current_status).toBe('UNKNOWN')
    // A free loopback port (webhooks may use 1024–65535): nothing listens, so nothing is
    // delivered, but the payload is answered.
    const created = await t.json('/v5/webhooks/subscribe', { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ url: `https://127.0.0.1:${freePort()}/hook`, mics: [mic] }) })
    expect(created.status).toBe(200)
    const tested = await t.json(`/v5/webhooks/test/${created.body.webhook_id}`, { method: 'POST', headers })
    expect(tested.body.payload_sent).toMatchObject({ mic, current_status: 'UNKNOWN' })
  })

  test('safe-to-trade: the paid door and the sample door say the venue is UNKNOWN and not safe', async () => {
    expect(await statusOf(`/v1/safe-to-trade?venue=${mic}&max_age=30`, (body) => [body.venue_status, body.safe], { headers })).toEqual(['UNKNOWN', 'false'])
    expect(await statusOf(`/v1/safe-to-trade/sample?venue=${mic}&max_age=30`, (body) => [body.venue_status, body.safe])).toEqual(['UNKNOWN', 'false'])
  })

  test('unsigned views: /v5/schedule, /v5/historical, /v5/briefing, the status card', async () => {
    expect(await statusOf(`/v5/schedule?mic=${mic}`, (body) => body.current_status)).toBe('UNKNOWN')
    for (const at of [NOW, '2026-03-07T12:00:00Z', '2025-12-25T15:00:00Z']) {
      expect(await statusOf(`/v5/historical?mic=${mic}&at=${at}`, (body) => body.computed_status)).toBe('UNKNOWN')
    }
    const briefing = await t.json('/v5/briefing?date=2026-03-02')
    expect(briefing.body.venues.find((venue: { mic: string }) => venue.mic === mic)).toMatchObject({ state: 'unknown' })
    expect(briefing.body.unknown).toContain(mic)
    expect(briefing.body.closed.map((venue: { mic: string }) => venue.mic)).not.toContain(mic)
    const card = await (await t.request(`/v5/card/${mic}`)).text()
    expect(card).toContain('UNKNOWN')
    expect(card).not.toContain('CLOSED')
  })

  test('the status board: /v5/board, the board page and the venue page', async () => {
    const venues = (await t.json('/v5/board')).body.venues as { mic: string; status: string; source: string }[]
    expect(venues.find((venue) => venue.mic === 'XNYS')).toMatchObject({ status: 'OPEN' })
    expect(venues.find((venue) => venue.mic === mic)).toMatchObject({ status: 'UNKNOWN', source: 'SCHEDULE' })
    for (const path of ['/', `/venue/${mic}`]) {
      const page = await (await t.request(path, { headers: { accept: 'text/html' } })).text()
      expect({ path, tile: page.match(new RegExp(`data-mic="${mic}" data-status="([A-Z]+)"`))?.[1] }).toEqual({ path, tile: 'UNKNOWN' })
    }
  })
})
