// The iCalendar feeds read back by a real parser (ical.js, Mozilla's): every event checked
// against /v5/holidays over the feed's window, RFC 5545 line rules, ETag and 304, and a
// confirmed provisional day changing the feed (ETag, SEQUENCE, LAST-MODIFIED, the event itself)
// after a live reload, as a subscribed calendar application would see it at its next refresh.
import { describe, expect, test } from 'bun:test'
import ICAL from 'ical.js'
import { MAX_RANGE_DAYS } from '../../src/calendar/date-range'
import { FEED_PAST_DAYS } from '../../src/calendar/ics-feed'
import { SUPPORTED_MICS } from '../../src/calendar/mics'
import { dateOfDayNumber, dayNumber } from '../../src/calendar/zone'
import { makeTestApp, type TestApp } from '../helpers/app'
import { scheduleDir, scheduleFixture, writeSchedule } from '../helpers/calendars'

const NOW = '2026-11-25T12:00:00.000Z'
const t = makeTestApp({ now: NOW })
const windowStart = dateOfDayNumber(dayNumber(NOW.slice(0, 10)) - FEED_PAST_DAYS)

type Entry = { mic: string; date: string; kind: string; name: string | null; sessions: { open: string; close: string }[] }

function parse(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text))
  return { calendar, events: calendar.getAllSubcomponents('vevent').map((component) => ({ component, event: new ICAL.Event(component) })) }
}

/** /v5/holidays from `from` to `to` in requests of at most 366 days. */
async function holidays(app: TestApp, from: string, to: string, mic?: string): Promise<Entry[]> {
  const out: Entry[] = []
  for (let day = dayNumber(from); day <= dayNumber(to); day += MAX_RANGE_DAYS) {
    const last = dateOfDayNumber(Math.min(day + MAX_RANGE_DAYS - 1, dayNumber(to)))
    const { status, body } = await app.json(`/v5/holidays?from=${dateOfDayNumber(day)}&to=${last}${mic ? `&mic=${mic}` : ''}`)
    expect(status).toBe(200)
    out.push(...body.holidays)
  }
  return out
}

/** The feed's events against the holidays of each venue from the window start to its coverage end. */
async function expectFeedMatchesHolidays(text: string, mics: readonly string[]) {
  const { events } = parse(text)
  const expected: Entry[] = []
  for (const mic of mics) {
    const calendar = t.deps.calendars.calendar(mic)!
    if (calendar.alwaysOpen) continue
    expected.push(...(await holidays(t, windowStart, calendar.coverageTo!, mic)))
  }
  expect(events.map(({ event }) => event.uid).sort()).toEqual(expected.map((entry) => `${entry.mic}-${entry.date}@openbell`).sort())
  const byUid = new Map(expected.map((entry) => [`${entry.mic}-${entry.date}@openbell`, entry]))
  for (const { event, component } of events) {
    const entry = byUid.get(event.uid)!
    const where = `${entry.mic} ${entry.date} ${entry.kind}`
    if (entry.sessions.length === 0) {
      expect({ where, allDay: event.startDate.isDate, start: event.startDate.toString(), end: event.endDate.toString() }).toEqual({ where, allDay: true, start: entry.date, end: dateOfDayNumber(dayNumber(entry.date) + 1) })
    } else {
      expect({ where, allDay: event.startDate.isDate, start: event.startDate.toJSDate().toISOString(), end: event.endDate.toJSDate().toISOString() }).toEqual({ where, allDay: false, start: entry.sessions[0]!.open, end: entry.sessions.at(-1)!.close })
    }
    expect(event.summary).toStartWith(entry.mic)
    expect(event.summary).toContain(entry.name ?? '')
    expect({ where, status: component.getFirstPropertyValue('status') }).toEqual({ where, status: entry.kind === 'provisional' ? 'TENTATIVE' : 'CONFIRMED' })
    const version = t.deps.calendars.calendar(entry.mic)!.dataVersion
    expect(event.description).toContain(version)
    for (const property of ['dtstamp', 'last-modified']) expect(String(component.getFirstPropertyValue(property))).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/)
  }
  return events.length
}

describe('/v5/calendar/{MIC}.ics and all.ics', () => {
  test('one venue: a calendar with its name, and every event is a day /v5/holidays lists, and back', async () => {
    const response = await t.request('/v5/calendar/XNYS.ics')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/calendar; charset=utf-8')
    const text = await response.text()
    const { calendar } = parse(text)
    expect(calendar.getFirstPropertyValue('version')).toBe('2.0')
    expect(calendar.getFirstPropertyValue('x-wr-calname')).toContain('XNYS')
    expect(String(calendar.getFirstPropertyValue('prodid'))).toContain('openbell')
    expect(await expectFeedMatchesHolidays(text, ['XNYS'])).toBeGreaterThan(10)
  })

  test('all venues: every event against /v5/holidays; one UID per venue and date', async () => {
    const text = await (await t.request('/v5/calendar/all.ics')).text()
    const count = await expectFeedMatchesHolidays(text, SUPPORTED_MICS)
    expect(count).toBeGreaterThan(SUPPORTED_MICS.length * 5)
    const uids = parse(text).events.map(({ event }) => event.uid)
    expect(new Set(uids).size).toBe(uids.length)
  }, 30_000) // every venue's feed parsed and checked against /v5/holidays: work that grows with the venue list

  test('RFC 5545 lines: CRLF everywhere, at most 75 octets, folded lines start with a space', async () => {
    const text = await (await t.request('/v5/calendar/all.ics')).text()
    expect(text.endsWith('END:VCALENDAR\r\n')).toBe(true)
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/)
    const lines = text.split('\r\n').slice(0, -1)
    for (const line of lines) expect(Buffer.byteLength(line, 'utf8')).toBeLessThanOrEqual(75)
    expect(lines.some((line) => line.startsWith(' '))).toBe(true)
  })

  test('ETag, and 304 on If-None-Match (strong, weak or a list), 200 on another tag', async () => {
    const first = await t.request('/v5/calendar/XLON.ics')
    const etag = first.headers.get('etag')!
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/)
    for (const header of [etag, `W/${etag}`, `"nope", ${etag}`, '*']) {
      const again = await t.request('/v5/calendar/XLON.ics', { headers: { 'if-none-match': header } })
      expect({ header, status: again.status, body: await again.text(), etag: again.headers.get('etag') }).toEqual({ header, status: 304, body: '', etag })
    }
    const other = await t.request('/v5/calendar/XLON.ics', { headers: { 'if-none-match': '"0000"' } })
    expect(other.status).toBe(200)
    expect(await other.text()).toBe(await first.text())
    expect((await t.request('/v5/calendar/XPAR.ics')).headers.get('etag')).not.toBe(etag)
  })

  test('a MIC in lower case is the same feed; unknown MIC 400; no .ics suffix 404', async () => {
    expect((await t.request('/v5/calendar/xlon.ics')).headers.get('etag')).toBe((await t.request('/v5/calendar/XLON.ics')).headers.get('etag'))
    const unknown = await t.json('/v5/calendar/NOPE.ics')
    expect({ status: unknown.status, error: unknown.body.error }).toEqual({ status: 400, error: 'UNKNOWN_MIC' })
    const bare = await t.json('/v5/calendar/XLON')
    expect({ status: bare.status, error: bare.body.error }).toEqual({ status: 404, error: 'NOT_FOUND' })
  })
})

describe('a provisional day confirmed: the subscriber sees the change at the next refresh', () => {
  test('the event turns from an all-day TENTATIVE day into the early close, with a new ETag, a higher SEQUENCE and a later LAST-MODIFIED', async () => {
    const base = { schema_version: 2 as const, basis: { '2026': 'rule' as const }, sources: [{ covers: 'test dates 2026 (rule)', publisher: 'test' }] }
    const before = scheduleFixture({ ...base, data_version: '2026.11.0', provisional: { '2026-12-24': { name: 'Christmas Eve (expected half day)', why: 'hours not announced' } } })
    const dir = scheduleDir([before])
    const app = makeTestApp({ now: NOW, schedulesDir: dir })
    const read = async (headers: Record<string, string> = {}) => {
      const response = await app.request('/v5/calendar/XNYS.ics', { headers })
      const text = await response.text()
      const found = response.status === 200 ? parse(text).events.find(({ event }) => event.uid === 'XNYS-2026-12-24@openbell') : undefined
      return { status: response.status, etag: response.headers.get('etag')!, found }
    }
    const first = await read()
    expect(first.found!.event.startDate.isDate).toBe(true)
    expect(first.found!.component.getFirstPropertyValue('status')).toBe('TENTATIVE')
    expect((await read({ 'if-none-match': first.etag })).status).toBe(304)

    writeSchedule(dir, scheduleFixture({ ...base, data_version: '2026.11.1', early_closes: { '2026-12-24': { close: '13:00', name: 'Christmas Eve' } } }))
    expect(app.deps.calendars.reload('test').results.find((result) => result.mic === 'XNYS')).toMatchObject({ outcome: 'loaded', data_version: '2026.11.1' })
    const second = await read({ 'if-none-match': first.etag })
    expect(second.status).toBe(200)
    expect(second.etag).not.toBe(first.etag)
    const event = second.found!.event
    expect({ allDay: event.startDate.isDate, start: event.startDate.toJSDate().toISOString(), end: event.endDate.toJSDate().toISOString() }).toEqual({ allDay: false, start: '2026-12-24T14:30:00.000Z', end: '2026-12-24T18:00:00.000Z' })
    expect(second.found!.component.getFirstPropertyValue('status')).toBe('CONFIRMED')
    expect(event.sequence).toBeGreaterThan(first.found!.event.sequence)
    const modified = (found: typeof first.found) => Date.parse(String(found!.component.getFirstPropertyValue('last-modified')))
    expect(modified(second.found)).toBeGreaterThan(modified(first.found))
  })

  test('a venue without a valid calendar: 503 CALENDAR_UNAVAILABLE, and all.ics names it', async () => {
    const app = makeTestApp({ now: NOW, schedulesDir: scheduleDir([scheduleFixture()]) })
    const missing = await app.json('/v5/calendar/XLON.ics')
    expect({ status: missing.status, error: missing.body.error }).toEqual({ status: 503, error: 'CALENDAR_UNAVAILABLE' })
    const all = parse(await (await app.request('/v5/calendar/all.ics')).text()).calendar
    expect(String(all.getFirstPropertyValue('x-wr-caldesc'))).toContain('XLON')
  })
})
