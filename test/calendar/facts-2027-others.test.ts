// The side taken on each date where an independent calendar project disagrees with our files for
// XCBO, XCBT, XNYM, XMIL, XHEL, XSTO, XASX and XSES (see docs/calendars/others.md): each line
// asserts our answer on the disputed date, on the side of it where the two answers differ.
import { describe, expect, test } from 'bun:test'
// statusAt through the listed-day check: each fact is also checked against the day /v5/calendar lists.
import { statusAt } from '../helpers/listed-days'
import { dayNumber, localToUtc, parseLocalTime } from '../../src/calendar/zone'
import { sharedCalendars } from '../helpers/app'

const calendars = sharedCalendars()
const calendarOf = (mic: string) => {
  const calendar = calendars.calendar(mic)
  if (!calendar) throw new Error(`${mic} did not load`)
  return calendar
}
const statusOf = (mic: string, date: string, time: string) =>
  statusAt(calendarOf(mic), localToUtc(calendarOf(mic).timezone, dayNumber(date), parseLocalTime(time)))

// [mic, local date, local time, expected, what the other project says]
const SIDES: [string, string, string, 'OPEN' | 'CLOSED', string][] = [
  // Cboe equity options close 12:00 CT on NYSE's early-close days (pandas_market_calendars has no Christmas Eve rule).
  ['XCBO', '2026-12-24', '11:59', 'OPEN', 'morning of the early-close day'],
  ['XCBO', '2026-12-24', '12:30', 'CLOSED', 'theirs: full session to 15:00'],
  // CBOT rates: Good Friday 2027 has no employment report, so no 10:15 session and no Thursday evening.
  ['XCBT', '2027-03-26', '09:00', 'CLOSED', 'theirs: trade date to 10:15 CT'],
  ['XCBT', '2027-03-25', '18:00', 'CLOSED', 'theirs: evening session for the Good Friday trade date'],
  ['XCBT', '2027-03-25', '15:59', 'OPEN', 'Thursday day session runs to 16:00'],
  ['XCBT', '2027-07-05', '11:59', 'OPEN', 'Independence Day observed: trades until the 12:00 CT halt'],
  ['XCBT', '2027-07-05', '17:00', 'OPEN', 'and reopens 17:00 CT'],
  // NYMEX energy: CME's published 2026 times (pandas_market_calendars issue #464 / PR #469), and 2027 by CME via Lean.
  ['XNYM', '2026-06-19', '12:30', 'CLOSED', 'theirs (old rule): open to 13:30'],
  ['XNYM', '2026-09-07', '13:00', 'OPEN', 'theirs (old rule): halt 12:00'],
  ['XNYM', '2026-09-07', '13:30', 'CLOSED', 'halt 13:30 CT'],
  ['XNYM', '2026-11-27', '13:30', 'OPEN', 'theirs (old rule): close 12:45'],
  ['XNYM', '2026-12-24', '13:00', 'CLOSED', 'theirs (old rule): full session'],
  ['XNYM', '2026-12-24', '17:30', 'CLOSED', 'no evening session before Christmas Day'],
  ['XNYM', '2027-09-06', '13:00', 'OPEN', 'theirs: halt 12:00'],
  ['XNYM', '2027-11-26', '13:30', 'OPEN', 'theirs: close 12:45'],
  // Exchange closing days that are not public holidays (vacanza's country calendars do not list them).
  ['XMIL', '2027-12-24', '12:00', 'CLOSED', 'Borsa Italiana closes on Christmas Eve'],
  ['XMIL', '2027-12-08', '12:00', 'OPEN', 'Immaculate Conception: a public holiday on which Borsa trades'],
  ['XHEL', '2027-12-31', '12:00', 'CLOSED', "Nasdaq Helsinki closes on New Year's Eve"],
  ['XSTO', '2027-06-25', '12:00', 'CLOSED', 'Midsummer Eve'],
  ['XSTO', '2027-11-05', '12:54', 'OPEN', "All Saints' Eve half day, continuous trading to 12:55"],
  ['XSTO', '2027-11-05', '12:55', 'CLOSED', 'closing call from 12:55 (theirs: close 13:00 after the call)'],
  ['XASX', '2027-04-26', '12:00', 'OPEN', 'ANZAC Day observed in NSW, but ASX trades'],
  ['XASX', '2027-10-04', '12:00', 'OPEN', 'NSW Labour Day, ASX trades'],
  // SGX half days on the eves (exchange_calendars lists them as not modelled).
  ['XSES', '2026-12-24', '11:59', 'OPEN', 'Christmas Eve morning'],
  ['XSES', '2026-12-24', '14:00', 'CLOSED', 'theirs: full day to 17:00'],
  ['XSES', '2027-02-05', '14:00', 'CLOSED', 'Eve of Chinese New Year half day'],
  ['XSES', '2027-02-08', '10:00', 'CLOSED', 'Chinese New Year observed (7 Feb is a Sunday)'],
]

describe('cross-check 2026-2027: the side taken where another project disagrees', () => {
  for (const [mic, date, time, expected, why] of SIDES) {
    test(`${mic} ${date} ${time} local is ${expected}: ${why}`, () => {
      expect(statusOf(mic, date, time).status).toBe(expected)
    })
  }
})
