import { describe, expect, test } from 'bun:test'
import { CalendarRegistry } from '../../src/calendar/registry'
import { startCalendarJobs } from '../../src/calendar/jobs'
import { statusAt } from '../../src/calendar/engine'
import { memoryLogger } from '../../src/log'
import { scheduleDir, scheduleFixture, writeSchedule } from '../helpers/calendars'
import { FakeClock } from '../helpers/app'

const clock = new FakeClock(Date.parse('2026-03-02T15:00:00Z'))
const noon = Date.parse('2026-07-03T16:00:00Z')

function registry(dir: string) {
  const log = memoryLogger()
  const calendars = new CalendarRegistry(dir, log, clock)
  return { calendars, log }
}

describe('calendar reload', () => {
  test('boot: a valid file loads; an invalid or missing one answers UNKNOWN and is logged with file, path and reason', () => {
    const dir = scheduleDir([scheduleFixture(), scheduleFixture({ mic: 'XNAS', sameAs: 'https://x/#XNAS', weekly: { mon: [['9:30', '16:00']] } as never })])
    const { calendars, log } = registry(dir)
    const report = calendars.reload('boot')
    expect(report.results.find((r) => r.mic === 'XNYS')!.outcome).toBe('loaded')
    const xnas = report.results.find((r) => r.mic === 'XNAS')!
    expect(xnas.outcome).toBe('rejected')
    expect(calendars.calendar('XNAS')).toBeNull()
    expect(calendars.snapshot().entries.get('XNAS')!.state).toBe('invalid')
    expect(report.results.find((r) => r.mic === 'XLON')!.outcome).toBe('missing')
    const logged = log.lines.find((line) => line.msg === 'calendar rejected' && line.mic === 'XNAS')!
    expect(logged).toMatchObject({ file: 'XNAS.json' })
    expect(String(logged.json_path)).toStartWith('/weekly')
    expect(String(logged.reason).length).toBeGreaterThan(3)
  })

  test("the validator's warnings are logged and the file loads", () => {
    const provisional = { '2026-07-04': { name: 'Possible session', why: 'hours not announced' } }
    const dir = scheduleDir([scheduleFixture({ schema_version: 2, basis: { '2026': 'rule' }, sources: [{ covers: 'holidays 2026 (rule)', publisher: 'test' }], provisional })])
    const { calendars, log } = registry(dir)
    expect(calendars.reload('boot').results.find((r) => r.mic === 'XNYS')!.outcome).toBe('loaded')
    expect(log.lines.filter((line) => line.msg === 'calendar data warning')).toEqual([
      expect.objectContaining({ level: 'warn', mic: 'XNYS', file: 'XNYS.json', json_path: '/provisional/2026-07-04', reason: expect.stringMatching(/no regular session/) }),
    ])
  })

  test('a valid edit is served after reload; an invalid edit keeps the old version and is reported', () => {
    const dir = scheduleDir([scheduleFixture()])
    const { calendars } = registry(dir)
    calendars.reload('boot')
    expect(statusAt(calendars.calendar('XNYS')!, noon).status).toBe('OPEN')

    writeSchedule(dir, scheduleFixture({ data_version: '2026.1.1', holidays: { '2026-07-03': 'Independence Day (observed)' } }))
    const ok = calendars.reload('admin')
    expect(ok.results.find((r) => r.mic === 'XNYS')).toMatchObject({ outcome: 'loaded', data_version: '2026.1.1', previous_data_version: '2026.1.0' })
    expect(statusAt(calendars.calendar('XNYS')!, noon).status).toBe('CLOSED')

    writeSchedule(dir, scheduleFixture({ data_version: '2026.1.2', holidays: { '2026-07-03': 'x' }, early_closes: { '2026-07-03': { close: '13:00', name: 'y' } } }))
    const bad = calendars.reload('admin')
    const result = bad.results.find((r) => r.mic === 'XNYS')!
    expect(bad.ok).toBe(false)
    expect(result.outcome).toBe('rejected')
    expect(result.data_version).toBe('2026.1.1')
    expect(result.problems![0]!.path).toBe('/early_closes/2026-07-03')
    expect(calendars.calendar('XNYS')!.dataVersion).toBe('2026.1.1')

    writeSchedule(dir, '{ not json', 'XNYS')
    expect(calendars.reload('admin').results.find((r) => r.mic === 'XNYS')!.outcome).toBe('rejected')
    expect(calendars.calendar('XNYS')!.dataVersion).toBe('2026.1.1')
  })

  test('an unchanged file is not recompiled; a changed file with the same data_version loads with a warning', () => {
    const dir = scheduleDir([scheduleFixture()])
    const { calendars } = registry(dir)
    calendars.reload('boot')
    const before = calendars.calendar('XNYS')
    expect(calendars.reload('admin').results.find((r) => r.mic === 'XNYS')!.outcome).toBe('unchanged')
    expect(calendars.calendar('XNYS')).toBe(before!)
    writeSchedule(dir, scheduleFixture({ holidays: { '2026-07-03': 'x' } }))
    expect(calendars.reload('admin').results.find((r) => r.mic === 'XNYS')!.warning).toMatch(/data_version/)
  })

  test('the directory watch picks up an editor-style save (write temp, rename)', async () => {
    const dir = scheduleDir([scheduleFixture()])
    const { calendars, log } = registry(dir)
    calendars.reload('boot')
    const stop = startCalendarJobs({ calendars, log, clock, healthExtras: [] }, { debounceMs: 50 })
    try {
      writeSchedule(dir, scheduleFixture({ data_version: '2026.1.5' }))
      const deadline = Date.now() + 5000
      while (calendars.calendar('XNYS')!.dataVersion !== '2026.1.5' && Date.now() < deadline) await Bun.sleep(25)
      expect(calendars.calendar('XNYS')!.dataVersion).toBe('2026.1.5')
    } finally {
      stop()
    }
  })

  test('SIGHUP reloads', async () => {
    const dir = scheduleDir([scheduleFixture()])
    const { calendars, log } = registry(dir)
    calendars.reload('boot')
    const stop = startCalendarJobs({ calendars, log, clock, healthExtras: [] }, { debounceMs: 60_000 })
    try {
      writeSchedule(dir, scheduleFixture({ data_version: '2026.1.7' }))
      process.emit('SIGHUP')
      expect(calendars.calendar('XNYS')!.dataVersion).toBe('2026.1.7')
    } finally {
      stop()
    }
  })

  test('a SIGHUP that changed nothing logs one info line "no change", not the problems already logged; a change is logged once, with its dates (issue 24 item 19, issue 30)', async () => {
    // XNYS valid, XNAS invalid, every other venue missing: the boot logs each problem once.
    const dir = scheduleDir([scheduleFixture(), scheduleFixture({ mic: 'XNAS', sameAs: 'https://x/#XNAS', weekly: { mon: [['9:30', '16:00']] } as never })])
    writeSchedule(dir, '{}', 'ZZZZ')
    const { calendars, log } = registry(dir)
    calendars.reload('boot')
    const loud = () => log.lines.filter((line) => line.level !== 'debug')
    expect(loud().filter((line) => line.msg === 'calendar rejected' && line.mic === 'XNAS').length).toBeGreaterThan(0)
    expect(loud().some((line) => line.msg === 'calendar rejected' && line.mic === 'XLON')).toBe(true)
    expect(loud().some((line) => line.msg === 'schedule file ignored' && line.mic === 'ZZZZ')).toBe(true)
    const stop = startCalendarJobs({ calendars, log, clock, healthExtras: [] }, { debounceMs: 60_000 })
    try {
      const before = log.lines.length
      process.emit('SIGHUP')
      process.emit('SIGHUP')
      const after = log.lines.slice(before)
      // One line an operator sees per SIGHUP, and nothing else (the known problems stay quiet).
      expect(after.filter((line) => line.level !== 'debug' && line.msg !== 'calendar horizon')).toEqual([expect.objectContaining({ level: 'info', msg: 'calendar reload: no change', trigger: 'SIGHUP' }), expect.objectContaining({ level: 'info', msg: 'calendar reload: no change', trigger: 'SIGHUP' })])
      expect(calendars.snapshot().entries.get('XNAS')!.state).toBe('invalid')
      // A changed file is logged (once), and so is a new problem; the unchanged ones stay quiet.
      writeSchedule(dir, scheduleFixture({ data_version: '2026.1.9', holidays: { '2026-07-03': 'Independence Day (observed)' } }))
      writeSchedule(dir, scheduleFixture({ mic: 'XLON', sameAs: 'https://x/#XLON', weekly: { mon: [['8:00', '16:30']] } as never }))
      const edited = log.lines.length
      process.emit('SIGHUP')
      const changes = log.lines.slice(edited).filter((line) => line.level !== 'debug')
      expect(changes.filter((line) => line.msg === 'calendar loaded').map((line) => line.mic)).toEqual(['XNYS'])
      expect(new Set(changes.filter((line) => line.msg === 'calendar rejected').map((line) => line.mic))).toEqual(new Set(['XLON']))
      expect(changes.some((line) => line.mic === 'XNAS' || line.mic === 'ZZZZ')).toBe(false)
      // The reload's one summary line names the venue and the changed date from the day-by-day comparison.
      const summary = changes.filter((line) => String(line.msg).startsWith('calendar reload'))
      expect(summary).toEqual([expect.objectContaining({ level: 'info', msg: 'calendar reload: 1 venue changed', trigger: 'SIGHUP', changes: { XNYS: '2026.1.0 → 2026.1.9; 1 date: 2026-07-03 holiday_added (Independence Day (observed))' } })])
    } finally {
      stop()
    }
  })

  test('the horizon alarm warns 90 days ahead, in the log and in health extras', () => {
    const dir = scheduleDir([scheduleFixture()])
    const { calendars, log } = registry(dir)
    calendars.reload('boot')
    const extras: Array<() => Record<string, unknown>> = []
    const late = new FakeClock(Date.parse('2026-11-01T00:00:00Z'))
    const stop = startCalendarJobs({ calendars, log, clock: late, healthExtras: extras }, { debounceMs: 60_000 })
    stop()
    const warning = log.lines.find((line) => line.msg === 'calendar horizon' && line.mic === 'XNYS')
    expect(warning).toMatchObject({ problem: 'coverage_ends_soon', coverage_to: '2026-12-31' })
    const health = extras[0]!() as { calendar_warnings: { mic: string }[] }
    expect(health.calendar_warnings.map((w) => w.mic)).toContain('XNYS')
    // Far from the horizon: no warning for XNYS.
    const early = new CalendarRegistry(dir, memoryLogger(), clock)
    early.reload('boot')
    const quiet: Array<() => Record<string, unknown>> = []
    startCalendarJobs({ calendars: early, log: memoryLogger(), clock, healthExtras: quiet }, { debounceMs: 60_000 })()
    const quietWarnings = (quiet[0]!() as { calendar_warnings?: { mic: string; problem: string }[] }).calendar_warnings ?? []
    expect(quietWarnings.filter((w) => w.mic === 'XNYS')).toEqual([])
  })
})
