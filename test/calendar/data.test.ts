// For every venue, from its own file: holidays closed at local noon, each session boundary of a
// regular day (one minute inside open, one minute outside closed), lunch breaks closed, every
// early close and late open honoured, weekends closed, UNKNOWN one day past coverage.
import { describe, expect, test } from 'bun:test'
import { statusAt } from '../../src/calendar/engine'
import { planDay } from '../../src/calendar/day-plan'
import { SUPPORTED_MICS } from '../../src/calendar/mics'
import { dayNumber, localToUtc, parseLocalTime, MINUTE_MS } from '../../src/calendar/zone'
import type { CompiledCalendar } from '../../src/calendar/compile'
import { sharedCalendars } from '../helpers/app'

const calendars = sharedCalendars()
const status = (calendar: CompiledCalendar, day: number, minutes: number) => statusAt(calendar, localToUtc(calendar.timezone, day, 0) + minutes * MINUTE_MS).status

/** One regular (template) day per weekday, away from DST changes, inside coverage. */
function regularDays(calendar: CompiledCalendar): number[] {
  const found = new Map<string, number>()
  const from = dayNumber(calendar.coverageFrom!)
  const to = dayNumber(calendar.coverageTo!)
  for (let day = from + 1; day < to && found.size < 7; day++) {
    const plan = planDay(calendar.file, day)
    const previous = planDay(calendar.file, day - 1)
    const next = planDay(calendar.file, day + 1)
    const offsets = new Set([day - 1, day, day + 1, day + 2].map((d) => localToUtc(calendar.timezone, d, 0) - d * 86_400_000))
    if (offsets.size !== 1) continue // skip DST change days
    if ((plan.rule === 'regular' || plan.rule === 'weekend') && previous.rule !== 'special_session' && next.rule !== 'special_session' && !found.has(plan.weekday)) found.set(plan.weekday, day)
  }
  return [...found.values()]
}

describe('every venue loads', () => {
  test('every supported venue has a valid calendar, and every loaded calendar is a supported venue', () => {
    const invalid = SUPPORTED_MICS.filter((mic) => calendars.calendar(mic) === null)
    expect(invalid).toEqual([])
    expect([...calendars.snapshot().entries.keys()].sort()).toEqual([...SUPPORTED_MICS].sort())
  })
})

for (const mic of SUPPORTED_MICS) {
  describe(mic, () => {
    const calendar = calendars.calendar(mic)
    if (!calendar) {
      test.skip('no valid calendar', () => {})
      return
    }
    if (calendar.alwaysOpen) {
      test('24/7: open every minute, including the last minute of the UTC day, with no horizon', () => {
        for (const iso of ['2026-12-31T23:59:00Z', '2026-03-08T07:30:00Z', '2035-06-01T12:00:00Z', '2024-02-29T23:59:59Z']) expect(statusAt(calendar, Date.parse(iso)).status).toBe('OPEN')
      })
      return
    }
    const file = calendar.file

    test('local noon on every holiday is CLOSED', () => {
      for (const date of Object.keys(file.holidays)) expect([date, status(calendar, dayNumber(date), 720)]).toEqual([date, 'CLOSED'])
    })

    test('regular days: one minute inside each session OPEN, one minute outside CLOSED, breaks CLOSED, weekends CLOSED', () => {
      const days = regularDays(calendar)
      expect(days.length).toBe(7)
      for (const day of days) {
        const plan = planDay(file, day)
        if (plan.segments.length === 0) {
          expect(status(calendar, day, 720)).toBe('CLOSED')
          continue
        }
        const continuesFromYesterday = planDay(file, day - 1).segments.at(-1)?.[1] === 1440
        const continuesIntoTomorrow = planDay(file, day + 1).segments[0]?.[0] === 0
        plan.segments.forEach(([start, end], index) => {
          const label = `${plan.date} ${start}-${end}`
          expect([label, status(calendar, day, start + 1)]).toEqual([label, 'OPEN'])
          expect([label, status(calendar, day, end - 1)]).toEqual([label, 'OPEN'])
          if (!(start === 0 && continuesFromYesterday)) expect([label, status(calendar, day, start - 1)]).toEqual([label, 'CLOSED'])
          if (!(end === 1440 && continuesIntoTomorrow)) expect([label, status(calendar, day, end + 1)]).toEqual([label, 'CLOSED'])
          const next = plan.segments[index + 1]
          if (next) expect([label, status(calendar, day, Math.floor((end + next[0]) / 2))]).toEqual([label, 'CLOSED'])
        })
      }
    })

    test('every early close and late open is honoured', () => {
      for (const [date, { close }] of Object.entries(file.early_closes)) {
        const minutes = parseLocalTime(close)
        expect([date, status(calendar, dayNumber(date), minutes - 1)]).toEqual([date, 'OPEN'])
        expect([date, status(calendar, dayNumber(date), minutes + 1)]).toEqual([date, 'CLOSED'])
      }
      for (const [date, { open }] of Object.entries(file.late_opens)) {
        const minutes = parseLocalTime(open)
        expect([date, status(calendar, dayNumber(date), minutes - 1)]).toEqual([date, 'CLOSED'])
        expect([date, status(calendar, dayNumber(date), minutes + 1)]).toEqual([date, 'OPEN'])
      }
      for (const [date, { segments }] of Object.entries(file.special_sessions)) {
        for (const [start] of segments) expect([date, status(calendar, dayNumber(date), parseLocalTime(start) + 1)]).toEqual([date, 'OPEN'])
      }
    })

    test('UNKNOWN one day past coverage', () => {
      expect(status(calendar, dayNumber(file.coverage!.to) + 1, 720)).toBe('UNKNOWN')
      expect(status(calendar, dayNumber(file.coverage!.from) - 1, 720)).toBe('UNKNOWN')
    })
  })
}

describe('venue rules the public implementation got wrong', () => {
  test('CME venues: closed Friday 16:00 CT to Sunday 17:00 CT and during the daily 16:00-17:00 CT halt', () => {
    for (const mic of ['XCBT', 'XNYM']) {
      const calendar = calendars.calendar(mic)!
      expect(statusAt(calendar, Date.parse('2026-03-13T20:59:00Z')).status).toBe('OPEN') // Fri 15:59 CDT
      expect(statusAt(calendar, Date.parse('2026-03-13T21:01:00Z')).status).toBe('CLOSED') // Fri 16:01 CDT
      expect(statusAt(calendar, Date.parse('2026-03-14T18:00:00Z')).status).toBe('CLOSED') // Saturday
      expect(statusAt(calendar, Date.parse('2026-03-15T21:59:00Z')).status).toBe('CLOSED') // Sun 16:59 CDT
      expect(statusAt(calendar, Date.parse('2026-03-15T22:01:00Z')).status).toBe('OPEN') // Sun 17:01 CDT
      expect(statusAt(calendar, Date.parse('2026-03-17T21:30:00Z')).status).toBe('CLOSED') // Tue 16:30 CDT halt
      expect(statusAt(calendar, Date.parse('2026-03-17T22:01:00Z')).status).toBe('OPEN') // Tue 17:01 CDT
      expect(statusAt(calendar, Date.parse('2026-03-18T05:00:00Z')).status).toBe('OPEN') // overnight
    }
  })

  test('XDFM trades Monday to Friday', () => {
    const calendar = calendars.calendar('XDFM')
    expect(calendar).not.toBeNull()
    const weekly = calendar!.file.weekly
    for (const day of ['mon', 'tue', 'wed', 'thu', 'fri'] as const) expect(weekly[day].length).toBeGreaterThan(0)
    expect(weekly.sat).toEqual([])
    expect(weekly.sun).toEqual([])
  })

  test('XSAU trades Sunday to Thursday', () => {
    const calendar = calendars.calendar('XSAU')
    expect(calendar).not.toBeNull()
    const weekly = calendar!.file.weekly
    for (const day of ['sun', 'mon', 'tue', 'wed', 'thu'] as const) expect(weekly[day].length).toBeGreaterThan(0)
    expect(weekly.fri).toEqual([])
    expect(weekly.sat).toEqual([])
  })
})
