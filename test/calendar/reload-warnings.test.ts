// A reload that refused a file shows in /v5/health until the file is fixed; a data_version that
// goes down loads with a warning.
import { describe, expect, test } from 'bun:test'
import { CalendarRegistry, compareDataVersions } from '../../src/calendar/registry'
import { startCalendarJobs } from '../../src/calendar/jobs'
import { memoryLogger } from '../../src/log'
import { scheduleDir, scheduleFixture, writeSchedule } from '../helpers/calendars'
import { FakeClock } from '../helpers/app'

const clock = new FakeClock(Date.parse('2026-03-02T15:00:00Z'))

describe('reload warnings', () => {
  test('a rejected file is in calendar_warnings until a valid file replaces it', () => {
    const dir = scheduleDir([scheduleFixture({ data_version: '2026.1.1' })])
    const log = memoryLogger()
    const calendars = new CalendarRegistry(dir, log, clock)
    calendars.reload('boot')
    const extras: Array<() => Record<string, unknown>> = []
    const stop = startCalendarJobs({ calendars, log, clock, healthExtras: extras }, { debounceMs: 60_000 })
    try {
      const rejectedFor = () => ((extras[0]!() as { calendar_warnings?: { mic: string; problem: string; in_force?: string; detail: string }[] }).calendar_warnings ?? []).filter((w) => w.problem === 'file_rejected')
      expect(rejectedFor()).toEqual([])
      writeSchedule(dir, scheduleFixture({ data_version: '2026.1.2', weekly: { mon: [['9:30', '16:00']] } as never }))
      calendars.reload('watch')
      expect(calendars.calendar('XNYS')!.dataVersion).toBe('2026.1.1')
      const [warning] = rejectedFor()
      expect(warning).toMatchObject({ mic: 'XNYS', problem: 'file_rejected', in_force: '2026.1.1' })
      expect(warning!.detail).toContain('XNYS.json was rejected')
      // Still rejected on the next reload: still warned.
      calendars.reload('SIGHUP')
      expect(rejectedFor()).toHaveLength(1)
      writeSchedule(dir, scheduleFixture({ data_version: '2026.1.3' }))
      calendars.reload('watch')
      expect(calendars.calendar('XNYS')!.dataVersion).toBe('2026.1.3')
      expect(rejectedFor()).toEqual([])
    } finally {
      stop()
    }
  })

  test('health names the reload generation, the latest load and each version in force; a rejected edit leaves the version', () => {
    const edits = new FakeClock(Date.parse('2026-03-02T15:00:00Z'))
    const dir = scheduleDir([scheduleFixture({ data_version: '2026.1.1' })])
    const log = memoryLogger()
    const calendars = new CalendarRegistry(dir, log, edits)
    calendars.reload('boot')
    const extras: Array<() => Record<string, unknown>> = []
    const stop = startCalendarJobs({ calendars, log, clock: edits, healthExtras: extras }, { debounceMs: 60_000 })
    type Versions = { generation: number; last_loaded_at: string | null; data_versions: Record<string, string | null> }
    const health = () => (extras[0]!() as { calendars: Versions }).calendars
    try {
      const atBoot = health()
      expect(atBoot).toMatchObject({ generation: 1, last_loaded_at: '2026-03-02T15:00:00.000Z' })
      expect(atBoot.data_versions.XNYS).toBe('2026.1.1')
      // Every supported MIC is named; one without a file has no version.
      expect(Object.keys(atBoot.data_versions).length).toBeGreaterThan(1)
      expect(Object.entries(atBoot.data_versions).filter(([mic]) => mic !== 'XNYS').every(([, version]) => version === null)).toBe(true)

      edits.set('2026-03-02T15:05:00.000Z')
      writeSchedule(dir, scheduleFixture({ data_version: '2026.1.2' }))
      calendars.reload('watch')
      expect(health()).toMatchObject({ generation: 2, last_loaded_at: '2026-03-02T15:05:00.000Z', data_versions: { XNYS: '2026.1.2' } })

      edits.set('2026-03-02T15:10:00.000Z')
      writeSchedule(dir, '{"data_version": "2026.1.3",')
      calendars.reload('SIGHUP')
      expect(health()).toMatchObject({ generation: 3, last_loaded_at: '2026-03-02T15:05:00.000Z', data_versions: { XNYS: '2026.1.2' } })
    } finally {
      stop()
    }
  })

  test('a lower data_version loads with a warning in the reload report and a warn log line', () => {
    const dir = scheduleDir([scheduleFixture({ data_version: '2026.10.0' })])
    const log = memoryLogger()
    const calendars = new CalendarRegistry(dir, log, clock)
    calendars.reload('boot')
    writeSchedule(dir, scheduleFixture({ data_version: '2026.9.5' }))
    const report = calendars.reload('watch')
    const result = report.results.find((r) => r.mic === 'XNYS')!
    expect(result.outcome).toBe('loaded')
    expect(result.warning).toContain('went down from 2026.10.0 to 2026.9.5')
    expect(log.lines.find((line) => line.msg === 'calendar loaded' && line.data_version === '2026.9.5')).toMatchObject({ level: 'warn' })
  })

  test('data versions compare part by part as numbers', () => {
    expect(compareDataVersions('2026.10.0', '2026.9.9')).toBeGreaterThan(0)
    expect(compareDataVersions('2026.1.10', '2026.1.9')).toBeGreaterThan(0)
    expect(compareDataVersions('2026.1.1', '2026.1.1')).toBe(0)
  })
})
