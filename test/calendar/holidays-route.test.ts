// GET /v5/holidays and /v5/holidays/upcoming: the notable days of /v5/calendar across venues,
// sorted, with each venue's coverage; the forms of the query and their refusals.
import { describe, expect, test } from 'bun:test'
import { NOTABLE_KINDS } from '../../src/calendar/days'
import { SUPPORTED_MICS } from '../../src/calendar/mics'
import { dateOfDayNumber, dayNumber } from '../../src/calendar/zone'
import { makeTestApp } from '../helpers/app'

const t = makeTestApp({ now: '2026-11-25T12:00:00.000Z' })
type Entry = { mic: string; date: string; kind: string; name: string | null; basis: string; provisional_why?: string; sessions: unknown[] }
const sortedByDateThenMic = (entries: Entry[]) => entries.every((entry, i) => i === 0 || entries[i - 1]!.date < entry.date || (entries[i - 1]!.date === entry.date && entries[i - 1]!.mic < entry.mic))

describe('/v5/holidays', () => {
  test('a year across venues: sorted by date then MIC, only notable kinds, every venue with its coverage', async () => {
    const { status, body } = await t.json('/v5/holidays?year=2027')
    expect(status).toBe(200)
    expect({ from: body.from, to: body.to }).toEqual({ from: '2027-01-01', to: '2027-12-31' })
    expect(sortedByDateThenMic(body.holidays)).toBe(true)
    for (const entry of body.holidays as Entry[]) expect(NOTABLE_KINDS.has(entry.kind as never)).toBe(true)
    expect(body.venues.map((venue: { mic: string }) => venue.mic)).toEqual([...SUPPORTED_MICS])
    for (const venue of body.venues) {
      const calendar = t.deps.calendars.calendar(venue.mic)!
      expect(venue.data_version).toBe(calendar.dataVersion)
      expect(venue.complete).toBe(calendar.alwaysOpen || (calendar.coverageFrom! <= '2027-01-01' && calendar.coverageTo! >= '2027-12-31'))
    }
    expect(new Set(body.holidays.map((entry: Entry) => entry.mic)).size).toBeGreaterThan(SUPPORTED_MICS.length / 2)
  })

  test('one venue: exactly the notable days /v5/calendar lists for that year, in the same form', async () => {
    for (const mic of ['XPAR', 'XNSE', 'XHKG']) {
      const holidays = (await t.json(`/v5/holidays?mic=${mic}&year=2027`)).body
      expect(holidays.venues.map((venue: { mic: string }) => venue.mic)).toEqual([mic])
      const days = (await t.json(`/v5/calendar?mic=${mic}&from=2027-01-01&to=2027-12-31`)).body.days
      const expected = days.filter((day: Entry) => NOTABLE_KINDS.has(day.kind as never)).map(({ phases: _phases, ...day }: Omit<Entry, "mic"> & { phases: unknown }) => ({ mic, ...day }))
      expect(holidays.holidays).toEqual(expected)
      expect(expected.length).toBeGreaterThanOrEqual(3)
    }
  })

  test('every provisional date in the files is listed as provisional with its reason', async () => {
    for (const mic of SUPPORTED_MICS) {
      const provisional = Object.entries(t.deps.calendars.calendar(mic)!.file.provisional ?? {})
      for (const year of new Set(provisional.map(([date]) => date.slice(0, 4)))) {
        const listed = ((await t.json(`/v5/holidays?mic=${mic}&year=${year}`)).body.holidays as Entry[]).filter((entry) => entry.kind === 'provisional')
        expect(listed.map((entry) => [entry.date, entry.basis, entry.provisional_why])).toEqual(provisional.filter(([date]) => date.startsWith(year)).map(([date, entry]) => [date, 'provisional', entry.why]).sort())
      }
    }
  })

  test('from and to; no parameters means the current year (UTC); a year beyond coverage is not complete', async () => {
    const range = (await t.json('/v5/holidays?from=2026-12-20&to=2027-01-10')).body
    expect(range.holidays.every((entry: Entry) => entry.date >= '2026-12-20' && entry.date <= '2027-01-10')).toBe(true)
    expect(range.holidays.some((entry: Entry) => entry.date === '2026-12-25')).toBe(true)
    expect((await t.json('/v5/holidays')).body).toEqual((await t.json('/v5/holidays?year=2026')).body)
    const far = (await t.json('/v5/holidays?year=2099')).body
    expect(far.holidays).toEqual([])
    for (const venue of far.venues) expect(venue.complete).toBe(t.deps.calendars.calendar(venue.mic)!.alwaysOpen)
  })

  const refusals: [string, string][] = [
    ['/v5/holidays?year=27', 'INVALID_YEAR'],
    ['/v5/holidays?year=1969', 'INVALID_YEAR'],
    ['/v5/holidays?year=2027&from=2027-01-01', 'CONFLICTING_PARAMETERS'],
    ['/v5/holidays?from=2027-02-29', 'INVALID_FROM'],
    ['/v5/holidays?from=2026-01-01&to=2027-06-01', 'RANGE_TOO_LONG'],
    ['/v5/holidays?from=2027-01-02&to=2027-01-01', 'INVALID_RANGE'],
    ['/v5/holidays?mic=NOPE&year=2027', 'UNKNOWN_MIC'],
    ['/v5/holidays/upcoming?days=367', 'RANGE_TOO_LONG'],
    ['/v5/holidays/upcoming?days=0', 'INVALID_DAYS'],
    ['/v5/holidays/upcoming?days=1.5', 'INVALID_DAYS'],
    ['/v5/holidays/upcoming?days=-3', 'INVALID_DAYS'],
  ]
  for (const [path, code] of refusals) {
    test(`${path} → 400 ${code}`, async () => {
      const { status, body } = await t.json(path)
      expect({ status, error: body.error, message: typeof body.message }).toEqual({ status: 400, error: code, message: 'string' })
    })
  }
})

describe('/v5/holidays/upcoming', () => {
  test('default: the next 30 days from today (UTC), today included, sorted by date then MIC', async () => {
    const { status, body } = await t.json('/v5/holidays/upcoming')
    expect(status).toBe(200)
    expect({ days: body.days, from: body.from, to: body.to }).toEqual({ days: 30, from: '2026-11-25', to: dateOfDayNumber(dayNumber('2026-11-25') + 29) })
    expect(sortedByDateThenMic(body.holidays)).toBe(true)
    expect(body.holidays).toEqual((await t.json(`/v5/holidays?from=${body.from}&to=${body.to}`)).body.holidays)
  })

  test('days up to 366, and one venue', async () => {
    const year = (await t.json('/v5/holidays/upcoming?days=366')).body
    expect(year.to).toBe(dateOfDayNumber(dayNumber('2026-11-25') + 365))
    const london = (await t.json('/v5/holidays/upcoming?days=366&mic=XLON')).body
    expect(london.holidays.length).toBeGreaterThan(5)
    expect(london.holidays).toEqual(year.holidays.filter((entry: Entry) => entry.mic === 'XLON'))
  })
})
