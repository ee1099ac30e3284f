import { describe, expect, test } from 'bun:test'
import { validateSchedule, validateScheduleText } from '../../src/calendar/validate'
import { scheduleFixture, weekdays } from '../helpers/calendars'

function problems(overrides: Parameters<typeof scheduleFixture>[0], mic = 'XNYS') {
  const result = validateSchedule(scheduleFixture(overrides), mic)
  return result.ok ? [] : result.problems
}

describe('schedule file validation', () => {
  test('the fixture is valid', () => {
    expect(problems({})).toEqual([])
  })

  test('invalid JSON is reported with a reason', () => {
    const result = validateScheduleText('{"mic": ', 'XNYS')
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.problems[0]!.reason).toMatch(/invalid JSON/)
  })

  const cases: [string, Parameters<typeof scheduleFixture>[0], string, RegExp][] = [
    ['schema: bad time', { weekly: weekdays([['9:30', '16:00']]) }, '/weekly/mon/0/0', /pattern/],
    ['schema: unknown member', { extra: 1 } as never, '/', /additional/],
    ['schema: wrong schema_version', { schema_version: 4 } as never, '/schema_version', /./],
    ['version 1 with provisional dates', { provisional: { '2026-07-02': { name: 'x', why: 'y' } } }, '/provisional', /needs schema_version 2/],
    ['version 2 without basis', { schema_version: 2 }, '/basis', /needs basis/],
    ['version 2 basis missing a covered year', { schema_version: 2, coverage: { from: '2026-01-01', to: '2027-06-30' }, basis: { '2026': 'published' } }, '/basis', /no entry for 2027/],
    ['version 2 basis of an uncovered year', { schema_version: 2, basis: { '2026': 'published', '2030': 'rule' } }, '/basis/2030', /outside coverage/],
    ['basis exception on a date with nothing entered', { schema_version: 2, basis: { '2026': 'rule' }, basis_exceptions: { '2026-07-02': 'published' } }, '/basis_exceptions/2026-07-02', /not an entered date/],
    ['a rule-derived year that no source mentions', { schema_version: 2, basis: { '2026': 'rule' } }, '/sources', /no source mentions 2026/],
    ['a rule-derived exception whose year no source mentions', { schema_version: 2, basis: { '2026': 'published' }, holidays: { '2026-07-03': 'x' }, basis_exceptions: { '2026-07-03': 'rule' } }, '/sources', /no source mentions 2026/],
    ['basis exception equal to its year\'s basis', { schema_version: 2, basis: { '2026': 'published' }, holidays: { '2026-07-03': 'x' }, basis_exceptions: { '2026-07-03': 'published' } }, '/basis_exceptions/2026-07-03', /must differ/],
    ['provisional date that is also a holiday', { schema_version: 2, basis: { '2026': 'rule' }, holidays: { '2026-07-02': 'x' }, provisional: { '2026-07-02': { name: 'x', why: 'y' } } }, '/provisional/2026-07-02', /also listed in holidays/],
    ['provisional date outside coverage', { schema_version: 2, basis: { '2026': 'rule' }, provisional: { '2027-01-04': { name: 'x', why: 'y' } } }, '/provisional/2027-01-04', /outside coverage/],
    ['provisional without a reason', { schema_version: 2, basis: { '2026': 'rule' }, provisional: { '2026-07-02': { name: 'x', why: '' } } } as never, '/provisional/2026-07-02/why', /./],
    ['segment ends before it starts', { weekly: weekdays([['16:00', '09:30']]) }, '/weekly/mon/0', /does not end after/],
    ['overlapping segments', { weekly: weekdays([['09:00', '12:00'], ['11:00', '15:00']]) }, '/weekly/mon/1', /overlaps/],
    ['holiday outside coverage', { holidays: { '2027-01-01': 'x' } }, '/holidays/2027-01-01', /outside coverage/],
    ['impossible date', { holidays: { '2026-02-30': 'x' } }, '/holidays/2026-02-30', /not a calendar date/],
    ['holiday that is also an early close', { holidays: { '2026-07-03': 'x' }, early_closes: { '2026-07-03': { close: '13:00', name: 'y' } } }, '/early_closes/2026-07-03', /also listed in holidays/],
    ['early close outside the session', { early_closes: { '2026-07-02': { close: '17:00', name: 'y' } } }, '/early_closes/2026-07-02/close', /not inside/],
    ['early close on a weekend', { early_closes: { '2026-07-04': { close: '13:00', name: 'y' } } }, '/early_closes/2026-07-04', /no regular session/],
    ['late open outside the session', { late_opens: { '2026-07-02': { open: '08:00', name: 'y' } } }, '/late_opens/2026-07-02/open', /not inside/],
    ['unknown time zone', { timezone: 'Mars/Olympus' }, '/timezone', /not known/],
    ['time zone differs from the exchange', { timezone: 'Europe/London' }, '/timezone', /cannot change/],
    ['coverage reversed', { coverage: { from: '2026-12-31', to: '2026-01-01' } }, '/coverage', /after/],
    ['coverage missing', { coverage: undefined }, '/coverage', /required/],
    ['always_open with holidays', { always_open: true, coverage: undefined, weekly: { mon: [['00:00', '24:00']], tue: [['00:00', '24:00']], wed: [['00:00', '24:00']], thu: [['00:00', '24:00']], fri: [['00:00', '24:00']], sat: [['00:00', '24:00']], sun: [['00:00', '24:00']] }, holidays: { '2026-01-01': 'x' } }, '/holidays', /no holidays/],
    ['season outside coverage', { seasons: [{ from: '2025-12-01', to: '2026-02-01', name: 's', weekly: weekdays([['10:00', '17:00']]) }] }, '/seasons/0', /not inside coverage/],
    ['overlapping seasons', { seasons: [{ from: '2026-03-01', to: '2026-06-01', name: 'a', weekly: weekdays([['10:00', '17:00']]) }, { from: '2026-05-01', to: '2026-07-01', name: 'b', weekly: weekdays([['10:00', '17:00']]) }] }, '/seasons/1', /overlaps/],
    ['24:00 start', { special_sessions: { '2026-07-02': { segments: [['24:00', '24:00']], name: 'z' } } }, '/special_sessions/2026-07-02/segments/0/0', /cannot start at 24:00/],
  ]
  for (const [name, overrides, path, reason] of cases) {
    test(name, () => {
      const found = problems(overrides)
      const match = found.find((p) => p.path === path)
      expect(match, `${JSON.stringify(found)}`).toBeDefined()
      expect(match!.reason).toMatch(reason)
    })
  }

  test('mic must match the file name', () => {
    expect(problems({}, 'XNAS')[0]).toMatchObject({ path: '/mic' })
  })

  test('early close is checked against the season in force', () => {
    const seasons = [{ from: '2026-03-01', to: '2026-06-30', name: 'short', weekly: weekdays([['10:00', '12:00']]) }]
    expect(problems({ seasons, early_closes: { '2026-04-01': { close: '13:00', name: 'x' } } }).map((p) => p.path)).toContain('/early_closes/2026-04-01/close')
    expect(problems({ seasons, early_closes: { '2026-04-01': { close: '11:00', name: 'x' } } })).toEqual([])
  })

  const ruleSource = [{ covers: 'holidays 2026 (rule: the statute)', publisher: 'test' }]
  test('a rule-derived year named in a source is valid', () => {
    expect(problems({ schema_version: 2, basis: { '2026': 'rule' }, sources: ruleSource })).toEqual([])
    expect(problems({ schema_version: 2, basis: { '2026': 'rule' }, sources: [{ covers: 'holidays', publisher: 'test', note: 'statute applied to 2026' }] })).toEqual([])
  })

  test('a provisional date on a day the template closes loads with a warning; on a trading day without', () => {
    const base = { schema_version: 2 as const, basis: { '2026': 'rule' as const }, sources: ruleSource }
    const saturday = validateSchedule(scheduleFixture({ ...base, provisional: { '2026-07-04': { name: 'Possible session', why: 'hours not announced' } } }), 'XNYS')
    expect(saturday.ok).toBe(true)
    if (saturday.ok) expect(saturday.warnings).toEqual([{ path: '/provisional/2026-07-04', reason: expect.stringMatching(/no regular session.*closed day UNKNOWN/) }])
    const thursday = validateSchedule(scheduleFixture({ ...base, provisional: { '2026-07-02': { name: 'Possible closure', why: 'not announced' } } }), 'XNYS')
    expect(thursday.ok && thursday.warnings).toEqual([])
  })
})
