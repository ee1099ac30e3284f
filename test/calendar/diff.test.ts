// The day-by-day comparison of a reload (src/calendar/diff.ts): each kind of change named, the
// day before and after given, coverage changes as ranges, and the fast path (only dated entries
// compared when the template is the same) agreeing with a full walk of every date.
import { describe, expect, test } from 'bun:test'
import { classifyDay, diffCalendars, describeChanges } from '../../src/calendar/diff'
import { calendarDay } from '../../src/calendar/days'
import { dayNumber } from '../../src/calendar/zone'
import { compiledFixture, weekdays } from '../helpers/calendars'
import type { ScheduleFile } from '../../src/calendar/schema'

const base: Partial<ScheduleFile> = {
  holidays: { '2026-07-03': 'Independence Day (observed)', '2026-12-25': 'Christmas' },
  early_closes: { '2026-11-27': { close: '13:00', name: 'Day after Thanksgiving' } },
  late_opens: { '2026-03-02': { open: '10:30', name: 'Systems upgrade' } },
}
const before = compiledFixture(base)

/** Every covered date compared, whatever the files say (the slow path), for checking the fast one. */
function fullWalk(a: ReturnType<typeof compiledFixture>, b: ReturnType<typeof compiledFixture>) {
  const found = []
  for (let day = dayNumber('2026-01-01'); day <= dayNumber('2026-12-31'); day++) {
    const change = classifyDay(calendarDay(a, day), calendarDay(b, day))
    if (change) found.push({ date: calendarDay(a, day).date, change })
  }
  return found
}

describe('diffCalendars', () => {
  test('a holiday added, removed and renamed; an early close moved and a late open removed: each date named with its day before and after', () => {
    const after = compiledFixture({
      data_version: '2026.1.1',
      holidays: { '2026-07-03': 'Independence Day', '2026-01-19': 'Martin Luther King Jr. Day' },
      early_closes: { '2026-11-27': { close: '13:30', name: 'Day after Thanksgiving' } },
      late_opens: {},
    })
    const changes = diffCalendars(before, after)
    expect(changes.map(({ date, change }) => ({ date, change }))).toEqual([
      { date: '2026-01-19', change: 'holiday_added' },
      { date: '2026-03-02', change: 'late_open_removed' },
      { date: '2026-07-03', change: 'holiday_renamed' },
      { date: '2026-11-27', change: 'early_close_moved' },
      { date: '2026-12-25', change: 'holiday_removed' },
    ])
    const added = changes[0]!
    expect(added.before).toMatchObject({ kind: 'regular', name: null })
    expect(added.after).toMatchObject({ kind: 'holiday', name: 'Martin Luther King Jr. Day', sessions: [] })
    expect(changes[3]!.before!.sessions[0]!.close_local).toBe('13:00')
    expect(changes[3]!.after!.sessions[0]!.close_local).toBe('13:30')
    // The fast path (only dated entries compared) finds what a walk of every date finds.
    expect(changes.map(({ date, change }) => ({ date, change }))).toEqual(fullWalk(before, after))
    expect(describeChanges(changes, 2)).toBe('5 dates: 2026-01-19 holiday_added (Martin Luther King Jr. Day), 2026-03-02 late_open_removed (Systems upgrade), and 3 more')
  })

  test('a provisional day confirmed as a holiday, and a special session added', () => {
    const provisional = compiledFixture({ ...base, schema_version: 2, basis: { '2026': 'published' }, provisional: { '2026-04-03': { name: 'Good Friday (expected)', why: 'the exchange has not announced it' } } })
    const confirmed = compiledFixture({ ...base, schema_version: 2, basis: { '2026': 'published' }, holidays: { ...base.holidays, '2026-04-03': 'Good Friday' }, special_sessions: { '2026-03-07': { segments: [['10:00', '12:00']], name: 'Saturday test session' } } })
    const changes = diffCalendars(provisional, confirmed)
    expect(changes.map(({ date, change }) => ({ date, change }))).toEqual([
      { date: '2026-03-07', change: 'special_session_added' },
      { date: '2026-04-03', change: 'provisional_confirmed' },
    ])
    expect(changes[1]!.before).toMatchObject({ kind: 'provisional', name: 'Good Friday (expected)' })
    expect(changes[1]!.after).toMatchObject({ kind: 'holiday', name: 'Good Friday' })
  })

  test('new weekly hours change every trading day (the full walk), and nothing else', () => {
    const later = compiledFixture({ ...base, weekly: weekdays([['09:30', '16:30']]) })
    const changes = diffCalendars(before, later)
    expect(new Set(changes.map((change) => change.change))).toEqual(new Set(['hours_changed']))
    // Every weekday of 2026 but the two holidays and the early close (the late open closes later too; it opens as before).
    expect(changes.length).toBe(261 - 3)
    expect(changes).toEqual(fullWalk(before, later).map(({ date, change }) => expect.objectContaining({ date, change })))
  })

  test('coverage extended: one range record and the notable days of the new range; reduced: one range record', () => {
    const longer = compiledFixture({ ...base, coverage: { from: '2026-01-01', to: '2027-12-31' }, holidays: { ...base.holidays, '2027-01-01': "New Year's Day" }, early_closes: { ...base.early_closes, '2027-11-26': { close: '13:00', name: 'Day after Thanksgiving' } } })
    expect(diffCalendars(before, longer).map(({ date, change, to }) => ({ date, change, ...(to ? { to } : {}) }))).toEqual([
      { date: '2027-01-01', change: 'coverage_extended', to: '2027-12-31' },
      { date: '2027-01-01', change: 'holiday_added' },
      { date: '2027-11-26', change: 'early_close_added' },
    ])
    expect(diffCalendars(longer, before).map(({ date, change, to }) => ({ date, change, to }))).toEqual([{ date: '2027-01-01', change: 'coverage_reduced', to: '2027-12-31' }])
  })

  test('a file whose dates are all the same (a note, a source, a version bump) changes nothing', () => {
    expect(diffCalendars(before, compiledFixture({ ...base, data_version: '2026.1.9', notes: 'a new note' }))).toEqual([])
  })
})
