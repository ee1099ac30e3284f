// Dated facts for the Euronext cash books (XAMS, XBRU, XLIS, XDUB, XPAR, XMIL), London, SIX and
// Nasdaq Stockholm/Helsinki through 2028 (issue 25), from the notices and rules named in each
// file's sources and in docs/calendars/euronext-2028.md; their trading phases (issue 20); and a
// walk over 2027-2028 for these venues.
import { describe, expect, test } from 'bun:test'
import { phaseAt } from '../../src/calendar/engine'
// statusAt through the listed-day check: each fact is also checked against the day /v5/calendar lists.
import { statusAt } from '../helpers/listed-days'
import { testWalkWithoutUnknown } from '../helpers/calendar-facts'
import { localInstant, repoCalendar as calendarOf } from '../helpers/venue-time'

const localStatus = (mic: string, date: string, time: string) => statusAt(calendarOf(mic), localInstant(mic, date, time))

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

type Phase = 'pre_open_auction' | 'continuous' | 'closing_auction' | 'post_close' | 'closed'
// [mic, local date, local time, status, phase, why]: the phases never change the status.
const PHASE_FACTS: [string, string, string, Expected, Phase, string][] = [
  ['XLON', '2026-12-01', '16:32', 'CLOSED', 'closing_auction', 'SETS closing auction 16:30-16:35 on a regular day'],
  ['XLON', '2027-07-14', '16:32', 'CLOSED', 'closing_auction', 'the same in summer time'],
  ['XLON', '2026-12-01', '07:55', 'CLOSED', 'pre_open_auction', 'opening auction 07:50-08:00'],
  ['XLON', '2026-12-01', '16:37', 'CLOSED', 'post_close', 'closing price crossing 16:35-16:40'],
  ['XLON', '2026-12-01', '16:41', 'CLOSED', 'closed', 'after the closing price crossing'],
  ['XLON', '2026-12-01', '12:01', 'OPEN', 'continuous', 'the 12:00 intraday auction is not modelled'],
  ['XLON', '2026-12-24', '12:32', 'CLOSED', 'closing_auction', 'half day: the closing auction follows the 12:30 close'],
  ['XPAR', '2026-12-01', '08:00', 'CLOSED', 'pre_open_auction', 'pre-opening from 07:30'],
  ['XPAR', '2026-12-01', '17:32', 'CLOSED', 'closing_auction', 'closing auction 17:30-17:35'],
  ['XPAR', '2026-12-01', '17:37', 'CLOSED', 'post_close', 'trading at last 17:35-17:40'],
  ['XPAR', '2026-12-24', '13:57', 'CLOSED', 'closing_auction', 'half day: closing call 13:55-14:00'],
  ['XPAR', '2026-12-24', '14:02', 'CLOSED', 'post_close', 'half day: trading at last 14:00-14:05'],
  ['XPAR', '2026-12-24', '14:06', 'CLOSED', 'closed', 'half day: all instruments closed by 14:05'],
  ['XAMS', '2026-12-01', '07:45', 'CLOSED', 'pre_open_auction', 'pre-opening from 07:30'],
  ['XAMS', '2026-12-01', '17:33', 'CLOSED', 'closing_auction', 'closing auction 17:30-17:35'],
  ['XBRU', '2026-12-01', '12:00', 'OPEN', 'continuous', 'continuous trading'],
  ['XBRU', '2026-12-01', '17:38', 'CLOSED', 'post_close', 'trading at last 17:35-17:40'],
  ['XLIS', '2026-12-01', '07:00', 'CLOSED', 'pre_open_auction', 'pre-opening from 06:30 Lisbon time'],
  ['XLIS', '2026-12-01', '16:32', 'CLOSED', 'closing_auction', 'closing auction 16:30-16:35 Lisbon time'],
  ['XLIS', '2026-12-24', '12:57', 'CLOSED', 'closing_auction', 'half day: closing call 12:55-13:00 Lisbon time'],
  ['XDUB', '2026-12-01', '16:29', 'CLOSED', 'closing_auction', 'closing auction 16:28-16:30'],
  ['XDUB', '2026-12-01', '16:35', 'CLOSED', 'post_close', 'trading at last 16:30-16:40'],
  ['XDUB', '2026-12-24', '07:00', 'CLOSED', 'pre_open_auction', 'half day: pre-opening as usual'],
  ['XDUB', '2026-12-24', '12:29', 'CLOSED', 'closed', 'half day: closing phases not read, so none entered'],
  ['XMIL', '2026-12-01', '08:00', 'CLOSED', 'pre_open_auction', 'pre-opening from 07:30 (Optiq)'],
  ['XMIL', '2026-12-01', '17:38', 'CLOSED', 'post_close', 'trading at the closing price 17:35-17:40'],
  ['XMIL', '2026-12-24', '10:00', 'CLOSED', 'closed', 'Christmas Eve closure: no phases'],
  ['XSWX', '2026-12-01', '08:00', 'CLOSED', 'pre_open_auction', 'pre-opening from 06:00'],
  ['XSWX', '2026-12-01', '17:25', 'CLOSED', 'closing_auction', 'closing auction 17:20-17:30'],
  ['XSWX', '2026-12-01', '17:35', 'CLOSED', 'post_close', 'Trading-At-Last to 17:40'],
  ['XSTO', '2026-12-01', '08:30', 'CLOSED', 'pre_open_auction', 'pre-open 08:00-09:00'],
  ['XSTO', '2026-12-01', '17:27', 'CLOSED', 'closing_auction', 'closing call 17:25-17:30'],
  ['XSTO', '2028-11-03', '12:57', 'CLOSED', 'closing_auction', "All Saints' Eve: closing call 12:55-13:00"],
  ['XSTO', '2026-12-01', '17:45', 'CLOSED', 'closed', 'post-trading is not an order-book phase'],
  ['XHEL', '2026-12-01', '09:30', 'CLOSED', 'pre_open_auction', 'pre-open 09:00-10:00'],
  ['XHEL', '2026-12-01', '18:27', 'CLOSED', 'closing_auction', 'closing call 18:25-18:30'],
]

describe('trading phases (issue 20) at known instants', () => {
  for (const [mic, date, time, status, phase, why] of PHASE_FACTS) {
    test(`${mic} ${date} ${time} local: ${status}, ${phase} (${why})`, () => {
      const instant = localInstant(mic, date, time)
      expect(statusAt(calendarOf(mic), instant).status).toBe(status)
      expect(phaseAt(calendarOf(mic), instant)).toBe(phase)
    })
  }
})

const VENUES = ['XAMS', 'XBRU', 'XLIS', 'XDUB', 'XPAR', 'XMIL', 'XLON', 'XSWX', 'XSTO', 'XHEL']

describe('every day of 2027 and 2028 answers from the calendar', () => {
  // Roughly 250 trading days a year at noon (and 16:00 where the session runs that late).
  testWalkWithoutUnknown(VENUES, '2027-01-01', '2028-12-31', 2 * 240)
})
