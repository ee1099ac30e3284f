// Dated facts for the Euronext cash books (XAMS, XBRU, XLIS, XDUB, XPAR, XMIL), London, SIX and
// Nasdaq Stockholm/Helsinki through 2028 (issue 25), from the notices and rules named in each
// file's sources and in docs/calendars/euronext-2028.md; plus a walk over 2027-2028 for these venues.
import { describe, expect, test } from 'bun:test'
import { statusAt } from '../../src/calendar/engine'
import { dateOfDayNumber, dayNumber, localToUtc, parseLocalTime } from '../../src/calendar/zone'
import { sharedCalendars } from '../helpers/app'

const calendars = sharedCalendars()
const calendarOf = (mic: string) => {
  const calendar = calendars.calendar(mic)
  if (!calendar) throw new Error(`${mic} did not load`)
  return calendar
}
const localStatus = (mic: string, date: string, time: string) =>
  statusAt(calendarOf(mic), localToUtc(calendarOf(mic).timezone, dayNumber(date), parseLocalTime(time)))

type Expected = 'OPEN' | 'CLOSED'
// [mic, local date, local time, expected, why]
const LOCAL_FACTS: [string, string, string, Expected, string][] = [
  // Euronext Amsterdam: Euronext's calendar, Dutch holidays trade, half days to 13:55.
  ['XAMS', '2026-06-15', '08:59', 'CLOSED', 'pre-opening call before 09:00'],
  ['XAMS', '2026-06-15', '09:00', 'OPEN', 'continuous trading from 09:00'],
  ['XAMS', '2026-06-15', '17:29', 'OPEN', 'continuous trading to 17:30'],
  ['XAMS', '2026-06-15', '17:30', 'CLOSED', 'closing auction from 17:30'],
  ['XAMS', '2026-04-03', '12:00', 'CLOSED', 'Good Friday (IF251107CADE)'],
  ['XAMS', '2026-04-27', '12:00', 'OPEN', "King's Day: Euronext Amsterdam trades"],
  ['XAMS', '2026-05-25', '12:00', 'OPEN', 'Whit Monday: Euronext Amsterdam trades'],
  ['XAMS', '2026-12-24', '13:54', 'OPEN', 'half trading day, continuous to 13:55'],
  ['XAMS', '2026-12-24', '13:55', 'CLOSED', 'half trading day: closing call from 13:55'],
  ['XAMS', '2026-12-28', '12:00', 'OPEN', 'Boxing Day fell on Saturday: no substitute'],
  ['XAMS', '2028-05-01', '12:00', 'CLOSED', 'Labour Day 2028 (rule)'],
  // Euronext Brussels.
  ['XBRU', '2026-06-15', '09:00', 'OPEN', 'continuous trading from 09:00'],
  ['XBRU', '2026-06-15', '17:30', 'CLOSED', 'closing auction from 17:30'],
  ['XBRU', '2026-05-01', '12:00', 'CLOSED', 'Labour Day (IF251107CADE)'],
  ['XBRU', '2026-07-21', '12:00', 'OPEN', 'Belgian National Day: Euronext Brussels trades'],
  ['XBRU', '2026-11-11', '12:00', 'OPEN', 'Armistice Day: Euronext Brussels trades'],
  ['XBRU', '2026-12-31', '13:54', 'OPEN', 'half trading day, continuous to 13:55'],
  ['XBRU', '2026-12-31', '13:55', 'CLOSED', 'half trading day ends'],
  ['XBRU', '2027-03-29', '12:00', 'CLOSED', 'Easter Monday 2027 (rule)'],
  // Euronext Lisbon: the CET timetable one hour earlier.
  ['XLIS', '2026-06-15', '07:59', 'CLOSED', 'pre-opening before 08:00 Lisbon time'],
  ['XLIS', '2026-06-15', '08:00', 'OPEN', 'continuous trading from 08:00 Lisbon time'],
  ['XLIS', '2026-06-15', '16:29', 'OPEN', 'continuous trading to 16:30'],
  ['XLIS', '2026-06-15', '16:30', 'CLOSED', 'closing auction from 16:30'],
  ['XLIS', '2026-06-04', '12:00', 'OPEN', 'Corpus Christi: Euronext Lisbon trades'],
  ['XLIS', '2026-06-10', '12:00', 'OPEN', 'Portugal Day: Euronext Lisbon trades'],
  ['XLIS', '2026-12-08', '12:00', 'OPEN', 'Immaculate Conception: Euronext Lisbon trades'],
  ['XLIS', '2026-12-24', '12:54', 'OPEN', 'half trading day, continuous to 12:55 Lisbon time'],
  ['XLIS', '2026-12-24', '12:55', 'CLOSED', 'half trading day ends 12:55 Lisbon (13:55 CET)'],
  ['XLIS', '2026-12-25', '12:00', 'CLOSED', 'Christmas Day'],
  // Euronext Dublin: Euronext's days, the Irish May bank holiday, weekend substitutes.
  ['XDUB', '2026-06-15', '08:00', 'OPEN', 'continuous trading from 08:00 Dublin time'],
  ['XDUB', '2026-06-15', '16:27', 'OPEN', 'continuous trading to 16:28'],
  ['XDUB', '2026-06-15', '16:28', 'CLOSED', 'closing auction from 16:28'],
  ['XDUB', '2026-02-02', '12:00', 'OPEN', "St Brigid's Day holiday: Euronext Dublin trades"],
  ['XDUB', '2026-03-17', '12:00', 'OPEN', "St Patrick's Day: Euronext Dublin trades"],
  ['XDUB', '2026-05-04', '12:00', 'CLOSED', 'Irish May bank holiday (Dublin column of IF251107CADE)'],
  ['XDUB', '2026-06-01', '12:00', 'OPEN', 'June bank holiday: Euronext Dublin trades'],
  ['XDUB', '2026-08-03', '12:00', 'OPEN', 'August bank holiday: Euronext Dublin trades'],
  ['XDUB', '2026-10-26', '12:00', 'OPEN', 'October bank holiday: Euronext Dublin trades'],
  ['XDUB', '2026-12-24', '12:27', 'OPEN', 'half trading day, morning'],
  ['XDUB', '2026-12-24', '12:28', 'CLOSED', 'half trading day: conservative close 12:28'],
  ['XDUB', '2026-12-28', '12:00', 'CLOSED', "St Stephen's Day substitute (Dublin only)"],
  ['XDUB', '2027-05-03', '12:00', 'CLOSED', 'Irish May bank holiday 2027 (rule)'],
  ['XDUB', '2027-12-27', '12:00', 'CLOSED', 'Christmas Day substitute 2027 (rule)'],
  ['XDUB', '2027-12-28', '12:00', 'CLOSED', "St Stephen's Day substitute 2027 (rule)"],
  ['XDUB', '2028-01-03', '12:00', 'CLOSED', "New Year's Day substitute 2028 (rule)"],
  ['XDUB', '2028-12-22', '12:27', 'OPEN', 'half day on the Friday before a Sunday Christmas Eve'],
  ['XDUB', '2028-12-22', '12:28', 'CLOSED', 'half day on the Friday before a Sunday Christmas Eve'],
  // Euronext Paris: the corrected half days (issue 25) and 2028.
  ['XPAR', '2026-12-24', '09:00', 'OPEN', 'half trading day opens as usual'],
  ['XPAR', '2026-12-24', '13:54', 'OPEN', 'half trading day, continuous to 13:55 (was UNKNOWN)'],
  ['XPAR', '2026-12-24', '13:55', 'CLOSED', 'closing call 13:55, uncross 14:00'],
  ['XPAR', '2026-12-31', '13:54', 'OPEN', 'half trading day, continuous to 13:55 (was UNKNOWN)'],
  ['XPAR', '2026-12-31', '14:02', 'CLOSED', 'trading at last 14:00-14:05 is not continuous trading'],
  ['XPAR', '2027-12-24', '13:54', 'OPEN', 'half trading day 2027 (rule)'],
  ['XPAR', '2027-12-31', '13:55', 'CLOSED', 'half trading day 2027 (rule)'],
  ['XPAR', '2028-04-14', '12:00', 'CLOSED', 'Good Friday 2028 (rule)'],
  ['XPAR', '2028-12-22', '17:29', 'OPEN', 'Christmas Eve 2028 is a Sunday: Friday is a full day'],
  ['XPAR', '2028-12-26', '12:00', 'CLOSED', 'Boxing Day 2028'],
  // Euronext Milan: no half days; full closures on 24 and 31 December; Ferragosto.
  ['XMIL', '2026-12-24', '10:00', 'CLOSED', 'Christmas Eve: Milan closes all day (no half day)'],
  ['XMIL', '2026-12-31', '10:00', 'CLOSED', "New Year's Eve: Milan closes all day"],
  ['XMIL', '2028-08-15', '12:00', 'CLOSED', 'Ferragosto 2028 (rule)'],
  ['XMIL', '2028-12-27', '12:00', 'OPEN', 'ordinary day after Santo Stefano'],
  // London: 2028 by the bank holidays; weekend eves move to the Friday before.
  ['XLON', '2028-01-03', '12:00', 'CLOSED', "New Year's Day substitute"],
  ['XLON', '2028-05-29', '12:00', 'CLOSED', 'Spring bank holiday'],
  ['XLON', '2028-08-28', '12:00', 'CLOSED', 'Summer bank holiday'],
  ['XLON', '2028-12-22', '12:29', 'OPEN', 'Christmas half day (LSE business days table)'],
  ['XLON', '2028-12-22', '12:30', 'CLOSED', 'closing process from 12:30'],
  ['XLON', '2028-12-29', '12:30', 'CLOSED', "New Year's half day"],
  // SIX: 2028 by its standing closing days.
  ['XSWX', '2028-01-03', '12:00', 'OPEN', "Berchtold's Day fell on Sunday: no substitute"],
  ['XSWX', '2028-05-25', '12:00', 'CLOSED', 'Ascension Day'],
  ['XSWX', '2028-06-05', '12:00', 'CLOSED', 'Whit Monday'],
  ['XSWX', '2028-08-01', '12:00', 'CLOSED', 'Swiss National Day'],
  // Nasdaq Stockholm and Helsinki.
  ['XSTO', '2028-06-06', '12:00', 'CLOSED', 'National Day of Sweden'],
  ['XSTO', '2028-06-23', '12:00', 'CLOSED', 'Midsummer Eve'],
  ['XSTO', '2028-04-28', '17:24', 'OPEN', 'Walpurgis Eve falls on Sunday: Friday is a full day'],
  ['XSTO', '2028-11-03', '12:54', 'OPEN', "All Saints' Eve half day"],
  ['XSTO', '2028-11-03', '12:55', 'CLOSED', 'closing call from 12:55'],
  ['XHEL', '2028-12-06', '12:00', 'CLOSED', 'Independence Day'],
  ['XHEL', '2028-06-23', '12:00', 'CLOSED', 'Midsummer Eve'],
  ['XHEL', '2028-12-27', '18:24', 'OPEN', 'ordinary day, continuous to 18:25'],
]

// Daylight-saving edges as UTC instants: clocks go forward on Sunday 2028-03-26.
const UTC_FACTS: [string, string, Expected, string][] = [
  ['XAMS', '2028-03-24T07:59:00Z', 'CLOSED', '08:59 CET, before the open'],
  ['XAMS', '2028-03-24T08:00:00Z', 'OPEN', '09:00 CET'],
  ['XAMS', '2028-03-27T07:00:00Z', 'OPEN', '09:00 CEST, first Monday of summer time'],
  ['XBRU', '2028-03-27T06:59:00Z', 'CLOSED', '08:59 CEST'],
  ['XBRU', '2028-03-27T07:00:00Z', 'OPEN', '09:00 CEST'],
  ['XLIS', '2028-03-24T08:00:00Z', 'OPEN', '08:00 WET'],
  ['XLIS', '2028-03-27T06:59:00Z', 'CLOSED', '07:59 WEST'],
  ['XLIS', '2028-03-27T07:00:00Z', 'OPEN', '08:00 WEST'],
  ['XDUB', '2028-03-24T07:59:00Z', 'CLOSED', '07:59 GMT'],
  ['XDUB', '2028-03-27T07:00:00Z', 'OPEN', '08:00 IST'],
  ['XDUB', '2028-10-30T08:00:00Z', 'OPEN', '08:00 GMT after the clocks go back'],
]

describe('2025-2028 facts: Euronext books, London, SIX, Nasdaq Nordic', () => {
  for (const [mic, date, time, expected, why] of LOCAL_FACTS) {
    test(`${mic} ${date} ${time} local is ${expected}: ${why}`, () => {
      expect(localStatus(mic, date, time).status).toBe(expected)
    })
  }
  for (const [mic, instant, expected, why] of UTC_FACTS) {
    test(`${mic} ${instant} is ${expected}: ${why}`, () => {
      expect(statusAt(calendarOf(mic), Date.parse(instant)).status).toBe(expected)
    })
  }
})

const VENUES = ['XAMS', 'XBRU', 'XLIS', 'XDUB', 'XPAR', 'XMIL', 'XLON', 'XSWX', 'XSTO', 'XHEL']

describe('every day of 2027 and 2028 answers from the calendar', () => {
  for (const mic of VENUES) {
    test(`${mic}: covered to 2028-12-31, nothing provisional, OPEN or CLOSED at 03:00, 12:00 and 16:00 local`, () => {
      const calendar = calendarOf(mic)
      expect(calendar.coverageTo).toBe('2028-12-31')
      expect(Object.keys(calendar.file.provisional ?? {})).toEqual([])
      const unknown: string[] = []
      let open = 0
      for (let day = dayNumber('2027-01-01'); day <= dayNumber('2028-12-31'); day++) {
        for (const time of ['03:00', '12:00', '16:00']) {
          const { status } = localStatus(mic, dateOfDayNumber(day), time)
          if (status === 'UNKNOWN') unknown.push(`${dateOfDayNumber(day)} ${time}`)
          if (status === 'OPEN') open++
        }
      }
      expect(unknown).toEqual([])
      // Roughly 250 trading days a year at noon (and 16:00 where the session runs that late).
      expect(open).toBeGreaterThan(2 * 240)
    })
  }
})
