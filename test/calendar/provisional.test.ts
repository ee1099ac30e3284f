// Provisional dates (schedule schema version 2): UNKNOWN all day with the reason, only on that
// local date; next open/close across one flagged; schedule, historical, horizon and basis views.
import { describe, expect, test } from 'bun:test'
import { cpSync, readdirSync, rmSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { basisReport } from '../../src/calendar/basis'
import { nextCloseBoundary, nextOpenBoundary, statusAt } from '../../src/calendar/engine'
import { reconstruct } from '../../src/calendar/historical'
import { PROVISIONAL_WARNING_DAYS, venueWarnings } from '../../src/calendar/horizon'
import { SUPPORTED_MICS } from '../../src/calendar/mics'
import { scheduleView } from '../../src/calendar/schedule'
import { runCalendarsCommand } from '../../src/cli/calendars'
import { tempDir } from '../helpers/app'
import { compiledFixture, scheduleFixture, weekdays, writeSchedule } from '../helpers/calendars'

const at = (iso: string) => Date.parse(iso)
const iso = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString())
const WHY = 'the exchange announces it in December'

// Test Exchange (New York, 09:30-16:00 Mon-Fri), Thursday 2026-07-02 provisional.
const version2 = {
  schema_version: 2 as const,
  basis: { '2026': 'rule' as const },
  sources: [{ covers: 'holidays 2026 (rule)', publisher: 'test' }],
  basis_exceptions: { '2026-07-03': 'published' as const },
  holidays: { '2026-07-03': 'Independence Day observed', '2026-12-25': 'Christmas' },
  early_closes: { '2026-11-27': { close: '13:00', name: 'Day after Thanksgiving' } },
  provisional: { '2026-07-02': { name: 'Possible closure', why: WHY }, '2026-12-10': { name: 'Possible closure', why: WHY } },
}
const calendar = compiledFixture(version2)

describe('the engine on a provisional day', () => {
  test('UNKNOWN with the reason from local midnight to local midnight, and only then', () => {
    for (const instant of ['2026-07-02T04:00:00Z', '2026-07-02T14:00:00Z', '2026-07-02T21:00:00Z', '2026-07-03T03:59:59.999Z']) {
      const answer = statusAt(calendar, at(instant))
      expect(answer.status, instant).toBe('UNKNOWN')
      expect(answer.reason).toStartWith(`provisional: ${WHY}`)
    }
    expect(statusAt(calendar, at('2026-07-02T03:59:59.999Z'))).toEqual({ status: 'CLOSED', reason: 'after close' })
    expect(statusAt(calendar, at('2026-07-01T19:59:00Z')).status).toBe('OPEN')
    expect(statusAt(calendar, at('2026-07-03T04:00:00Z'))).toEqual({ status: 'CLOSED', reason: 'holiday: Independence Day observed' })
    expect(statusAt(calendar, at('2026-07-06T14:00:00Z')).status).toBe('OPEN')
  })

  test('next open across a provisional day is reported and flagged', () => {
    expect(nextOpenBoundary(calendar, at('2026-06-30T21:00:00Z'))).toEqual({ at: at('2026-07-01T13:30:00Z'), provisional: false })
    const across = nextOpenBoundary(calendar, at('2026-07-01T21:00:00Z'))!
    expect(iso(across.at)).toBe('2026-07-06T13:30:00.000Z')
    expect(across.provisional).toBe(true)
    // From inside the provisional day, too.
    expect(nextOpenBoundary(calendar, at('2026-07-02T15:00:00Z'))).toEqual({ at: at('2026-07-06T13:30:00Z'), provisional: true })
  })

  test('next close: flagged when found across a provisional day, or when the open run runs into one', () => {
    expect(nextCloseBoundary(calendar, at('2026-07-01T15:00:00Z'))).toEqual({ at: at('2026-07-01T20:00:00Z'), provisional: false })
    expect(nextCloseBoundary(calendar, at('2026-07-01T21:00:00Z'))).toEqual({ at: at('2026-07-06T20:00:00Z'), provisional: true })
    const roundTheClock = compiledFixture({ ...version2, weekly: weekdays([['00:00', '24:00']]), holidays: {}, early_closes: {}, basis_exceptions: {} })
    // Open all Wednesday; Thursday is provisional: the run ends at Thursday's local midnight, flagged.
    expect(nextCloseBoundary(roundTheClock, at('2026-07-01T15:00:00Z'))).toEqual({ at: at('2026-07-02T04:00:00Z'), provisional: true })
  })
})

describe('views', () => {
  test('/v5/schedule flags next_open and next_close found across a provisional day', () => {
    const identity = { mic: 'XNYS', name: 'Test Exchange', timezone: 'America/New_York' }
    const view = scheduleView(calendar, identity, at('2026-07-01T21:00:00Z'), null)
    expect(view).toMatchObject({ current_status: 'CLOSED', next_open: '2026-07-06T13:30:00.000Z', next_open_provisional: true, next_close_provisional: true })
    const inside = scheduleView(calendar, identity, at('2026-07-02T15:00:00Z'), null)
    expect(inside.current_status).toBe('UNKNOWN')
    expect(inside.reason).toStartWith('provisional:')
    const ordinary = scheduleView(calendar, identity, at('2026-06-29T15:00:00Z'), null)
    expect(ordinary).toMatchObject({ current_status: 'OPEN', next_open_provisional: false, next_close_provisional: false })
  })

  test('/v5/historical names the provisional rule and why', () => {
    const answer = reconstruct(calendar, { mic: 'XNYS', timezone: 'America/New_York' }, at('2026-07-02T15:00:00Z'), at('2026-06-01T00:00:00Z'), null)
    expect(answer.computed_status).toBe('UNKNOWN')
    expect(answer.reasoning).toMatchObject({ rule: 'provisional', rule_name: 'Possible closure', provisional_why: WHY, local_date: '2026-07-02' })
  })

  test('a provisional date within 30 days is a warning; further away it is not', () => {
    const warningsOn = (now: string) => venueWarnings(calendar, at(now)).filter((w) => w.problem === 'provisional_date_soon')
    expect(warningsOn('2026-06-01T12:00:00Z')).toEqual([])
    const soon = warningsOn('2026-06-10T12:00:00Z')
    expect(soon).toHaveLength(1)
    expect(soon[0]).toMatchObject({ mic: 'XNYS', date: '2026-07-02', days_left: 22 })
    expect(PROVISIONAL_WARNING_DAYS).toBe(30)
    expect(warningsOn('2026-07-03T12:00:00Z')).toEqual([])
  })

  test('dates are counted by basis: the year, its exceptions, and provisional dates apart', () => {
    expect(basisReport(calendar, at('2026-07-05T00:00:00Z'))).toEqual({ published: 1, rule: 2, provisional: 2, next_provisional: { date: '2026-12-10', name: 'Possible closure' }, passed_provisional: ['2026-07-02'] })
    expect(basisReport(calendar, at('2026-07-01T00:00:00Z')).passed_provisional).toEqual([])
    // A version 1 file: every entered date was published.
    expect(basisReport(compiledFixture({ holidays: { '2026-07-03': 'x' } }), 0)).toMatchObject({ published: 1, rule: 0, provisional: 0, next_provisional: null })
  })
})

describe('openbell calendars check', () => {
  const shipped = resolve(import.meta.dir, '../../schedules')
  function run(dir: string, now: string): { code: number; lines: string[] } {
    const lines: string[] = []
    const original = console.log
    console.log = (...parts: unknown[]) => void lines.push(parts.join(' '))
    try {
      return { code: runCalendarsCommand(['check', dir], dir, at(now)), lines }
    } finally {
      console.log = original
    }
  }

  test('fails on a directory that lacks venues, naming each', () => {
    const dir = tempDir()
    writeSchedule(dir, scheduleFixture({ ...version2, coverage: { from: '2026-01-01', to: '2026-12-31' } }))
    const { code, lines } = run(dir, '2026-06-10T12:00:00Z')
    expect(code).toBe(1)
    expect(lines.filter((line) => /^FAIL {2}[A-Z0-9]{4} {2}no /.test(line))).toHaveLength(SUPPORTED_MICS.length - 1)
    expect(lines.at(-1)).toBe(`1 valid, 0 invalid, ${SUPPORTED_MICS.length - 1} missing, 1 warnings`)
    expect(lines.find((line) => line.startsWith('ok    XNYS'))).toContain('dates: 1 published, 2 rule, 2 provisional  next provisional: 2026-07-02 (Possible closure)')
    expect(lines).toContainEqual(expect.stringMatching(/^WARN {2}XNYS {2}provisional_date_soon 2026-07-02: 22 days/))
  })

  test('fails on an ended coverage; warns on one ending within 90 days', () => {
    const dir = tempDir()
    cpSync(shipped, dir, { recursive: true })
    for (const name of readdirSync(dir)) if (!name.endsWith('.json')) rmSync(join(dir, name), { recursive: true })
    writeSchedule(dir, scheduleFixture({ coverage: { from: '2026-01-01', to: '2026-08-31' }, mic: 'XNYS' }))
    const before = run(dir, '2026-06-10T12:00:00Z')
    expect(before.lines).toContainEqual(expect.stringMatching(/^WARN {2}XNYS {2}coverage_ends_soon: 82 days/))
    expect(before.lines.some((line) => line.startsWith('FAIL  XNYS'))).toBe(false)
    const after = run(dir, '2026-09-02T12:00:00Z')
    expect(after.code).toBe(1)
    expect(after.lines).toContainEqual(expect.stringMatching(/^FAIL {2}XNYS {2}coverage ended 2026-08-31/))
  }, 30_000) // compiles the shipped calendars twice; slow on a loaded machine

  test("prints the validator's warnings: a provisional date on a day the template closes", () => {
    const dir = tempDir()
    writeSchedule(dir, scheduleFixture({ ...version2, provisional: { ...version2.provisional, '2026-07-04': { name: 'Possible session', why: WHY } } }))
    const { lines } = run(dir, '2026-06-01T12:00:00Z')
    expect(lines).toContainEqual(expect.stringMatching(/^WARN {2}XNYS {2}\S+XNYS\.json {2}\/provisional\/2026-07-04: 2026-07-04 has no regular session/))
    expect(lines.filter((line) => line.includes('/provisional/2026-07-02'))).toEqual([])
    expect(lines.at(-1)).toBe(`1 valid, 0 invalid, ${SUPPORTED_MICS.length - 1} missing, 1 warnings`)
  })

  test('warns about provisional dates that passed without being confirmed', () => {
    const dir = tempDir()
    writeSchedule(dir, scheduleFixture(version2))
    expect(run(dir, '2026-07-01T12:00:00Z').lines.filter((line) => line.includes('passed without confirmation'))).toEqual([])
    const { lines } = run(dir, '2026-07-10T12:00:00Z')
    expect(lines).toContainEqual(expect.stringMatching(/^WARN {2}XNYS {2}provisional dates passed without confirmation \(UNKNOWN in \/v5\/historical\): 2026-07-02;/))
  })
})
