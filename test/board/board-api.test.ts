// GET /v5/board: every venue, its state as a receipt would carry it (calendar, override, no
// calendar), the calendar's phase and next transition as /v5/schedule and /v5/historical give
// them, today's special day, and the headers that make it a public, cacheable, unmetered feed.
import { describe, expect, test } from 'bun:test'
import { cpSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { EXCHANGES } from '../../src/calendar/exchanges'
import { dayNumber, localToUtc } from '../../src/calendar/zone'
import { escapeHtml } from '../../src/board/html'
import { REGION_ORDER } from '../../src/board/present'
import { makeTestApp, REPO_SCHEDULES, tempDir } from '../helpers/app'

// Instants with different things going on: a regular Wednesday (Europe and the US both trading),
// Thanksgiving Day (XNYS closed for a holiday), and a Saturday.
const INSTANTS = ['2026-11-25T15:10:00.000Z', '2026-11-26T14:45:00.000Z', '2026-11-28T09:00:00.000Z']

describe('GET /v5/board', () => {
  test('public, unsigned and cacheable for a second, readable from any origin, and nothing is logged or metered', async () => {
    const t = makeTestApp({ now: INSTANTS[0] })
    for (const origin of [null, 'https://elsewhere.example']) {
      const response = await t.request('/v5/board', origin ? { headers: { origin } } : {})
      expect(response.status).toBe(200)
      expect(response.headers.get('cache-control')).toBe('public, max-age=1')
      expect(response.headers.get('access-control-allow-origin')).toBe('*')
      const text = await response.text()
      expect(text).not.toContain('signature')
    }
    const rows = t.db.query('SELECT count(*) AS n FROM audit_log').get() as { n: number }
    expect(rows.n).toBe(0)
    expect(t.db.query('SELECT count(*) AS n FROM key_usage').get()).toEqual({ n: 0 })
  })

  for (const at of INSTANTS) {
    test(`at ${at}: every venue once, in the venue list's order, with the state, phase and next transition the calendar routes give`, async () => {
      const t = makeTestApp({ now: at })
      const board = (await t.json('/v5/board')).body
      expect(board.at).toBe(at)
      expect(board.venues.map((venue: { mic: string }) => venue.mic)).toEqual(EXCHANGES.map((exchange) => exchange.mic))
      expect(board.venue_count).toBe(EXCHANGES.length)
      const regions = new Set(EXCHANGES.map((exchange) => exchange.region))
      expect(board.regions).toEqual(REGION_ORDER.filter((region) => regions.has(region)))
      const counts = { OPEN: 0, CLOSED: 0, HALTED: 0, UNKNOWN: 0 } as Record<string, number>
      for (const venue of board.venues) {
        counts[venue.status] = counts[venue.status]! + 1
        const historical = (await t.json(`/v5/historical?mic=${venue.mic}&at=${at}`)).body
        const schedule = (await t.json(`/v5/schedule?mic=${venue.mic}`)).body
        const expectedNext = schedule.current_status === 'OPEN' ? schedule.next_close : schedule.next_open
        expect({ mic: venue.mic, status: venue.status, source: venue.source, phase: venue.phase, next: venue.next?.at ?? null, date: venue.local_date, time: venue.local_time }).toEqual({
          mic: venue.mic,
          status: historical.computed_status,
          source: 'SCHEDULE',
          phase: historical.computed_status === 'UNKNOWN' ? null : historical.phase,
          next: expectedNext,
          date: historical.reasoning.local_date,
          time: historical.reasoning.local_time.slice(0, 5),
        })
        if (venue.next) expect(venue.next.event).toBe(venue.status === 'OPEN' ? 'close' : 'open')
      }
      expect(board.counts).toEqual(counts)
    })
  }

  test("today's special day is named: Thanksgiving at XNYS, and the day after it an early close", async () => {
    const thanksgiving = (await makeTestApp({ now: '2026-11-26T15:00:00.000Z' }).json('/v5/board')).body.venues.find((venue: { mic: string }) => venue.mic === 'XNYS')
    expect(thanksgiving).toMatchObject({ status: 'CLOSED', day: { date: '2026-11-26', kind: 'holiday', name: 'Thanksgiving Day', open_local: null }, next: { event: 'open', at: '2026-11-27T14:30:00.000Z', provisional: false } })
    const friday = (await makeTestApp({ now: '2026-11-27T15:00:00.000Z' }).json('/v5/board')).body.venues.find((venue: { mic: string }) => venue.mic === 'XNYS')
    expect(friday).toMatchObject({ status: 'OPEN', day: { kind: 'early_close', open_local: '09:30', close_local: '13:00' }, next: { event: 'close', at: '2026-11-27T18:00:00.000Z' } })
  })

  test('a provisional day is UNKNOWN with its name and what it waits for', async () => {
    // The first provisional date of any venue from tomorrow on, taken from the files themselves.
    const probe = makeTestApp({ now: '2026-11-25T12:00:00.000Z' })
    const found = EXCHANGES.flatMap(({ mic }) => Object.entries(probe.deps.calendars.calendar(mic)?.file.provisional ?? {}).map(([date, entry]) => ({ mic, date, ...entry })))
      .filter((entry) => entry.date > '2026-11-26')
      .sort((a, b) => a.date.localeCompare(b.date))[0]!
    expect(found).toBeDefined()
    const timezone = EXCHANGES.find((exchange) => exchange.mic === found.mic)!.timezone
    // Local noon of that date.
    const t = makeTestApp({ now: new Date(localToUtc(timezone, dayNumber(found.date), 12 * 60)).toISOString() })
    const venue = (await t.json('/v5/board')).body.venues.find((entry: { mic: string }) => entry.mic === found.mic)
    expect(venue).toMatchObject({ status: 'UNKNOWN', source: 'SCHEDULE', phase: null, day: { date: found.date, kind: 'provisional', name: found.name, provisional_why: found.why } })
    expect(venue.reason).toContain('provisional')
  })

  test('an operator override shows as the receipt would carry it: HALTED, its reason, and when it ends', async () => {
    const t = makeTestApp({ now: INSTANTS[0] })
    const expires = new Date(Date.parse(INSTANTS[0]!) + 3_600_000).toISOString()
    await t.deps.overrides.set({ mic: 'XPAR', status: 'HALTED', reason: 'exchange-wide outage', expires_at: expires }, 'test')
    const board = (await t.json('/v5/board')).body
    expect(board.venues.find((venue: { mic: string }) => venue.mic === 'XPAR')).toMatchObject({ status: 'HALTED', source: 'OVERRIDE', reason: 'exchange-wide outage', phase: null, next: { event: 'override_ends', at: expires, provisional: false } })
    expect(board.counts.HALTED).toBe(1)
    const receipt = (await t.json('/v5/demo?mic=XPAR')).body
    expect(receipt).toMatchObject({ status: 'HALTED', source: 'OVERRIDE', reason: 'exchange-wide outage' })
  })

  test('a venue without a valid calendar is UNKNOWN with the reason, and nothing about its day is guessed', async () => {
    const dir = tempDir()
    cpSync(REPO_SCHEDULES, dir, { recursive: true })
    rmSync(join(dir, 'XSWX.json'))
    const t = makeTestApp({ now: INSTANTS[0], schedulesDir: dir })
    const venue = (await t.json('/v5/board')).body.venues.find((entry: { mic: string }) => entry.mic === 'XSWX')
    expect(venue).toMatchObject({ status: 'UNKNOWN', source: 'SCHEDULE', phase: null, next: null, data_version: null, day: { kind: 'unknown', name: null } })
    expect(venue.reason).toContain('XSWX.json')
    const page = await (await t.request('/venue/XSWX', { headers: { accept: 'text/html' } })).text()
    expect(page).toContain('No valid calendar is loaded')
    // The board's tile says why (the file), not a guess about coverage that hides the reason.
    const board = await (await t.request('/', { headers: { accept: 'text/html' } })).text()
    const swissTile = board.slice(board.indexOf('data-mic="XSWX"'), board.indexOf('</li>', board.indexOf('data-mic="XSWX"')))
    expect(swissTile).toContain(`<p class="reason" data-field="reason">Calendar: ${escapeHtml(venue.reason)}</p>`)
    expect(swissTile).toContain('<p class="special" data-field="special" hidden></p>')
    expect(swissTile).toContain('<span class="badge" data-field="status">UNKNOWN</span>')
  })
})
