// Dated facts for the southeast-baltic group (issue 33; see docs/calendars/southeast-baltic-2026.md):
// ASEX, XBSE, XBEL, XCYS, XTAL, XRIS, XLIT and XMOS. Each fact names its source: the exchange's
// notice where one was read (mostly through a stored copy or a press report of it), else the rule
// the file's sources name. Every fact also goes through the listed-day check of /v5/calendar.
import { describe } from 'bun:test'
import type { Phase } from '../../src/calendar/phases'
import { testPhaseFacts, testStatusFacts, testUtcFacts, testWalkWithoutUnknown, type PhaseFact, type StatusFact, type UtcFact } from '../helpers/calendar-facts'

type Expected = 'OPEN' | 'CLOSED' | 'UNKNOWN'
/** A venue's local wall time 'YYYY-MM-DD HH:MM' split into the date and time the shared fact tables take. */
const at = (local: string): [string, string] => local.split(' ') as [string, string]

// [mic, local 'YYYY-MM-DD HH:MM', expected, why (source)]
const FACTS: [string, string, Expected, string][] = [
  // Athens: continuous 10:30-17:00 (ATHEX timing: pre-opening from 10:00, closing auction from 17:00).
  ['ASEX', '2026-12-01 10:29', 'CLOSED', 'pre-opening auction 10:00-10:30 (ATHEX timing)'],
  ['ASEX', '2026-12-01 10:30', 'OPEN', 'continuous trading from 10:30'],
  ['ASEX', '2026-12-01 16:59', 'OPEN', 'continuous trading to 17:00'],
  ['ASEX', '2026-12-01 17:00', 'CLOSED', 'closing auction from 17:00 (ATHEX board decision of Nov 2013)'],
  ['ASEX', '2026-04-03 12:00', 'CLOSED', 'Good Friday (Catholic): ATHEX 2026 holiday table'],
  ['ASEX', '2026-04-10 12:00', 'CLOSED', 'Good Friday (Orthodox): ATHEX 2026 holiday table'],
  ['ASEX', '2026-04-13 12:00', 'CLOSED', 'Easter Monday (Orthodox): ATHEX 2026 holiday table'],
  ['ASEX', '2026-06-01 12:00', 'CLOSED', 'Whit Monday: ATHEX 2026 holiday table'],
  ['ASEX', '2026-08-17 12:00', 'OPEN', '15 Aug 2026 is a Saturday: no substitute day'],
  ['ASEX', '2025-12-31 14:59', 'OPEN', "New Year's Eve: continuous trading to 15:00 (2019 practice, CSE notice)"],
  ['ASEX', '2025-12-31 15:00', 'CLOSED', "New Year's Eve: session two hours shorter"],
  ['ASEX', '2027-03-26 12:00', 'CLOSED', 'Good Friday (Catholic) 2027 (rule: ATHEX closes both Easters)'],
  ['ASEX', '2027-04-30 12:00', 'CLOSED', 'Good Friday (Orthodox) 2027 (rule)'],
  ['ASEX', '2027-05-04 12:00', 'UNKNOWN', 'Labour Day 2027 falls on Holy Saturday: its transfer awaits a ministerial decision'],
  // Bucharest: continuous 09:46-17:55 (BVB schedule: opening at 09:45 plus up to 30 s).
  ['XBSE', '2026-12-02 09:45', 'CLOSED', 'opening at 09:45 plus a random 0-30 s (BVB notice of Dec 2019)'],
  ['XBSE', '2026-12-02 09:46', 'OPEN', 'continuous trading'],
  ['XBSE', '2026-12-02 17:54', 'OPEN', 'continuous trading to 17:55 (BVB schedule)'],
  ['XBSE', '2026-12-02 17:55', 'CLOSED', 'pre-close 17:55-18:00'],
  ['XBSE', '2026-12-01 12:00', 'CLOSED', 'National Day (Labour Code art. 139)'],
  ['XBSE', '2026-01-06 12:00', 'CLOSED', 'Epiphany: a public holiday since 2024 (Law 52/2023)'],
  ['XBSE', '2026-01-07 12:00', 'CLOSED', 'St John the Baptist: a public holiday since 2024'],
  ['XBSE', '2026-04-10 12:00', 'CLOSED', 'Orthodox Good Friday'],
  ['XBSE', '2026-04-06 12:00', 'OPEN', 'Catholic Easter Monday: BVB trades'],
  ['XBSE', '2026-12-24 12:00', 'OPEN', 'Christmas Eve is a trading day at BVB'],
  ['XBSE', '2027-06-01 12:00', 'CLOSED', "Children's Day 2027 (rule)"],
  ['XBSE', '2028-01-24 12:00', 'CLOSED', 'Unification Day 2028 (rule)'],
  // Belgrade: continuous from 09:28-09:30 (random) to 14:00 (BELEX trading phases).
  ['XBEL', '2026-12-02 09:29', 'CLOSED', 'pre-open to a random end between 09:28 and 09:30'],
  ['XBEL', '2026-12-02 09:30', 'OPEN', 'continuous trading'],
  ['XBEL', '2026-12-02 13:59', 'OPEN', 'continuous trading to 14:00'],
  ['XBEL', '2026-12-02 14:00', 'CLOSED', 'closing at 14:00'],
  ['XBEL', '2025-11-10 12:00', 'CLOSED', 'BELEX closed for the relocation of CSD servers (BELEX calendar via exchange_calendars)'],
  ['XBEL', '2026-01-07 12:00', 'CLOSED', 'Orthodox Christmas'],
  ['XBEL', '2026-02-17 12:00', 'CLOSED', 'Statehood Day 15 Feb 2026 was a Sunday: day off on Tuesday 17 Feb'],
  ['XBEL', '2026-12-30 12:00', 'OPEN', 'ordinary trading day before the year-end maintenance day'],
  ['XBEL', '2026-12-31 12:00', 'CLOSED', 'last working day of the year: maintenance (BELEX practice 2021-2025)'],
  ['XBEL', '2027-05-04 12:00', 'CLOSED', 'Labour Day 2 May 2027 is Easter Sunday: the day off falls after Easter Monday'],
  ['XBEL', '2028-01-03 12:00', 'CLOSED', "New Year's second day 2 Jan 2028 is a Sunday: day off on Monday"],
  // Cyprus: continuous 10:30-17:00 (CSE on the common platform with Athens).
  ['XCYS', '2026-12-01 10:29', 'CLOSED', 'pre-opening from 10:15'],
  ['XCYS', '2026-12-01 10:30', 'OPEN', 'continuous trading from 10:30'],
  ['XCYS', '2026-12-01 16:59', 'OPEN', 'continuous trading to 17:00'],
  ['XCYS', '2026-12-01 17:00', 'CLOSED', 'closing auction and trading at the close to 17:20'],
  ['XCYS', '2025-04-22 12:00', 'CLOSED', 'Orthodox Easter Tuesday: CSE announcement (Cyprus Mail, 8 Apr 2025)'],
  ['XCYS', '2025-05-01 12:00', 'CLOSED', 'Labour Day: CSE announcement (Cyprus Mail, 8 Apr 2025)'],
  ['XCYS', '2026-04-01 12:00', 'CLOSED', 'Cyprus National Day'],
  ['XCYS', '2026-10-01 12:00', 'CLOSED', 'Cyprus Independence Day'],
  ['XCYS', '2026-12-31 14:59', 'OPEN', "New Year's Eve: continuous trading to 15:00 (CSE notice of Nov 2019)"],
  ['XCYS', '2026-12-31 15:00', 'CLOSED', "New Year's Eve: markets close two hours early"],
  ['XCYS', '2027-05-04 12:00', 'CLOSED', 'Orthodox Easter Tuesday 2027 (rule)'],
  // Nasdaq Tallinn: continuous 10:00-15:55 (Nasdaq Baltic trading day structure).
  ['XTAL', '2026-12-01 09:59', 'CLOSED', 'pre-open 09:00-10:00'],
  ['XTAL', '2026-12-01 10:00', 'OPEN', 'opening call at 10:00, then continuous trading'],
  ['XTAL', '2026-12-01 15:54', 'OPEN', 'continuous trading to 15:55'],
  ['XTAL', '2026-12-01 15:55', 'CLOSED', 'pre-close and closing call 15:55-16:00'],
  ['XTAL', '2025-12-25 12:00', 'CLOSED', 'Christmas Day: Baltic exchanges close 24-26 Dec (aripaev.ee; exchange_calendars lacks it)'],
  ['XTAL', '2026-02-24 12:00', 'CLOSED', 'Estonian Independence Day'],
  ['XTAL', '2026-06-23 12:00', 'CLOSED', 'Victory Day'],
  ['XTAL', '2026-05-14 12:00', 'CLOSED', 'Ascension Day (exchange holiday per exchange_calendars)'],
  ['XTAL', '2026-12-31 12:00', 'CLOSED', "New Year's Eve"],
  ['XTAL', '2027-12-24 12:00', 'CLOSED', 'Christmas Eve 2027 (rule)'],
  // Nasdaq Riga.
  ['XRIS', '2026-12-01 10:00', 'OPEN', 'continuous trading from 10:00'],
  ['XRIS', '2026-12-01 15:55', 'CLOSED', 'pre-close and closing call'],
  ['XRIS', '2025-05-02 12:00', 'CLOSED', 'day off moved from Saturday 10 May (Cabinet order; exchange_calendars)'],
  ['XRIS', '2026-01-02 12:00', 'CLOSED', 'day off moved from Saturday 17 Jan (Cabinet order; vacanza/holidays LV)'],
  ['XRIS', '2026-06-22 12:00', 'CLOSED', 'day off moved from Saturday 27 Jun (Cabinet order)'],
  ['XRIS', '2026-02-24 12:00', 'OPEN', 'Estonian Independence Day: Riga trades'],
  ['XRIS', '2028-11-20 12:00', 'CLOSED', 'Proclamation Day 18 Nov 2028 is a Saturday: Monday off by law'],
  ['XRIS', '2027-06-25 12:00', 'UNKNOWN', 'bridge day the Cabinet may move to a Saturday'],
  ['XRIS', '2028-07-10 12:00', 'UNKNOWN', 'Song and Dance Festival closing day 2028 (dates not fixed)'],
  // Nasdaq Vilnius.
  ['XLIT', '2026-12-01 10:00', 'OPEN', 'continuous trading from 10:00'],
  ['XLIT', '2026-12-01 15:55', 'CLOSED', 'pre-close and closing call'],
  ['XLIT', '2025-12-25 12:00', 'CLOSED', 'Christmas Day (calendarlabs OMXV 2025; exchange_calendars lacks it)'],
  ['XLIT', '2026-02-16 12:00', 'CLOSED', 'Day of Restoration of the State'],
  ['XLIT', '2026-04-03 12:00', 'CLOSED', 'Good Friday (not a Lithuanian holiday; the exchange closes)'],
  ['XLIT', '2026-07-06 12:00', 'CLOSED', 'Statehood Day'],
  ['XLIT', '2026-11-02 12:00', 'CLOSED', "All Souls' Day"],
  ['XLIT', '2026-06-23 12:00', 'OPEN', 'Estonian and Latvian holiday: Vilnius trades'],
  // Moscow Exchange: main-session continuous trading; closing auction moved on 23 Mar 2026.
  ['XMOS', '2026-12-01 09:59', 'CLOSED', 'opening auction 09:50-10:00 (MOEX equity schedule)'],
  ['XMOS', '2026-12-01 10:00', 'OPEN', 'main session trading period from 10:00'],
  ['XMOS', '2026-12-01 18:54', 'OPEN', 'trading period to 18:55 from 23 Mar 2026 (MOEX via Interfax, 11 Feb 2026)'],
  ['XMOS', '2026-12-01 18:55', 'CLOSED', 'closing auction 18:55-19:00'],
  ['XMOS', '2026-03-20 18:39', 'OPEN', 'before 23 Mar 2026 the trading period ran to 18:40'],
  ['XMOS', '2026-03-20 18:40', 'CLOSED', 'closing auction 18:40-18:50 before 23 Mar 2026'],
  ['XMOS', '2026-03-23 18:54', 'OPEN', 'first day of the later closing auction'],
  ['XMOS', '2026-01-02 12:00', 'CLOSED', 'no trading on 1-2 Jan 2026 (MOEX notice of 30 Dec 2025)'],
  ['XMOS', '2026-01-05 12:00', 'OPEN', 'official non-working day with trading on all markets (MOEX notice)'],
  ['XMOS', '2026-01-09 12:00', 'OPEN', 'non-working day moved from 3 Jan: MOEX trades'],
  ['XMOS', '2026-03-09 12:00', 'OPEN', 'day off for 8 Mar: MOEX trades (notice of 6 Oct 2025)'],
  ['XMOS', '2026-02-23 12:00', 'CLOSED', 'Defender of the Fatherland Day: weekend-format session only, no main session'],
  ['XMOS', '2026-11-28 12:00', 'CLOSED', 'Saturday: the weekend additional session is not entered as OPEN'],
  ['XMOS', '2025-11-01 12:00', 'OPEN', 'working Saturday 1 Nov 2025: regular trading (MOEX via Kommersant)'],
  ['XMOS', '2025-11-01 18:40', 'CLOSED', 'working Saturday: closing auction from 18:40'],
  ['XMOS', '2025-11-03 12:00', 'OPEN', 'non-working Monday 3 Nov 2025: trading on all markets'],
  ['XMOS', '2025-12-31 12:00', 'CLOSED', "New Year's Eve: no trading"],
  ['XMOS', '2027-01-07 12:00', 'CLOSED', 'Orthodox Christmas 2027 (Labour Code art. 112; MOEX practice)'],
  ['XMOS', '2027-01-05 12:00', 'UNKNOWN', "New Year non-working day: awaits MOEX's 2027 holiday notice"],
  ['XMOS', '2027-11-13 12:00', 'UNKNOWN', 'possible working Saturday under the 2027 transfer decree'],
  ['XMOS', '2028-05-09 12:00', 'CLOSED', 'Victory Day 2028 (rule)'],
]

// Daylight-saving edges as UTC instants. EU zones: forward on Sunday 2026-03-29, back on Sunday
// 2026-10-25. Moscow keeps UTC+3 all year.
const UTC_FACTS: UtcFact[] = [
  ['ASEX', '2026-03-27T08:29:00Z', 'CLOSED', '10:29 EET'],
  ['ASEX', '2026-03-27T08:30:00Z', 'OPEN', '10:30 EET'],
  ['ASEX', '2026-03-30T07:29:00Z', 'CLOSED', '10:29 EEST, first Monday of summer time'],
  ['ASEX', '2026-03-30T07:30:00Z', 'OPEN', '10:30 EEST'],
  ['XBSE', '2026-10-23T14:54:00Z', 'OPEN', '17:54 EEST, last Friday of summer time'],
  ['XBSE', '2026-10-26T15:54:00Z', 'OPEN', '17:54 EET, first Monday of winter time'],
  ['XBSE', '2026-10-26T15:55:00Z', 'CLOSED', '17:55 EET'],
  ['XBEL', '2026-03-27T08:30:00Z', 'OPEN', '09:30 CET'],
  ['XBEL', '2026-03-30T07:29:00Z', 'CLOSED', '09:29 CEST'],
  ['XBEL', '2026-03-30T07:30:00Z', 'OPEN', '09:30 CEST'],
  ['XCYS', '2026-10-23T13:59:00Z', 'OPEN', '16:59 EEST (Asia/Nicosia)'],
  ['XCYS', '2026-10-26T14:59:00Z', 'OPEN', '16:59 EET'],
  ['XCYS', '2026-10-26T15:00:00Z', 'CLOSED', '17:00 EET'],
  ['XTAL', '2026-03-27T08:00:00Z', 'OPEN', '10:00 EET'],
  ['XTAL', '2026-03-30T06:59:00Z', 'CLOSED', '09:59 EEST'],
  ['XTAL', '2026-03-30T07:00:00Z', 'OPEN', '10:00 EEST'],
  ['XRIS', '2026-10-23T12:54:00Z', 'OPEN', '15:54 EEST'],
  ['XRIS', '2026-10-26T13:54:00Z', 'OPEN', '15:54 EET'],
  ['XRIS', '2026-10-26T13:55:00Z', 'CLOSED', '15:55 EET'],
  ['XLIT', '2026-03-30T06:59:00Z', 'CLOSED', '09:59 EEST'],
  ['XLIT', '2026-03-30T07:00:00Z', 'OPEN', '10:00 EEST'],
  ['XMOS', '2026-03-30T06:59:00Z', 'CLOSED', '09:59 MSK: no DST in Moscow'],
  ['XMOS', '2026-03-30T07:00:00Z', 'OPEN', '10:00 MSK'],
  ['XMOS', '2026-10-26T07:00:00Z', 'OPEN', '10:00 MSK, unchanged when Europe leaves summer time'],
]

describe('2025-2028 facts: Athens, Bucharest, Belgrade, Cyprus, Tallinn, Riga, Vilnius, Moscow', () => {
  testStatusFacts(FACTS.map(([mic, local, expected, why]): StatusFact => [mic, ...at(local), expected, why]))
  testUtcFacts(UTC_FACTS)
})

// [mic, local, status, phase]: the phases never change the status.
const PHASE_FACTS: [string, string, Expected, Phase | null][] = [
  ['ASEX', '2026-12-01 10:15', 'CLOSED', 'pre_open_auction'],
  ['ASEX', '2026-12-01 17:05', 'CLOSED', 'closing_auction'],
  ['ASEX', '2026-12-01 17:15', 'CLOSED', 'post_close'],
  ['ASEX', '2026-12-01 17:25', 'CLOSED', 'closed'],
  ['ASEX', '2025-12-31 15:05', 'CLOSED', 'closing_auction'],
  ['XBSE', '2026-12-02 09:40', 'CLOSED', 'pre_open_auction'],
  ['XBSE', '2026-12-02 17:57', 'CLOSED', 'closing_auction'],
  ['XBSE', '2026-12-02 18:05', 'CLOSED', 'post_close'],
  ['XBSE', '2026-12-02 18:15', 'CLOSED', 'closed'],
  ['XBEL', '2026-12-02 09:15', 'CLOSED', 'pre_open_auction'],
  ['XBEL', '2026-12-02 14:05', 'CLOSED', 'closed'],
  ['XCYS', '2026-12-01 10:20', 'CLOSED', 'pre_open_auction'],
  ['XCYS', '2026-12-01 17:05', 'CLOSED', 'closing_auction'],
  ['XTAL', '2026-12-01 09:30', 'CLOSED', 'pre_open_auction'],
  ['XTAL', '2026-12-01 15:57', 'CLOSED', 'closing_auction'],
  ['XTAL', '2026-12-01 16:15', 'CLOSED', 'closed'],
  ['XRIS', '2026-12-01 12:00', 'OPEN', 'continuous'],
  ['XLIT', '2026-12-01 15:57', 'CLOSED', 'closing_auction'],
  ['XMOS', '2026-12-01 07:30', 'CLOSED', 'extended'],
  ['XMOS', '2026-12-01 09:55', 'CLOSED', 'pre_open_auction'],
  ['XMOS', '2026-12-01 18:57', 'CLOSED', 'closing_auction'],
  ['XMOS', '2026-12-01 20:00', 'CLOSED', 'extended'],
  ['XMOS', '2026-12-01 23:55', 'CLOSED', 'closed'],
  ['XMOS', '2026-03-20 18:45', 'CLOSED', 'closing_auction'],
  ['XMOS', '2026-03-20 18:55', 'CLOSED', 'closed'],
  ['XMOS', '2025-01-15 07:30', 'CLOSED', 'closed'],
  ['XMOS', '2025-02-03 07:30', 'CLOSED', 'extended'],
  ['XMOS', '2027-01-05 12:00', 'UNKNOWN', null],
]

describe('trading phases at known instants', () => {
  testPhaseFacts(PHASE_FACTS.map(([mic, local, status, phase]): PhaseFact => [mic, ...at(local), status, phase]))
})

describe('every day of 2027 and 2028 answers from the calendar (venues without provisional dates)', () => {
  testWalkWithoutUnknown(['XBSE', 'XBEL', 'XCYS', 'XTAL', 'XLIT'], '2027-01-01', '2028-12-31', 2 * 230)
})
