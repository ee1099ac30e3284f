// GET /v5/calendar: defaults, range limits and bad dates (400 with the error object), days outside
// coverage answered `unknown`, provisional days listed as such, lunch breaks as two sessions,
// phases and /v5/historical's phase at known instants. Facts are read from the loaded files
// rather than typed in, so the tests hold while the data grows.
import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { SUPPORTED_MICS } from '../../src/calendar/mics'
import { dateOfDayNumber, dayNumber, formatLocalTime, localToUtc, parseLocalTime } from '../../src/calendar/zone'
import { makeTestApp } from '../helpers/app'

const t = makeTestApp({ now: '2026-11-25T23:30:00.000Z' })
const fixtures = makeTestApp({ now: '2026-11-25T12:00:00.000Z', schedulesDir: join(import.meta.dir, '..', 'fixtures', 'phases') })
const addDays = (date: string, days: number) => dateOfDayNumber(dayNumber(date) + days)
const calendar = (mic: string) => t.deps.calendars.calendar(mic)!

describe('range and defaults', () => {
  test('no parameters: XNYS from today (UTC) to today + 30 days, every date once', async () => {
    const { status, body } = await t.json('/v5/calendar')
    expect(status).toBe(200)
    expect(body).toMatchObject({ mic: 'XNYS', timezone: 'America/New_York', data_version: calendar('XNYS').dataVersion, coverage: { from: calendar('XNYS').coverageFrom, to: calendar('XNYS').coverageTo }, from: '2026-11-25', to: '2026-12-25' })
    expect(body.days.map((day: { date: string }) => day.date)).toEqual(Array.from({ length: 31 }, (_, i) => addDays('2026-11-25', i)))
  })

  test('from alone runs 30 days on; 366 days is the most per call', async () => {
    expect((await t.json('/v5/calendar?mic=XLON&from=2027-03-01')).body.to).toBe('2027-03-31')
    const longest = await t.json('/v5/calendar?mic=xlon&from=2027-01-01&to=2028-01-01')
    expect(longest.status).toBe(200)
    expect(longest.body.mic).toBe('XLON')
    expect(longest.body.days).toHaveLength(366)
  })

  const refusals: [string, number, string][] = [
    ['/v5/calendar?mic=XLON&from=2027-01-01&to=2028-01-02', 400, 'RANGE_TOO_LONG'],
    ['/v5/calendar?from=2026-02-30', 400, 'INVALID_FROM'],
    ['/v5/calendar?from=2026-2-3', 400, 'INVALID_FROM'],
    ['/v5/calendar?to=tomorrow', 400, 'INVALID_TO'],
    ['/v5/calendar?from=2027-01-01&to=2026-12-31', 400, 'INVALID_RANGE'],
    ['/v5/calendar?from=0000-02-29&to=0000-03-01', 400, 'FROM_OUT_OF_RANGE'],
    ['/v5/calendar?mic=NOPE', 400, 'UNKNOWN_MIC'],
  ]
  for (const [path, status, code] of refusals) {
    test(`${path} → ${status} ${code}`, async () => {
      const response = await t.json(path)
      expect(response.status).toBe(status)
      expect(response.body.error).toBe(code)
      expect(typeof response.body.message).toBe('string')
    })
  }

  test('RANGE_TOO_LONG names the limit; out-of-range dates name the supported range', async () => {
    expect((await t.json('/v5/calendar?from=2026-01-01&to=2027-12-31')).body.max_days).toBe(366)
    expect((await t.json('/v5/calendar?from=0000-02-29&to=0000-03-01')).body.supported_range).toEqual({ from: '1970-01-01T00:00:00.000Z', to: '9999-12-31T23:59:59.999Z' })
  })
})

describe('what a day says', () => {
  test('outside coverage, on both sides, every venue with a horizon: unknown days, nothing guessed', async () => {
    for (const mic of SUPPORTED_MICS) {
      const loaded = calendar(mic)
      if (loaded.alwaysOpen) continue
      for (const [from, to, unknown] of [[addDays(loaded.coverageTo!, -2), addDays(loaded.coverageTo!, 3), [3, 4, 5]], [addDays(loaded.coverageFrom!, -2), addDays(loaded.coverageFrom!, 1), [0, 1]]] as const) {
        const { body } = await t.json(`/v5/calendar?mic=${mic}&from=${from}&to=${to}`)
        body.days.forEach((day: Record<string, unknown>, index: number) => {
          if ((unknown as readonly number[]).includes(index)) expect({ mic, index, day }).toEqual({ mic, index, day: { date: addDays(from, index), kind: 'unknown', name: null, basis: null, sessions: [], phases: null } })
          else expect({ mic, index, kind: day.kind }).not.toEqual({ mic, index, kind: 'unknown' })
        })
      }
    }
  })

  test('provisional dates are listed as provisional, with the reason from the file, and no sessions', async () => {
    let seen = 0
    for (const mic of SUPPORTED_MICS) {
      for (const [date, entry] of Object.entries(calendar(mic).file.provisional ?? {})) {
        const { body } = await t.json(`/v5/calendar?mic=${mic}&from=${date}&to=${date}`)
        expect(body.days).toEqual([{ date, kind: 'provisional', name: entry.name, basis: 'provisional', provisional_why: entry.why, sessions: [], phases: null }])
        seen++
      }
    }
    expect(seen).toBeGreaterThan(0)
  })

  test('a lunch break gives two sessions, UTC instants matching the local times', async () => {
    const file = calendar('XJPX').file
    const { body } = await t.json('/v5/calendar?mic=XJPX&from=2026-12-01&to=2026-12-01')
    const [day] = body.days
    expect(day.kind).toBe('regular')
    expect(day.sessions.map((s: { open_local: string; close_local: string }) => [s.open_local, s.close_local])).toEqual(file.weekly.tue)
    expect(day.sessions).toHaveLength(2)
    for (const session of day.sessions) expect(session.open).toBe(new Date(localToUtc('Asia/Tokyo', dayNumber('2026-12-01'), parseLocalTime(session.open_local))).toISOString())
  })

  test('early closes, late opens and special sessions: kind, name and the shortened sessions from the file', async () => {
    let checked = 0
    for (const mic of SUPPORTED_MICS) {
      const file = calendar(mic).file
      const [early] = Object.entries(file.early_closes).filter(([date]) => date >= '2026-11-01')
      if (early) {
        const { body } = await t.json(`/v5/calendar?mic=${mic}&from=${early[0]}&to=${early[0]}`)
        expect(body.days[0]).toMatchObject({ kind: 'early_close', name: early[1].name })
        expect(body.days[0].sessions.at(-1).close_local).toBe(early[1].close)
        checked++
      }
      const [late] = Object.entries(file.late_opens).filter(([date]) => date >= '2026-11-01')
      if (late) {
        const { body } = await t.json(`/v5/calendar?mic=${mic}&from=${late[0]}&to=${late[0]}`)
        expect(body.days[0]).toMatchObject({ kind: 'late_open', name: late[1].name })
        expect(body.days[0].sessions[0].open_local).toBe(late[1].open)
        checked++
      }
      const [special] = Object.entries(file.special_sessions).filter(([date]) => date >= '2026-11-01')
      if (special) {
        const { body } = await t.json(`/v5/calendar?mic=${mic}&from=${special[0]}&to=${special[0]}`)
        expect(body.days[0]).toMatchObject({ kind: 'special', name: special[1].name })
        expect(body.days[0].sessions.map((s: { open_local: string; close_local: string }) => [s.open_local, s.close_local])).toEqual(special[1].segments.map(([a, b]) => [formatLocalTime(parseLocalTime(a)), formatLocalTime(parseLocalTime(b))]))
        checked++
      }
    }
    expect(checked).toBeGreaterThan(5)
  })

  test('basis per the file: a rule-derived year says rule, an exception its own basis', async () => {
    const hel = calendar('XHEL').file
    const ruleYear = Object.entries(hel.basis ?? {}).find(([, basis]) => basis === 'rule')![0]
    const holiday = Object.keys(hel.holidays).find((date) => date.startsWith(ruleYear))!
    expect((await t.json(`/v5/calendar?mic=XHEL&from=${holiday}&to=${holiday}`)).body.days[0]).toMatchObject({ kind: 'holiday', basis: 'rule', name: hel.holidays[holiday] })
    for (const mic of SUPPORTED_MICS) {
      const [exception] = Object.entries(calendar(mic).file.basis_exceptions ?? {})
      if (!exception) continue
      expect((await t.json(`/v5/calendar?mic=${mic}&from=${exception[0]}&to=${exception[0]}`)).body.days[0].basis).toBe(exception[1])
    }
  })

  test('a 24/7 venue: every day regular, 00:00-24:00, no horizon', async () => {
    const { body } = await t.json('/v5/calendar?mic=XCOI&from=2031-02-27&to=2031-03-01')
    expect(body.coverage).toEqual({ from: null, to: null })
    expect(body.days.map((day: { kind: string; sessions: { open_local: string; close_local: string }[] }) => [day.kind, day.sessions[0]!.open_local, day.sessions[0]!.close_local])).toEqual([['regular', '00:00', '24:00'], ['regular', '00:00', '24:00'], ['regular', '00:00', '24:00']])
  })

  test('a venue without a valid calendar: every day unknown, with a note, and no data_version', async () => {
    const { status, body } = await fixtures.json('/v5/calendar?mic=XNYS&from=2026-12-01&to=2026-12-02')
    expect(status).toBe(200)
    expect(body).toMatchObject({ mic: 'XNYS', data_version: null, coverage: null })
    expect(body.note).toMatch(/No valid calendar/)
    expect(body.days.map((day: { kind: string }) => day.kind)).toEqual(['unknown', 'unknown'])
  })
})

describe('phases (fixture calendars in test/fixtures/phases)', () => {
  test('a regular day lists its phases in order; continuous trading is the open segments', async () => {
    const { body } = await fixtures.json('/v5/calendar?mic=XLON&from=2026-11-25&to=2026-11-25')
    expect(body.days[0].phases.map((p: { phase: string; from_local: string; to_local: string }) => `${p.phase} ${p.from_local}-${p.to_local}`)).toEqual(['pre_open_auction 07:50-08:00', 'continuous 08:00-16:30', 'closing_auction 16:30-16:35', 'post_close 16:35-16:45'])
  })

  test('on an early-close day the bands anchored to the close move with it; holidays have none; a venue without phases says null', async () => {
    const { body } = await fixtures.json('/v5/calendar?mic=XLON&from=2026-12-24&to=2026-12-25')
    expect(body.days[0].phases.map((p: { phase: string; from: string; to: string }) => `${p.phase} ${p.from}-${p.to}`)).toEqual([
      'pre_open_auction 2026-12-24T07:50:00.000Z-2026-12-24T08:00:00.000Z',
      'continuous 2026-12-24T08:00:00.000Z-2026-12-24T12:30:00.000Z',
      'closing_auction 2026-12-24T12:30:00.000Z-2026-12-24T12:35:00.000Z',
      'post_close 2026-12-24T12:35:00.000Z-2026-12-24T12:45:00.000Z',
    ])
    expect(body.days[1]).toMatchObject({ kind: 'holiday', phases: [] })
    expect((await t.json('/v5/calendar?mic=XCOI&from=2026-12-24&to=2026-12-24')).body.days[0].phases).toBeNull()
  })

  test('a band inside a session splits continuous trading', async () => {
    const { body } = await fixtures.json('/v5/calendar?mic=XJPX&from=2026-11-25&to=2026-11-25')
    expect(body.days[0].phases.map((p: { phase: string; from_local: string; to_local: string }) => `${p.phase} ${p.from_local}-${p.to_local}`)).toEqual(['pre_open_auction 08:00-09:00', 'continuous 09:00-11:30', 'continuous 12:30-15:25', 'closing_auction 15:25-15:30'])
  })

  test('/v5/historical: 16:32 local on a regular London day is closing_auction with status CLOSED; 15:27 Tokyo is closing_auction while OPEN', async () => {
    const london = (await fixtures.json('/v5/historical?mic=XLON&at=2026-11-25T16:32:00Z')).body
    expect({ status: london.computed_status, phase: london.phase }).toEqual({ status: 'CLOSED', phase: 'closing_auction' })
    const tokyo = (await fixtures.json('/v5/historical?mic=XJPX&at=2026-11-25T06:27:00Z')).body
    expect({ status: tokyo.computed_status, phase: tokyo.phase }).toEqual({ status: 'OPEN', phase: 'closing_auction' })
    const provisional = (await fixtures.json('/v5/historical?mic=XLON&at=2026-11-02T12:00:00Z')).body
    expect({ status: provisional.computed_status, phase: provisional.phase }).toEqual({ status: 'UNKNOWN', phase: null })
    expect(t.deps.calendars.calendar('XTSE')!.bands).toBeNull()
    const venueWithoutPhases = (await t.json('/v5/historical?mic=XTSE&at=2026-12-01T15:00:00Z')).body
    expect({ status: venueWithoutPhases.computed_status, phase: venueWithoutPhases.phase }).toEqual({ status: 'OPEN', phase: 'continuous' })
  })

  // The real London data (issue 20's example): phases are entered, so this runs unconditionally.
  test('schedules/XLON.json: 16:32 local on a regular day is closing_auction, status CLOSED', async () => {
    const { body } = await t.json('/v5/calendar?mic=XLON&from=2026-12-01&to=2026-12-31')
    const regular = body.days.find((day: { kind: string }) => day.kind === 'regular')
    const at = new Date(localToUtc('Europe/London', dayNumber(regular.date), parseLocalTime('16:32'))).toISOString()
    const historical = (await t.json(`/v5/historical?mic=XLON&at=${at}`)).body
    expect({ status: historical.computed_status, phase: historical.phase }).toEqual({ status: 'CLOSED', phase: 'closing_auction' })
  })
})
