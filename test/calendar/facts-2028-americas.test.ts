// Dated facts for the Americas group and the venues extended with it through 2028 (XNYS, XNAS,
// XCBO, XCBT, XNYM, XBSP, XJSE, XASX, XNZE, and the new XTSE and XMEX), the corrections of
// issue 25 (XBSP 2026-11-03, the JSE year-end early closes), and the trading phases of XNYS, XNAS,
// XBSP, XJSE and XASX. Each fact names the notice or rule it comes from (see each file's sources
// and docs/calendars/americas-2028.md); none is computed from the file under test.
import { describe, expect, test } from 'bun:test'
import { statusAt as engineStatusAt } from '../../src/calendar/engine'
import { dateOfDayNumber, dayNumber } from '../../src/calendar/zone'
import { testPhaseFacts, testStatusFacts, type PhaseFact, type StatusFact } from '../helpers/calendar-facts'
import { statusAt } from '../helpers/listed-days'
import { localInstant, repoCalendar as calendarOf } from '../helpers/venue-time'

type Status = 'OPEN' | 'CLOSED'
// [mic, local date, local time, expected, why]
const FACTS: StatusFact[] = [
  // Toronto: TMX Group Holiday Operating Schedule releases (2024-12-02, 2025-12-03) and TSX's holiday set.
  ['XTSE', '2025-12-24', '12:59', 'OPEN', 'TMX 2025-12-03: TSX open until 13:00 on Christmas Eve'],
  ['XTSE', '2025-12-24', '13:00', 'CLOSED', 'TMX 2025-12-03: early close at 13:00'],
  ['XTSE', '2025-12-26', '11:00', 'CLOSED', 'TMX 2025-12-03: Boxing Day closed'],
  ['XTSE', '2025-12-31', '15:59', 'OPEN', 'TMX 2025-12-03: no early close for TSX on 31 December'],
  ['XTSE', '2026-01-01', '11:00', 'CLOSED', "TMX 2025-12-03: New Year's Day closed"],
  ['XTSE', '2026-11-25', '09:29', 'CLOSED', 'pre-open: continuous trading starts 09:30'],
  ['XTSE', '2026-11-25', '09:30', 'OPEN', 'regular session 09:30-16:00'],
  ['XTSE', '2026-11-25', '15:59', 'OPEN', 'regular session 09:30-16:00'],
  ['XTSE', '2026-11-25', '16:00', 'CLOSED', 'closing call and extended session are not continuous trading'],
  ['XTSE', '2026-08-03', '11:00', 'CLOSED', 'Civic Holiday (first Monday of August)'],
  ['XTSE', '2026-09-30', '11:00', 'OPEN', 'TSX trades on the National Day for Truth and Reconciliation'],
  ['XTSE', '2026-11-11', '11:00', 'OPEN', 'TSX trades on Remembrance Day'],
  ['XTSE', '2027-12-24', '13:00', 'CLOSED', 'Christmas Eve early close by TMX practice'],
  ['XTSE', '2027-12-27', '11:00', 'CLOSED', 'Christmas Day in lieu (25 Dec is a Saturday)'],
  ['XTSE', '2027-12-28', '11:00', 'CLOSED', 'Boxing Day in lieu (26 Dec is a Sunday)'],
  ['XTSE', '2028-01-03', '11:00', 'CLOSED', "New Year's Day in lieu (1 Jan is a Saturday), as on 3 Jan 2022"],
  ['XTSE', '2028-07-03', '11:00', 'CLOSED', 'Canada Day in lieu (1 Jul is a Saturday), as on 3 Jul 2023'],
  ['XTSE', '2028-12-22', '15:59', 'OPEN', 'no early close when 24 Dec is a Sunday (2023 release)'],
  // Mexico: CNBV closing-day lists 2025 and 2026, BMV's US-DST grid (notice of late October 2025).
  ['XMEX', '2025-10-31', '07:30', 'OPEN', 'BMV: 07:30-14:00 grid until Friday 31 Oct 2025'],
  ['XMEX', '2025-10-31', '14:00', 'CLOSED', 'BMV: 07:30-14:00 grid until Friday 31 Oct 2025'],
  ['XMEX', '2025-11-03', '08:29', 'CLOSED', 'BMV: back to 08:30-15:00 from Monday 3 Nov 2025'],
  ['XMEX', '2025-11-03', '14:59', 'OPEN', 'BMV: back to 08:30-15:00 from Monday 3 Nov 2025'],
  ['XMEX', '2025-12-12', '11:00', 'CLOSED', 'CNBV 2025: Dia del Empleado Bancario'],
  ['XMEX', '2026-04-02', '11:00', 'CLOSED', 'CNBV 2026: Holy Thursday'],
  ['XMEX', '2026-11-02', '11:00', 'CLOSED', 'CNBV 2026: Dia de Muertos'],
  ['XMEX', '2026-11-16', '11:00', 'CLOSED', 'CNBV 2026: third Monday of November'],
  ['XMEX', '2026-11-25', '08:30', 'OPEN', 'regular session 08:30-15:00 while the US is on standard time'],
  ['XMEX', '2026-11-25', '15:00', 'CLOSED', 'regular session ends 15:00'],
  ['XMEX', '2027-03-15', '11:00', 'CLOSED', 'Benito Juarez (third Monday of March)'],
  ['XMEX', '2027-03-16', '07:30', 'OPEN', 'US-DST grid from the first trading day after the US change'],
  ['XMEX', '2027-03-25', '11:00', 'CLOSED', 'Holy Thursday'],
  ['XMEX', '2028-12-12', '11:00', 'CLOSED', 'Dia del Empleado Bancario (a Tuesday in 2028)'],
  // New York: NYSE Group release 2025-12-23 (2026-2028 calendar); Nasdaq and Cboe follow it.
  ['XNYS', '2028-06-19', '11:00', 'CLOSED', 'Juneteenth 2028 (NYSE)'],
  ['XNYS', '2028-07-03', '12:59', 'OPEN', 'day before Independence Day closes 13:00 (NYSE 2028)'],
  ['XNYS', '2028-07-03', '13:00', 'CLOSED', 'day before Independence Day closes 13:00 (NYSE 2028)'],
  ['XNYS', '2028-12-22', '15:59', 'OPEN', 'no Christmas Eve early close in 2028 (24 Dec is a Sunday)'],
  ['XNAS', '2028-11-23', '11:00', 'CLOSED', 'Thanksgiving 2028'],
  ['XNAS', '2028-11-24', '13:00', 'CLOSED', 'day after Thanksgiving closes 13:00'],
  ['XCBO', '2028-04-14', '10:00', 'CLOSED', 'Good Friday 2028'],
  ['XCBO', '2028-11-24', '11:59', 'OPEN', 'equity options close 12:00 CT on NYSE early-close days'],
  ['XCBO', '2028-11-24', '12:00', 'CLOSED', 'equity options close 12:00 CT on NYSE early-close days'],
  // CME 2028 by its holiday pattern (2023 has the same weekday layout).
  ['XCBT', '2028-07-04', '11:59', 'OPEN', 'rates halt 12:00 CT on Independence Day'],
  ['XCBT', '2028-07-04', '12:00', 'CLOSED', 'rates halt 12:00 CT on Independence Day'],
  ['XCBT', '2028-07-04', '17:00', 'OPEN', 'rates reopen 17:00 CT for the next trade date'],
  ['XCBT', '2028-04-13', '17:30', 'CLOSED', 'no Thursday evening session before Good Friday'],
  ['XCBT', '2028-11-24', '12:15', 'CLOSED', 'day after Thanksgiving closes 12:15 CT'],
  ['XCBT', '2028-12-24', '18:00', 'CLOSED', 'no Sunday evening session before Christmas Day'],
  ['XCBT', '2028-12-25', '17:00', 'OPEN', 'reopens 17:00 CT on Christmas Day for 26 Dec'],
  ['XCBT', '2028-12-31', '18:00', 'CLOSED', "no Sunday evening session before New Year's Day 2029"],
  ['XNYM', '2028-06-19', '13:29', 'OPEN', 'energy halts 13:30 CT on a Monday holiday'],
  ['XNYM', '2028-06-19', '13:30', 'CLOSED', 'energy halts 13:30 CT on a Monday holiday'],
  ['XNYM', '2028-07-04', '12:00', 'CLOSED', 'Independence Day: the earlier of 12:00 (CME 2027) and 13:30 (2023) is entered'],
  ['XNYM', '2028-11-24', '13:44', 'OPEN', 'day after Thanksgiving closes 13:45 CT'],
  ['XNYM', '2028-11-24', '13:45', 'CLOSED', 'day after Thanksgiving closes 13:45 CT'],
  // B3: the corrected 2026-11-03 and 2028 by holiday law and B3 practice.
  ['XBSP', '2026-11-03', '09:59', 'CLOSED', 'pre-opening until 10:00'],
  ['XBSP', '2026-11-03', '17:30', 'OPEN', 'first day of the 10:00-17:55 grid after the US change (was provisional)'],
  ['XBSP', '2026-11-03', '17:55', 'CLOSED', 'closing call from 17:55'],
  ['XBSP', '2028-02-28', '12:00', 'CLOSED', 'Carnival Monday 2028 (Easter 16 Apr)'],
  ['XBSP', '2028-03-01', '12:59', 'CLOSED', 'Ash Wednesday: trading from 13:00'],
  ['XBSP', '2028-03-01', '13:00', 'OPEN', 'Ash Wednesday: trading from 13:00'],
  ['XBSP', '2028-03-10', '17:30', 'OPEN', 'still the standard-time grid before the US change'],
  ['XBSP', '2028-03-14', '17:30', 'CLOSED', 'US-DST grid ends continuous trading at 16:55'],
  ['XBSP', '2028-12-22', '12:00', 'OPEN', 'no substitute for Christmas Eve on a Sunday'],
  ['XBSP', '2028-12-29', '12:00', 'CLOSED', 'last business day of the year (31 Dec is a Sunday)'],
  // JSE: year-end early closes by its practice (corrected from provisional), 2028 by the Act.
  ['XJSE', '2026-12-24', '11:59', 'OPEN', 'early close at 12:00 before Christmas'],
  ['XJSE', '2026-12-24', '12:00', 'CLOSED', 'early close at 12:00 before Christmas'],
  ['XJSE', '2026-12-31', '11:59', 'OPEN', "early close at 12:00 before New Year's Day"],
  ['XJSE', '2026-12-31', '12:00', 'CLOSED', "early close at 12:00 before New Year's Day"],
  ['XJSE', '2027-12-24', '12:00', 'CLOSED', 'early close at 12:00 before Christmas'],
  ['XJSE', '2027-12-31', '12:00', 'CLOSED', "early close at 12:00 before New Year's Day"],
  ['XJSE', '2028-09-25', '12:00', 'CLOSED', 'Heritage Day observed (24 Sep is a Sunday)'],
  ['XJSE', '2028-12-22', '12:00', 'CLOSED', 'last trading day before Christmas (Monday): early close'],
  ['XJSE', '2028-12-29', '11:59', 'OPEN', "last trading day before New Year's Day 2029: open until 12:00"],
  // ASX and NZX 2028 by rule.
  ['XASX', '2028-01-03', '12:00', 'CLOSED', "New Year's Day observed (1 Jan is a Saturday)"],
  ['XASX', '2028-06-12', '12:00', 'CLOSED', "King's Birthday (second Monday of June)"],
  ['XASX', '2028-12-22', '14:09', 'OPEN', 'last business day before Christmas: trading ceases 14:10'],
  ['XASX', '2028-12-22', '14:10', 'CLOSED', 'last business day before Christmas: trading ceases 14:10'],
  ['XNZE', '2028-02-07', '12:00', 'CLOSED', 'Waitangi Day mondayised (6 Feb is a Sunday)'],
  ['XNZE', '2028-07-14', '12:00', 'CLOSED', 'Matariki 2028 (Te Kahui o Matariki Public Holiday Act schedule)'],
  ['XNZE', '2028-12-29', '12:44', 'OPEN', "abbreviated trading before New Year's Day ends 12:45"],
  ['XNZE', '2028-12-29', '12:45', 'CLOSED', "abbreviated trading before New Year's Day ends 12:45"],
]

describe('2028 calendar facts: the Americas group, XJSE, XASX, XNZE', () => testStatusFacts(FACTS))

// Clock changes, as UTC instants: Toronto moves its clock; Mexico City has not since 2022, but BMV
// moves its session with New York's.
const UTC_FACTS: [string, string, Status, string][] = [
  ['XTSE', '2027-03-12T14:29:00Z', 'CLOSED', 'Friday before the change: 09:30 EST is 14:30Z'],
  ['XTSE', '2027-03-12T14:30:00Z', 'OPEN', 'Friday before the change: 09:30 EST is 14:30Z'],
  ['XTSE', '2027-03-15T13:30:00Z', 'OPEN', 'Monday after the change: 09:30 EDT is 13:30Z'],
  ['XTSE', '2027-03-15T20:00:00Z', 'CLOSED', 'Monday after the change: 16:00 EDT is 20:00Z'],
  ['XMEX', '2025-10-31T13:30:00Z', 'OPEN', '07:30 local (UTC-6) on the US-DST grid'],
  ['XMEX', '2025-11-03T13:30:00Z', 'CLOSED', '07:30 local: the standard grid opens at 08:30'],
  ['XMEX', '2025-11-03T14:30:00Z', 'OPEN', '08:30 local is 14:30Z all year (no DST in Mexico)'],
]

describe('clock changes as UTC instants', () => {
  for (const [mic, iso, expected, why] of UTC_FACTS) {
    test(`${mic} ${iso} is ${expected}: ${why}`, () => {
      expect(statusAt(calendarOf(mic), Date.parse(iso)).status).toBe(expected)
    })
  }
})

// [mic, local date, local time, status, phase]
const PHASES: PhaseFact[] = [
  ['XNYS', '2028-03-15', '06:29', 'CLOSED', 'closed'],
  ['XNYS', '2028-03-15', '06:30', 'CLOSED', 'pre_open_auction'],
  ['XNYS', '2028-03-15', '09:30', 'OPEN', 'continuous'],
  ['XNYS', '2028-03-15', '16:00', 'CLOSED', 'closed'],
  ['XNAS', '2028-03-15', '04:00', 'CLOSED', 'extended'],
  ['XNAS', '2028-03-15', '19:59', 'CLOSED', 'extended'],
  ['XNAS', '2028-03-15', '20:00', 'CLOSED', 'closed'],
  ['XNAS', '2028-11-24', '16:59', 'CLOSED', 'extended'],
  ['XNAS', '2028-11-24', '17:00', 'CLOSED', 'closed'],
  ['XNAS', '2028-11-23', '10:00', 'CLOSED', 'closed'],
  ['XBSP', '2026-11-24', '09:50', 'CLOSED', 'pre_open_auction'],
  ['XBSP', '2026-11-24', '17:57', 'CLOSED', 'closing_auction'],
  ['XBSP', '2026-11-24', '18:00', 'CLOSED', 'closed'],
  ['XBSP', '2027-06-15', '16:57', 'CLOSED', 'closing_auction'],
  ['XBSP', '2028-03-01', '12:50', 'CLOSED', 'pre_open_auction'],
  ['XBSP', '2027-03-15', '12:00', 'UNKNOWN', null],
  ['XJSE', '2028-03-15', '08:45', 'CLOSED', 'pre_open_auction'],
  ['XJSE', '2028-03-15', '16:49', 'OPEN', 'continuous'],
  ['XJSE', '2028-03-15', '16:55', 'OPEN', 'closing_auction'],
  ['XJSE', '2028-03-15', '17:00', 'CLOSED', 'closed'],
  ['XJSE', '2028-12-22', '08:45', 'CLOSED', 'pre_open_auction'],
  ['XJSE', '2028-12-22', '11:55', 'OPEN', 'continuous'],
  ['XASX', '2028-03-15', '07:00', 'CLOSED', 'pre_open_auction'],
  ['XASX', '2028-03-15', '16:05', 'CLOSED', 'closing_auction'],
  ['XASX', '2028-03-15', '16:15', 'CLOSED', 'post_close'],
  ['XASX', '2028-03-15', '16:21', 'CLOSED', 'closed'],
  ['XASX', '2025-03-14', '16:15', 'CLOSED', 'closed'],
  ['XASX', '2028-12-22', '14:15', 'CLOSED', 'closed'],
  ['XTSE', '2028-03-15', '09:00', 'CLOSED', 'closed'],
]

describe('trading phases at known instants (phase beside an unchanged status)', () => testPhaseFacts(PHASES))

const GROUP = ['XNYS', 'XNAS', 'XCBO', 'XCBT', 'XNYM', 'XBSP', 'XJSE', 'XASX', 'XNZE', 'XTSE', 'XMEX']

describe('what the files say about themselves', () => {
  test('every venue of the group covers 2025-01-01 through 2028-12-31', () => {
    for (const mic of GROUP) expect([mic, calendarOf(mic).file.coverage]).toEqual([mic, { from: '2025-01-01', to: '2028-12-31' }])
  })

  test('2028 is published only where NYSE published it; XCBO 2028 is rule (no Cboe list was read)', () => {
    const basis2028 = Object.fromEntries(GROUP.map((mic) => [mic, calendarOf(mic).file.basis?.['2028']]))
    expect(basis2028).toEqual({ XNYS: 'published', XNAS: 'rule', XCBO: 'rule', XCBT: 'rule', XNYM: 'rule', XBSP: 'rule', XJSE: 'rule', XASX: 'rule', XNZE: 'rule', XTSE: 'rule', XMEX: 'rule' })
  })

  test('only B3 grid switches still wait on an announcement', () => {
    const provisional = Object.fromEntries(GROUP.map((mic) => [mic, Object.keys(calendarOf(mic).file.provisional ?? {})]))
    expect(provisional).toEqual({ XNYS: [], XNAS: [], XCBO: [], XCBT: [], XNYM: [], XBSP: ['2027-03-15', '2027-11-08', '2028-03-13', '2028-11-06'], XJSE: [], XASX: [], XNZE: [], XTSE: [], XMEX: [] })
  })
})

describe('every day from 2026-11-25 to 2028-12-31 answers from the calendar', () => {
  const first = dayNumber('2026-11-25')
  const last = dayNumber('2028-12-31')
  for (const mic of GROUP) {
    test(`${mic}: OPEN or CLOSED at 03:00, 12:00 and 20:00 local, except on provisional days; some of it open`, () => {
      const calendar = calendarOf(mic)
      const provisional = new Set(Object.keys(calendar.file.provisional ?? {}))
      const unexpected: string[] = []
      let open = 0
      for (let day = first; day <= last; day++) {
        const date = dateOfDayNumber(day)
        for (const time of ['03:00', '12:00', '20:00']) {
          const { status } = engineStatusAt(calendar, localInstant(mic, date, time))
          if (status === 'OPEN') open++
          if ((status === 'UNKNOWN') !== provisional.has(date)) unexpected.push(`${date} ${time} ${status}`)
        }
      }
      expect(unexpected).toEqual([])
      expect(open).toBeGreaterThan(400)
    })
  }
})
