// Dated facts for XBSP, XPAR and XJSE through 2027 (schema version 2 files), taken from the
// holiday laws, exchange practice and notices named in each file's sources, plus a walk over every
// day from 2026-11-23 to 2027-12-31 that must answer OPEN or CLOSED except on the provisional days.
import { describe, expect, test } from 'bun:test'
// statusAt through the listed-day check: each fact is also checked against the day /v5/calendar lists.
import { statusAt } from '../helpers/listed-days'
import { dateOfDayNumber, dayNumber, localToUtc, parseLocalTime } from '../../src/calendar/zone'
import { sharedCalendars } from '../helpers/app'

const calendars = sharedCalendars()
const calendarOf = (mic: string) => {
  const calendar = calendars.calendar(mic)
  if (!calendar) throw new Error(`${mic} did not load`)
  return calendar
}
/** The instant of a local wall time at a venue. */
const localInstant = (mic: string, date: string, time: string) => localToUtc(calendarOf(mic).timezone, dayNumber(date), parseLocalTime(time))
const statusOf = (mic: string, date: string, time: string) => statusAt(calendarOf(mic), localInstant(mic, date, time))

// [mic, local date, local time, expected, why]
const FACTS: [string, string, string, 'OPEN' | 'CLOSED', string][] = [
  // B3: holiday law and B3's calendar practice; US-DST season grids.
  ['XBSP', '2026-11-20', '12:00', 'CLOSED', 'Black Consciousness Day (national, Lei 14.759/2023)'],
  ['XBSP', '2026-11-24', '17:30', 'OPEN', '10:00-17:55 grid while the US is on standard time'],
  ['XBSP', '2026-12-24', '12:00', 'CLOSED', 'Christmas Eve, no trading'],
  ['XBSP', '2026-12-31', '12:00', 'CLOSED', "New Year's Eve, no trading"],
  ['XBSP', '2027-01-25', '12:00', 'OPEN', 'Sao Paulo anniversary: B3 trades on city holidays since 2022'],
  ['XBSP', '2027-02-08', '12:00', 'CLOSED', 'Carnival Monday'],
  ['XBSP', '2027-02-09', '12:00', 'CLOSED', 'Carnival Tuesday'],
  ['XBSP', '2027-02-10', '12:59', 'CLOSED', 'Ash Wednesday: late open 13:00'],
  ['XBSP', '2027-02-10', '13:00', 'OPEN', 'Ash Wednesday: open from 13:00'],
  ['XBSP', '2027-03-12', '17:30', 'OPEN', 'last Friday on the standard-time grid'],
  ['XBSP', '2027-03-16', '16:54', 'OPEN', 'daylight-saving grid, before 16:55'],
  ['XBSP', '2027-03-16', '17:30', 'CLOSED', 'daylight-saving grid ends 16:55'],
  ['XBSP', '2027-03-26', '12:00', 'CLOSED', 'Good Friday'],
  ['XBSP', '2027-05-27', '12:00', 'CLOSED', 'Corpus Christi'],
  ['XBSP', '2027-07-09', '12:00', 'OPEN', 'Sao Paulo state holiday: normal session'],
  ['XBSP', '2027-11-05', '17:30', 'CLOSED', 'still the daylight-saving grid before the US change'],
  ['XBSP', '2027-11-09', '17:30', 'OPEN', 'standard-time grid after the US change'],
  ['XBSP', '2027-11-15', '12:00', 'CLOSED', 'Proclamation of the Republic'],
  ['XBSP', '2027-12-24', '12:00', 'CLOSED', 'Christmas Eve, no trading'],
  ['XBSP', '2027-12-31', '12:00', 'CLOSED', "New Year's Eve, no trading"],
  // Euronext Paris: Euronext's fixed closing days.
  ['XPAR', '2026-12-25', '12:00', 'CLOSED', 'Christmas Day (IF251107CADE)'],
  ['XPAR', '2026-12-28', '17:29', 'OPEN', 'ordinary day between the half days'],
  ['XPAR', '2027-01-01', '12:00', 'CLOSED', "New Year's Day"],
  ['XPAR', '2027-03-26', '12:00', 'CLOSED', 'Good Friday'],
  ['XPAR', '2027-03-29', '12:00', 'CLOSED', 'Easter Monday'],
  ['XPAR', '2027-05-03', '12:00', 'OPEN', 'Labour Day fell on Saturday: no substitute'],
  ['XPAR', '2027-12-27', '12:00', 'OPEN', 'Christmas and Boxing Day fell on the weekend: no substitute'],
  ['XPAR', '2027-06-15', '17:30', 'CLOSED', 'continuous trading ends 17:30'],
  // JSE: Public Holidays Act, Sunday -> Monday.
  ['XJSE', '2026-12-16', '12:00', 'CLOSED', 'Day of Reconciliation'],
  ['XJSE', '2026-12-25', '12:00', 'CLOSED', 'Christmas Day'],
  ['XJSE', '2026-12-28', '12:00', 'OPEN', 'Day of Goodwill fell on Saturday: not replaced'],
  ['XJSE', '2027-01-01', '12:00', 'CLOSED', "New Year's Day"],
  ['XJSE', '2027-03-22', '12:00', 'CLOSED', 'Human Rights Day observed (21 Mar is a Sunday)'],
  ['XJSE', '2027-03-29', '12:00', 'CLOSED', 'Family Day'],
  ['XJSE', '2027-05-03', '12:00', 'OPEN', "Workers' Day fell on Saturday: not replaced"],
  ['XJSE', '2027-08-09', '12:00', 'CLOSED', "National Women's Day"],
  ['XJSE', '2027-12-27', '12:00', 'CLOSED', 'Day of Goodwill observed (26 Dec is a Sunday)'],
  ['XJSE', '2027-12-28', '16:59', 'OPEN', 'ordinary day, session to 17:00'],
]

describe('2027 calendar facts: XBSP, XPAR, XJSE', () => {
  for (const [mic, date, time, expected, why] of FACTS) {
    test(`${mic} ${date} ${time} local is ${expected}: ${why}`, () => {
      expect(statusOf(mic, date, time).status).toBe(expected)
    })
  }
})

// The days that wait on an announcement (see each file's provisional map and sources).
const PROVISIONAL: Record<string, string[]> = {
  // 2026-11-03 (past) is entered by B3's grid practice and the JSE year-end days as early closes since
  // data_version 2026.11.3 (see facts-2028-americas.test.ts); B3's later grid switch days wait on its circulars.
  XBSP: ['2027-03-15', '2027-11-08', '2028-03-13', '2028-11-06'],
  // Euronext's year-end half days are entered as early closes since issue 25 (facts-2028-euronext.test.ts).
  XPAR: [],
  XJSE: [],
}

describe('provisional days answer UNKNOWN all day, and only that day', () => {
  for (const [mic, dates] of Object.entries(PROVISIONAL)) {
    test(`${mic}: the file's provisional dates are exactly ${dates.join(', ')}`, () => {
      expect(Object.keys(calendarOf(mic).file.provisional ?? {}).sort()).toEqual(dates)
    })
    for (const date of dates) {
      test(`${mic} ${date} is UNKNOWN from local midnight to midnight; the days around it are not`, () => {
        for (const time of ['00:00', '11:00', '23:59']) {
          const answer = statusOf(mic, date, time)
          expect(answer.status, `${date} ${time}`).toBe('UNKNOWN')
          expect(answer.reason).toStartWith('provisional:')
        }
        const day = dayNumber(date)
        // The day after 2027-12-31 is past coverage (UNKNOWN for that reason), so only neighbours inside it.
        const neighbours = [day - 1, day + 1].filter((d) => d <= dayNumber(calendarOf(mic).coverageTo!)).map(dateOfDayNumber)
        expect(neighbours.length).toBeGreaterThan(0)
        for (const neighbour of neighbours) {
          expect(['OPEN', 'CLOSED'], `${neighbour} 12:00`).toContain(statusOf(mic, neighbour, '12:00').status)
          expect(['OPEN', 'CLOSED'], `${neighbour} 23:59`).toContain(statusOf(mic, neighbour, '23:59').status)
        }
      })
    }
  }

  test('a weekday between provisional days answers normally (XPAR 2026-12-30 trades at noon)', () => {
    expect(statusOf('XPAR', '2026-12-30', '12:00').status).toBe('OPEN')
    expect(statusOf('XJSE', '2026-12-30', '12:00').status).toBe('OPEN')
    expect(statusOf('XBSP', '2026-11-04', '17:30').status).toBe('OPEN')
  })
})

describe('every day from 2026-11-23 to 2027-12-31 answers from the calendar', () => {
  const first = dayNumber('2026-11-23')
  const last = dayNumber('2027-12-31')
  for (const mic of Object.keys(PROVISIONAL)) {
    test(`${mic}: OPEN or CLOSED at 03:00, 12:00 and 16:30 local, except on provisional days`, () => {
      const provisional = new Set(PROVISIONAL[mic])
      const unexpected: string[] = []
      let open = 0
      for (let day = first; day <= last; day++) {
        const date = dateOfDayNumber(day)
        for (const time of ['03:00', '12:00', '16:30']) {
          const { status } = statusOf(mic, date, time)
          if (status === 'OPEN') open++
          const wanted = provisional.has(date) ? status === 'UNKNOWN' : status !== 'UNKNOWN'
          if (!wanted) unexpected.push(`${date} ${time} ${status}`)
        }
      }
      expect(unexpected).toEqual([])
      expect(open).toBeGreaterThan(0)
    })
  }
})
