// Issue 9 over HTTP: /v5/health over the shipped calendars shows no venue past its coverage and
// no coverage ending before 2028-12-31 (every venue through 2028 since issue 25); /v5/schedule and /v5/historical report a provisional day
// (UNKNOWN with the reason, next open/close across it flagged, the rule named).
import { afterAll, describe, expect, test } from 'bun:test'
import { startCalendarJobs } from '../../src/calendar/jobs'
import { SUPPORTED_MICS } from '../../src/calendar/mics'
import { makeTestApp } from '../helpers/app'
import { scheduleDir, scheduleFixture } from '../helpers/calendars'

interface Warning {
  mic: string
  problem: string
  coverage_to?: string | null
  date?: string
}

describe('/v5/health over the shipped calendars', () => {
  const harness = makeTestApp({ now: '2026-11-23T12:00:00Z' })
  const { deps, clock, json } = harness
  // The health extras (calendar_warnings) are registered by the calendar jobs, as in main.ts.
  const stop = startCalendarJobs({ calendars: deps.calendars, log: deps.log, clock, healthExtras: deps.healthExtras }, { debounceMs: 60_000 })
  afterAll(stop)

  const warningsAt = async (iso: string): Promise<Warning[]> => {
    clock.set(iso)
    const { status, body } = await json('/v5/health')
    expect(status).toBe(200)
    return (body.calendar_warnings ?? []) as Warning[]
  }

  test('today: every venue has a valid calendar and none has ended or ends within 90 days', async () => {
    const warnings = await warningsAt('2026-11-23T12:00:00Z')
    expect(warnings.filter((w) => w.problem !== 'provisional_date_soon')).toEqual([])
  })

  test('today: each provisional date of the next 30 days is a warning in /v5/health and in the log', async () => {
    const warnings = await warningsAt('2026-11-23T12:00:00Z')
    const named = new Set(warnings.filter((w) => w.problem === 'provisional_date_soon').map((w) => `${w.mic} ${w.date}`))
    // Read from the files: every provisional date 1..29 days ahead (away from zone edges) must be named, and nothing else.
    const expected = new Set<string>()
    for (const mic of SUPPORTED_MICS) {
      for (const date of Object.keys(deps.calendars.calendar(mic)?.file.provisional ?? {})) {
        const days = (Date.parse(`${date}T00:00:00Z`) - Date.parse('2026-11-23T00:00:00Z')) / 86_400_000
        if (days >= 1 && days <= 29) expected.add(`${mic} ${date}`)
        if (days < 0 || days > 31) expect(named.has(`${mic} ${date}`)).toBe(false)
      }
    }
    for (const entry of expected) expect(named.has(entry)).toBe(true)
    const logged = harness.log.lines.filter((line) => line.msg === 'calendar horizon' && line.problem === 'provisional_date_soon').map((line) => `${line.mic} ${line.date}`)
    expect(new Set(logged)).toEqual(named)
  })

  test('90 days before 2029: the alarm names each venue whose coverage ends soon, and none ends before 2028-12-31', async () => {
    const warnings = await warningsAt('2028-10-15T12:00:00Z')
    expect(warnings.filter((w) => w.problem === 'coverage_ended' || w.problem === 'no_valid_calendar')).toEqual([])
    const endingSoon = warnings.filter((w) => w.problem === 'coverage_ends_soon')
    expect(endingSoon.length).toBeGreaterThan(0)
    for (const warning of endingSoon) expect([warning.mic, warning.coverage_to! >= '2028-12-31']).toEqual([warning.mic, true])
    // Every calendared venue either warns with its coverage end or covers beyond the window.
    for (const mic of SUPPORTED_MICS) {
      const calendar = deps.calendars.calendar(mic)!
      if (calendar.alwaysOpen) continue
      expect([mic, calendar.coverageTo! >= '2028-12-31']).toEqual([mic, true])
    }
  })
})

describe('/v5/schedule and /v5/historical on a provisional day', () => {
  // Test Exchange (New York, 09:30-16:00 Mon-Fri); Thursday 2026-07-02 waits for an announcement.
  const WHY = 'the exchange announces it in June'
  const dir = scheduleDir([
    scheduleFixture({
      schema_version: 2,
      data_version: '2026.6.0',
      basis: { '2026': 'rule' },
      sources: [{ covers: 'holidays 2026 (rule)', publisher: 'test' }],
      holidays: { '2026-07-03': 'Independence Day observed' },
      provisional: { '2026-07-02': { name: 'Possible closure', why: WHY } },
    }),
  ])

  test('/v5/schedule: UNKNOWN with the reason on the day; next open and close across it flagged, not dropped', async () => {
    const { json, clock } = makeTestApp({ schedulesDir: dir, now: '2026-07-01T21:00:00Z' })
    const before = await json('/v5/schedule?mic=XNYS')
    expect(before.status).toBe(200)
    expect(before.body).toMatchObject({ current_status: 'CLOSED', next_open: '2026-07-06T13:30:00.000Z', next_open_provisional: true, next_close: '2026-07-06T20:00:00.000Z', next_close_provisional: true })
    clock.set('2026-07-02T15:00:00Z')
    const during = await json('/v5/schedule?mic=XNYS')
    expect(during.body.current_status).toBe('UNKNOWN')
    expect(during.body.reason).toBe(`provisional: ${WHY} (Possible closure)`)
    clock.set('2026-07-01T15:00:00Z')
    const dayBefore = await json('/v5/schedule?mic=XNYS')
    expect(dayBefore.body).toMatchObject({ current_status: 'OPEN', next_close: '2026-07-01T20:00:00.000Z', next_close_provisional: false, next_open_provisional: true })
  })

  test('/v5/historical: the provisional rule with its name and why, only on that local date', async () => {
    const { json } = makeTestApp({ schedulesDir: dir, now: '2026-06-01T00:00:00Z' })
    const justBefore = await json('/v5/historical?mic=XNYS&at=2026-07-02T03:59:59Z')
    expect(justBefore.body.computed_status).toBe('CLOSED') // 23:59:59 local on the day before
    const during = await json('/v5/historical?mic=XNYS&at=2026-07-02T15:00:00Z')
    expect(during.status).toBe(200)
    expect(during.body.computed_status).toBe('UNKNOWN')
    expect(during.body.reasoning).toMatchObject({ local_date: '2026-07-02', rule: 'provisional', rule_name: 'Possible closure', provisional_why: WHY })
    const after = await json('/v5/historical?mic=XNYS&at=2026-07-03T15:00:00Z')
    expect(after.body).toMatchObject({ computed_status: 'CLOSED', reasoning: { rule: 'holiday', rule_name: 'Independence Day observed' } })
  })
})
