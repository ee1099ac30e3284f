// Dated facts for the central-europe group (see docs/calendars/central-europe-2026.md): XLUX,
// XICE, XWAR, XPRA, XBUD, XBRA, XZAG and XLJU, checked through the engine at venue-local wall
// times: hours, holidays, half days, Zagreb's intraday-auction gap, daylight-saving edges (Iceland
// keeps GMT all year; its summer afternoon follows the European season), trading phases, and a
// walk over 2027-2028. The source of each fact is named in its group's comment and in the
// file's `sources`.
import { describe, expect, test } from 'bun:test'
import type { Phase } from '../../src/calendar/phases'
import { dateOfDayNumber, dayNumber } from '../../src/calendar/zone'
// Each fact goes through the listed-day check: it is also checked against the day /v5/calendar lists.
import { testPhaseFacts, testStatusFacts, testUtcFacts, testWalkWithoutUnknown, type PhaseFact, type StatusFact, type UtcFact } from '../helpers/calendar-facts'
import { statusAt } from '../helpers/listed-days'
import { localInstant, repoCalendar } from '../helpers/venue-time'

// XZAG is walked on its own below: the shared walk samples 12:00 (Zagreb's intraday auction) and
// 16:00 (after its close), so it would never see Zagreb OPEN.
const GROUP = ['XLUX', 'XICE', 'XWAR', 'XPRA', 'XBUD', 'XBRA', 'XLJU'] as const

type Expected = 'OPEN' | 'CLOSED'
/** A venue's local wall time 'YYYY-MM-DD HH:MM' split into the date and time the shared fact tables take. */
const at = (local: string): [string, string] => local.split(' ') as [string, string]
// [mic, local 'YYYY-MM-DD HH:MM', expected, why]
const FACTS: [string, string, Expected, string][] = [
  // LuxSE: opening hours 09:00-17:35 with pre-closing from 17:30 (LuxSE opening-hours page);
  // closing days = New Year, Good Friday, Easter Monday, 1 May, 25-26 Dec, open on other bank
  // holidays (LuxSE closing-days page); half days 24/31 Dec (exchange_calendars, LuxSE page).
  ['XLUX', '2026-12-01 08:59', 'CLOSED', 'before the main trading session'],
  ['XLUX', '2026-12-01 09:00', 'OPEN', 'continuous trading from 09:00'],
  ['XLUX', '2026-12-01 17:29', 'OPEN', 'continuous trading to 17:30'],
  ['XLUX', '2026-12-01 17:30', 'CLOSED', 'pre-closing and closing uncrossing 17:30-17:35'],
  ['XLUX', '2026-04-03 12:00', 'CLOSED', 'Good Friday'],
  ['XLUX', '2026-05-14 12:00', 'OPEN', 'Ascension: LuxSE is open on the other Luxembourg bank holidays'],
  ['XLUX', '2026-06-23 12:00', 'OPEN', 'National Day: a trading day'],
  ['XLUX', '2026-12-24 13:59', 'OPEN', 'Christmas Eve half day, morning'],
  ['XLUX', '2026-12-24 14:00', 'CLOSED', 'Christmas Eve half day: continuous trading to 14:00'],
  ['XLUX', '2026-12-25 12:00', 'CLOSED', 'Christmas Day'],
  ['XLUX', '2028-12-26 12:00', 'CLOSED', "St Stephen's Day 2028 (rule)"],
  // Nasdaq Iceland: continuous 09:30 local (GMT), to 15:20 while Europe keeps standard time and
  // 14:20 while it keeps summer time (the file's conservative reading); Icelandic holidays and
  // 24/31 Dec (Nasdaq CSD Iceland calendar notice, 7 Jun 2024; exchange_calendars).
  ['XICE', '2026-12-01 09:29', 'CLOSED', 'before continuous trading'],
  ['XICE', '2026-12-01 09:30', 'OPEN', 'continuous trading from 09:30'],
  ['XICE', '2026-12-01 15:19', 'OPEN', 'European winter: continuous trading to 15:20'],
  ['XICE', '2026-12-01 15:20', 'CLOSED', 'European winter: closing phases from 15:20'],
  ['XICE', '2026-06-02 14:19', 'OPEN', 'European summer: continuous trading to 14:20'],
  ['XICE', '2026-06-02 14:20', 'CLOSED', 'European summer: answered CLOSED from 14:20 (hours not established)'],
  ['XICE', '2026-04-23 12:00', 'CLOSED', 'First Day of Summer (first Thursday after 18 April)'],
  ['XICE', '2026-04-02 12:00', 'CLOSED', 'Maundy Thursday'],
  ['XICE', '2026-06-17 12:00', 'CLOSED', 'National Day'],
  ['XICE', '2026-08-03 12:00', 'CLOSED', 'Commerce Day (first Monday of August)'],
  ['XICE', '2026-12-31 12:00', 'CLOSED', "New Year's Eve (no settlement since 2024)"],
  ['XICE', '2028-04-20 12:00', 'CLOSED', 'First Day of Summer 2028 (rule)'],
  // GPW Warsaw: pre-opening 08:30, continuous 09:00-16:50, closing auction 16:50-17:00, trading at
  // the closing price to 17:05 (GPW rules via brokers; WATS schedule); 2026 list of days without a
  // session (strefainwestorow.pl); 24 Dec a statutory holiday from 2025.
  ['XWAR', '2026-12-01 08:59', 'CLOSED', 'pre-opening'],
  ['XWAR', '2026-12-01 09:00', 'OPEN', 'continuous trading from 09:00'],
  ['XWAR', '2026-12-01 16:49', 'OPEN', 'continuous trading to 16:50'],
  ['XWAR', '2026-12-01 16:50', 'CLOSED', 'pre-closing and closing auction 16:50-17:00'],
  ['XWAR', '2026-04-03 12:00', 'CLOSED', 'Good Friday: no session by GPW policy'],
  ['XWAR', '2026-06-04 12:00', 'CLOSED', 'Corpus Christi (GPW 2026 list)'],
  ['XWAR', '2026-11-11 12:00', 'CLOSED', 'National Independence Day (GPW 2026 list)'],
  ['XWAR', '2025-12-24 12:00', 'CLOSED', 'Christmas Eve, a public holiday from 2025'],
  ['XWAR', '2026-12-31 12:00', 'CLOSED', "New Year's Eve: an extra day without a session (GPW 2026 list)"],
  ['XWAR', '2026-12-30 16:49', 'OPEN', 'the last session of 2026 is a full day'],
  ['XWAR', '2027-05-03 12:00', 'CLOSED', 'Constitution Day 2027 (rule)'],
  ['XWAR', '2028-08-15 12:00', 'CLOSED', 'Assumption / Armed Forces Day 2028 (rule)'],
  // Prague: opening auction 08:50, continuous 09:00-16:10, closing auction 16:10-16:15, trade at
  // close to 16:25 (Fio banka, Patria; Cboe: official close 16:10 CET); Czech holidays, 24 and
  // 31 Dec (PSE calendar page; Patria.cz 24 Dec 2025).
  ['XPRA', '2026-12-01 08:59', 'CLOSED', 'opening auction 08:50-09:00'],
  ['XPRA', '2026-12-01 09:00', 'OPEN', 'continuous trading from 09:00'],
  ['XPRA', '2026-12-01 16:09', 'OPEN', 'continuous trading to 16:10'],
  ['XPRA', '2026-12-01 16:10', 'CLOSED', 'closing auction 16:10-16:15'],
  ['XPRA', '2026-07-06 12:00', 'CLOSED', 'Jan Hus Day'],
  ['XPRA', '2026-09-28 12:00', 'CLOSED', 'Czech Statehood Day'],
  ['XPRA', '2026-11-17 12:00', 'CLOSED', 'Struggle for Freedom and Democracy Day'],
  ['XPRA', '2025-12-24 12:00', 'CLOSED', 'Christmas Eve 2025 (Patria.cz: Prague closed)'],
  ['XPRA', '2026-12-31 12:00', 'CLOSED', "New Year's Eve: exchange holiday"],
  ['XPRA', '2027-07-05 12:00', 'CLOSED', 'Saints Cyril and Methodius Day 2027 (rule)'],
  // Budapest: opening auction 08:30-09:00, continuous to 17:00, closing auction 17:00-17:05 (BSE
  // trading model via UniCredit GSS; Cboe: official close 17:00 CET); 2025 closed days (vg.hu,
  // portfolio.hu); 2026 rest days by NGM decree 10/2025 (Patria.cz: closed 2 Jan 2026); no
  // trading on Saturday working days (BSE statements via MTI).
  ['XBUD', '2026-12-01 08:59', 'CLOSED', 'opening auction 08:30-09:00'],
  ['XBUD', '2026-12-01 09:00', 'OPEN', 'continuous trading from 09:00'],
  ['XBUD', '2026-12-01 16:59', 'OPEN', 'continuous trading to 17:00'],
  ['XBUD', '2026-12-01 17:00', 'CLOSED', 'closing auction 17:00-17:05'],
  ['XBUD', '2025-10-24 12:00', 'CLOSED', 'rest day after the 23 October holiday (decree 11/2024)'],
  ['XBUD', '2025-12-30 12:00', 'OPEN', 'last trading day of 2025 (portfolio.hu)'],
  ['XBUD', '2025-12-31 12:00', 'CLOSED', "New Year's Eve"],
  ['XBUD', '2026-01-02 12:00', 'CLOSED', 'rest day (decree 10/2025; Patria.cz)'],
  ['XBUD', '2026-01-10 12:00', 'CLOSED', 'Saturday working day: BSE does not trade'],
  ['XBUD', '2026-08-21 12:00', 'CLOSED', "rest day after St Stephen's Day (decree 10/2025)"],
  ['XBUD', '2027-03-15 12:00', 'CLOSED', 'National Day 2027 (rule)'],
  ['XBUD', '2027-12-24 12:00', 'CLOSED', 'Christmas Eve 2027: closed whatever the 2027 decree says'],
  ['XBUD', '2028-06-05 12:00', 'CLOSED', 'Whit Monday 2028 (rule)'],
  // Bratislava: fixing 10:30-10:50, continuous trading 11:00-15:30 (BSSE trading days page); no
  // trading on days of rest; Act 261/2025: 17 Nov worked from 2025, 8 May and 15 Sep worked in
  // 2026 only; 1 Sep worked from 2024 (Act 530/2023).
  ['XBRA', '2026-12-01 10:59', 'CLOSED', 'before continuous trading'],
  ['XBRA', '2026-12-01 11:00', 'OPEN', 'continuous trading from 11:00'],
  ['XBRA', '2026-12-01 15:29', 'OPEN', 'continuous trading to 15:30'],
  ['XBRA', '2026-12-01 15:30', 'CLOSED', 'after continuous trading'],
  ['XBRA', '2025-11-17 12:00', 'OPEN', '17 November: no longer a day of rest from 2025 (Act 261/2025)'],
  ['XBRA', '2026-05-08 12:00', 'OPEN', '8 May 2026: a working day in 2026 only'],
  ['XBRA', '2026-09-15 12:00', 'OPEN', '15 September 2026: a working day in 2026 only'],
  ['XBRA', '2025-09-01 12:00', 'OPEN', 'Constitution Day: not a day of rest since 2024'],
  ['XBRA', '2025-09-15 12:00', 'CLOSED', 'Our Lady of Seven Sorrows 2025: a day of rest'],
  ['XBRA', '2027-09-15 12:00', 'CLOSED', 'Our Lady of Seven Sorrows 2027: a day of rest again (rule)'],
  ['XBRA', '2026-01-06 12:00', 'CLOSED', 'Epiphany (kept as a day of rest in 2026)'],
  ['XBRA', '2026-12-24 12:00', 'CLOSED', 'Christmas Eve'],
  // Zagreb: opening auction 09:00-09:30, continuous 09:30-12:00, intraday auction 12:00-12:10,
  // continuous 12:10-15:55, closing auction 15:55-16:00 (ZSE notice on the first trading day in
  // euro, Dec 2022); Croatian holidays plus Good Friday, 24 and 31 Dec (ZSE lists 2021, 2022).
  ['XZAG', '2026-12-01 09:29', 'CLOSED', 'opening auction 09:00-09:30'],
  ['XZAG', '2026-12-01 09:30', 'OPEN', 'continuous trading from 09:30'],
  ['XZAG', '2026-12-01 11:59', 'OPEN', 'continuous trading to the intraday auction'],
  ['XZAG', '2026-12-01 12:00', 'CLOSED', 'intraday auction 12:00-12:10'],
  ['XZAG', '2026-12-01 12:09', 'CLOSED', 'intraday auction still running'],
  ['XZAG', '2026-12-01 12:10', 'OPEN', 'continuous trading resumes at 12:10'],
  ['XZAG', '2026-12-01 15:54', 'OPEN', 'continuous trading to 15:55'],
  ['XZAG', '2026-12-01 15:55', 'CLOSED', 'closing auction 15:55-16:00'],
  ['XZAG', '2026-04-03 12:00', 'CLOSED', 'Good Friday: exchange holiday'],
  ['XZAG', '2026-06-22 12:00', 'CLOSED', 'Anti-Fascist Struggle Day'],
  ['XZAG', '2026-11-18 12:00', 'CLOSED', 'Remembrance Day'],
  ['XZAG', '2026-12-31 12:00', 'CLOSED', "New Year's Eve: exchange holiday"],
  ['XZAG', '2027-05-27 12:00', 'CLOSED', 'Corpus Christi 2027 (rule)'],
  // Ljubljana: opening auction 08:15-09:15, continuous 09:15-15:15, closing auction from 15:15
  // (LJSE trading schedule); Slovenian holidays and work-free days plus Good Friday, 24 and
  // 31 Dec (LJSE 2021 calendar; siol.net 16 Dec 2025).
  ['XLJU', '2026-12-01 09:14', 'CLOSED', 'opening auction 08:15-09:15'],
  ['XLJU', '2026-12-01 09:15', 'OPEN', 'continuous trading from 09:15'],
  ['XLJU', '2026-12-01 15:14', 'OPEN', 'continuous trading to 15:15'],
  ['XLJU', '2026-12-01 15:15', 'CLOSED', 'closing auction from 15:15'],
  ['XLJU', '2026-01-02 12:00', 'CLOSED', 'New Year holiday (2 January)'],
  ['XLJU', '2026-04-27 12:00', 'CLOSED', 'Day of Uprising Against Occupation'],
  ['XLJU', '2025-12-24 12:00', 'CLOSED', 'Christmas Eve 2025 (siol.net: LJSE closed)'],
  ['XLJU', '2025-12-31 12:00', 'CLOSED', "New Year's Eve 2025 (siol.net: LJSE closed)"],
  ['XLJU', '2027-02-08 12:00', 'CLOSED', 'Preseren Day 2027 (rule)'],
  ['XLJU', '2028-10-31 12:00', 'CLOSED', 'Reformation Day 2028 (rule)'],
]

// Daylight-saving edges as UTC instants. Europe: clocks forward on Sunday 2026-03-29, back on
// Sunday 2026-10-25. Reykjavik keeps UTC all year; Iceland's summer season follows Europe's.
const UTC_FACTS: UtcFact[] = [
  ['XLUX', '2026-03-27T16:29:00Z', 'OPEN', '17:29 CET, Friday before the change'],
  ['XLUX', '2026-03-30T15:29:00Z', 'OPEN', '17:29 CEST, first Monday of summer time'],
  ['XLUX', '2026-03-30T16:29:00Z', 'CLOSED', '18:29 CEST'],
  ['XICE', '2026-10-23T14:30:00Z', 'CLOSED', '14:30 GMT, last Friday of European summer time'],
  ['XICE', '2026-10-26T14:30:00Z', 'OPEN', '14:30 GMT, first Monday of European winter time'],
  ['XICE', '2026-10-26T15:20:00Z', 'CLOSED', '15:20 GMT'],
  ['XWAR', '2026-03-27T07:59:00Z', 'CLOSED', '08:59 CET'],
  ['XWAR', '2026-03-27T08:00:00Z', 'OPEN', '09:00 CET'],
  ['XWAR', '2026-03-30T07:00:00Z', 'OPEN', '09:00 CEST'],
  ['XPRA', '2026-10-23T14:09:00Z', 'OPEN', '16:09 CEST, last Friday of summer time'],
  ['XPRA', '2026-10-26T15:09:00Z', 'OPEN', '16:09 CET, first Monday of winter time'],
  ['XPRA', '2026-10-26T15:10:00Z', 'CLOSED', '16:10 CET'],
  ['XBUD', '2026-03-27T15:59:00Z', 'OPEN', '16:59 CET'],
  ['XBUD', '2026-03-30T14:59:00Z', 'OPEN', '16:59 CEST'],
  ['XBUD', '2026-03-30T15:00:00Z', 'CLOSED', '17:00 CEST'],
  ['XBRA', '2026-03-27T10:00:00Z', 'OPEN', '11:00 CET'],
  ['XBRA', '2026-03-30T08:59:00Z', 'CLOSED', '10:59 CEST'],
  ['XBRA', '2026-03-30T09:00:00Z', 'OPEN', '11:00 CEST'],
  ['XZAG', '2026-10-23T07:30:00Z', 'OPEN', '09:30 CEST'],
  ['XZAG', '2026-10-26T08:29:00Z', 'CLOSED', '09:29 CET'],
  ['XZAG', '2026-10-26T08:30:00Z', 'OPEN', '09:30 CET'],
  ['XLJU', '2026-03-27T08:15:00Z', 'OPEN', '09:15 CET'],
  ['XLJU', '2026-03-30T07:14:00Z', 'CLOSED', '09:14 CEST'],
  ['XLJU', '2026-03-30T07:15:00Z', 'OPEN', '09:15 CEST'],
]

describe('2025-2028 facts: Luxembourg, Iceland, Warsaw, Prague, Budapest, Bratislava, Zagreb, Ljubljana', () => {
  testStatusFacts(FACTS.map(([mic, local, expected, why]): StatusFact => [mic, ...at(local), expected, why]))
  testUtcFacts(UTC_FACTS)
})

// [mic, local, status, phase, why]: the phases never change the status.
const PHASE_FACTS: [string, string, Expected, Phase, string][] = [
  ['XLUX', '2026-12-01 17:32', 'CLOSED', 'closing_auction', 'pre-closing and closing uncrossing 17:30-17:35'],
  ['XLUX', '2026-12-01 17:37', 'CLOSED', 'post_close', 'trading at last 17:35-17:40'],
  ['XLUX', '2026-12-01 17:45', 'CLOSED', 'closed', 'after trading at last'],
  ['XLUX', '2026-12-24 14:02', 'CLOSED', 'closing_auction', 'half day: closing auction 14:00-14:05'],
  ['XLUX', '2026-12-24 14:07', 'CLOSED', 'closed', 'half day: trading-at-last time not read, none entered'],
  ['XICE', '2026-12-01 12:00', 'OPEN', 'continuous', 'no phases entered for XICE: the status alone'],
  ['XWAR', '2026-12-01 08:45', 'CLOSED', 'pre_open_auction', 'pre-opening 08:30-09:00'],
  ['XWAR', '2026-12-01 16:55', 'CLOSED', 'closing_auction', 'pre-closing 16:50-17:00'],
  ['XWAR', '2026-12-01 17:02', 'CLOSED', 'post_close', 'trading at the closing price 17:00-17:05'],
  ['XWAR', '2026-12-01 17:10', 'CLOSED', 'closed', 'session over'],
  ['XPRA', '2026-12-01 08:55', 'CLOSED', 'pre_open_auction', 'opening auction 08:50-09:00'],
  ['XPRA', '2026-12-01 16:12', 'CLOSED', 'closing_auction', 'closing auction 16:10-16:15'],
  ['XPRA', '2026-12-01 16:20', 'CLOSED', 'post_close', 'trade at close 16:15-16:25'],
  ['XPRA', '2026-12-01 16:30', 'CLOSED', 'closed', 'session over'],
  ['XBUD', '2026-12-01 08:45', 'CLOSED', 'pre_open_auction', 'opening auction call 08:30-09:00'],
  ['XBUD', '2026-12-01 17:02', 'CLOSED', 'closing_auction', 'closing auction call 17:00-17:05'],
  ['XBUD', '2026-12-01 17:10', 'CLOSED', 'closed', 'post-trading is order maintenance only'],
  ['XBRA', '2026-12-01 10:40', 'CLOSED', 'closed', 'the fixing is not entered as a phase'],
  ['XZAG', '2026-12-01 09:15', 'CLOSED', 'pre_open_auction', 'opening auction 09:00-09:30'],
  ['XZAG', '2026-12-01 12:05', 'CLOSED', 'closed', 'intraday auction: the gap between the segments, not a band'],
  ['XZAG', '2026-12-01 15:57', 'CLOSED', 'closing_auction', 'closing auction 15:55-16:00'],
  ['XZAG', '2026-12-01 16:10', 'CLOSED', 'closed', 'post-trading is order maintenance only'],
  ['XLJU', '2026-12-01 08:30', 'CLOSED', 'pre_open_auction', 'opening auction 08:15-09:15'],
  ['XLJU', '2026-12-01 15:20', 'CLOSED', 'closing_auction', 'closing auction 15:15-15:25 (Prime market)'],
  ['XLJU', '2026-12-01 15:30', 'CLOSED', 'closed', 'book phase, no matching'],
]

describe('trading phases of the central-europe venues at known instants', () => {
  testPhaseFacts(PHASE_FACTS.map(([mic, local, status, phase]): PhaseFact => [mic, ...at(local), status, phase]))
})

describe('every day of 2027 and 2028 answers from the calendar', () => {
  // Roughly 245-250 trading days a year at noon (and at 16:00 where the session runs that late).
  testWalkWithoutUnknown(GROUP, '2027-01-01', '2028-12-31', 2 * 230)
  test('XZAG: covered to 2028-12-31, nothing provisional, OPEN or CLOSED at 03:00, 11:00, 12:05 and 14:00 local 2027-01-01..2028-12-31', () => {
    const calendar = repoCalendar('XZAG')
    expect(calendar.coverageTo).toBe('2028-12-31')
    expect(Object.keys(calendar.file.provisional ?? {})).toEqual([])
    const unknown: string[] = []
    let open = 0
    let midday = 0
    for (let day = dayNumber('2027-01-01'); day <= dayNumber('2028-12-31'); day++) {
      for (const time of ['03:00', '11:00', '12:05', '14:00']) {
        const { status } = statusAt(calendar, localInstant('XZAG', dateOfDayNumber(day), time))
        if (status === 'UNKNOWN') unknown.push(`${dateOfDayNumber(day)} ${time}`)
        if (status === 'OPEN' && time === '12:05') midday++
        else if (status === 'OPEN') open++
      }
    }
    expect(unknown).toEqual([])
    // About 245 trading days a year, each OPEN at 11:00 and 14:00; never OPEN in the intraday auction.
    expect(open).toBeGreaterThan(2 * 2 * 230)
    expect(midday).toBe(0)
  })
})
