// Dated facts for the futures-germany group (issue 33; see docs/calendars/futures-germany-2026.md):
// Eurex index futures (XEUR), Cboe Futures Exchange VIX futures (XCBF), ICE Futures U.S. Sugar
// No. 11 (IEPA), EEX German power futures (XEEE) and the Frankfurt, Hamburg, Düsseldorf and
// Stuttgart exchanges (XFRA, XHAM, XDUS, XSTU). Each fact names the notice it rests on; the
// files' `sources` give the URLs and say which were read through a secondary copy.
import { describe } from 'bun:test'
import type { Phase } from '../../src/calendar/phases'
// Each fact goes through the listed-day check: it is also checked against the day /v5/calendar lists.
import { testPhaseFacts, testStatusFacts, testUtcFacts, testWalkWithoutUnknown, type PhaseFact, type StatusFact, type UtcFact } from '../helpers/calendar-facts'

const GROUP = ['XEUR', 'XCBF', 'IEPA', 'XEEE', 'XFRA', 'XHAM', 'XDUS', 'XSTU'] as const

type Expected = 'OPEN' | 'CLOSED'
/** A venue's local wall time 'YYYY-MM-DD HH:MM' split into the date and time the shared fact tables take. */
const at = (local: string): [string, string] => local.split(' ') as [string, string]
// [mic, local 'YYYY-MM-DD HH:MM', expected, why (source)]
const FACTS: [string, string, Expected, string][] = [
  // Eurex FESX/FDAX: continuous trading from 01:15 CET / 02:15 CEST to 22:00 (Eurex circular 084/20,
  // trading-hours page); all-product closing days (holiday regulations via Lean PR #9183).
  ['XEUR', '2026-12-01 01:14', 'CLOSED', 'opening auction 01:10-01:15 CET (circular 084/20)'],
  ['XEUR', '2026-12-01 01:15', 'OPEN', 'continuous trading from 01:15 CET (circular 084/20)'],
  ['XEUR', '2026-12-01 21:59', 'OPEN', 'continuous trading to 22:00 (trading-hours page)'],
  ['XEUR', '2026-12-01 22:00', 'CLOSED', 'post-trading from 22:00'],
  ['XEUR', '2026-06-15 01:30', 'CLOSED', 'summer: trading starts 02:00 CEST (08:00 Singapore), not 01:00'],
  ['XEUR', '2026-06-15 02:15', 'OPEN', 'summer: continuous trading from 02:15 CEST'],
  ['XEUR', '2025-12-24 12:00', 'CLOSED', 'Christmas Eve: no trading in all Eurex derivatives (holiday regulations)'],
  ['XEUR', '2026-05-01 12:00', 'CLOSED', 'Labour Day 2026 (holiday regulations)'],
  ['XEUR', '2026-05-25 12:00', 'OPEN', 'Whit Monday: Eurex trades'],
  ['XEUR', '2025-10-03 12:00', 'OPEN', 'Day of German Unity: Eurex trades'],
  ['XEUR', '2025-12-30 20:00', 'OPEN', 'last trading day: FDAX and FESX keep regular hours (circulars 092/20, 107/21)'],
  ['XEUR', '2027-12-31 12:00', 'CLOSED', "New Year's Eve 2027 (rule)"],
  ['XEUR', '2028-12-26 12:00', 'CLOSED', 'Boxing Day 2028 (rule)'],
  // CFE VX: regular trading hours 08:30-15:00 CT since 2021-12-06 (CFE-2021-028); holidays and
  // 12:15 closes from Cboe's hours page (via Lean) and the Cboe release of 2024-12-30.
  ['XCBF', '2026-12-01 08:29', 'CLOSED', 'extended trading hours before the 08:30 RTH open'],
  ['XCBF', '2026-12-01 08:30', 'OPEN', 'VX regular trading hours from 08:30 CT'],
  ['XCBF', '2026-12-01 14:59', 'OPEN', 'RTH to 15:00 CT (CFE-2021-028)'],
  ['XCBF', '2026-12-01 15:00', 'CLOSED', 'RTH ends 15:00 CT since 2021-12-06 (the libraries still say 15:15)'],
  ['XCBF', '2025-01-09 10:00', 'CLOSED', 'day of mourning: RTH closed, ETH open (Cboe release 2024-12-30)'],
  ['XCBF', '2026-01-19 10:00', 'CLOSED', 'Martin Luther King Jr. Day 2026: no RTH (Cboe hours page via Lean)'],
  ['XCBF', '2025-11-28 12:14', 'OPEN', 'day after Thanksgiving 2025: RTH to 12:15'],
  ['XCBF', '2025-11-28 12:15', 'CLOSED', 'day after Thanksgiving 2025: RTH closed at 12:15'],
  ['XCBF', '2026-12-24 12:15', 'CLOSED', 'Christmas Eve 2026: RTH closed at 12:15 (Cboe hours page via Lean)'],
  ['XCBF', '2027-06-18 10:00', 'CLOSED', 'Juneteenth observed 2027 (NYSE-day rule)'],
  ['XCBF', '2028-07-03 12:15', 'CLOSED', 'day before Independence Day 2028: 12:15 close (rule)'],
  // ICE Futures U.S. Sugar No. 11: 03:30-13:00 ET; ICE 2025 holiday calendar; 2026 calendar via Lean.
  ['IEPA', '2026-12-01 03:29', 'CLOSED', 'Sugar No. 11 opens 03:30 ET'],
  ['IEPA', '2026-12-01 03:30', 'OPEN', 'Sugar No. 11 continuous trading from 03:30'],
  ['IEPA', '2026-12-01 12:59', 'OPEN', 'continuous trading to 13:00'],
  ['IEPA', '2026-12-01 13:00', 'CLOSED', 'Sugar No. 11 closes 13:00 ET'],
  ['IEPA', '2025-01-20 10:00', 'CLOSED', 'Martin Luther King Day: softs closed (ICE 2025 holiday calendar)'],
  ['IEPA', '2025-10-13 10:00', 'OPEN', 'Columbus Day: softs open (ICE 2025 holiday calendar)'],
  ['IEPA', '2025-11-11 10:00', 'OPEN', 'Veterans Day: softs open (ICE 2025 holiday calendar)'],
  ['IEPA', '2025-01-09 10:00', 'OPEN', 'day of mourning: ICE commodity markets traded (no closure in the ICE record)'],
  ['IEPA', '2025-12-26 07:59', 'CLOSED', 'Boxing Day: softs open, London closed, delayed open (ICE practice)'],
  ['IEPA', '2025-12-26 08:00', 'OPEN', 'Boxing Day: Sugar No. 11 from 08:00'],
  ['IEPA', '2025-08-25 07:29', 'CLOSED', 'London Late Summer bank holiday: open delayed to 07:30 (ICE notice for 2024)'],
  ['IEPA', '2025-08-25 07:30', 'OPEN', 'London Late Summer bank holiday: open 07:30'],
  ['IEPA', '2026-03-10 04:29', 'CLOSED', 'US DST before BST: Sugar No. 11 opens 04:30 ET (08:30 London)'],
  ['IEPA', '2026-03-10 04:30', 'OPEN', 'US DST before BST: open 04:30 ET'],
  ['IEPA', '2026-03-30 03:30', 'OPEN', 'BST has begun: back to 03:30 ET'],
  ['IEPA', '2026-04-03 10:00', 'CLOSED', 'Good Friday 2026 (ICE 2026 holiday calendar via Lean)'],
  ['IEPA', '2027-12-24 10:00', 'CLOSED', 'Christmas observed 2027 (rule)'],
  ['IEPA', '2027-12-31 10:00', 'OPEN', 'Saturday New Year 2028 not observed on Friday (rule)'],
  // EEX German power futures: 08:00-18:00 (EEX timetable via exchange-hours-rs); EEX's closing days (rule).
  ['XEEE', '2026-12-01 07:59', 'CLOSED', 'power futures trade from 08:00'],
  ['XEEE', '2026-12-01 08:00', 'OPEN', 'continuous trading from 08:00'],
  ['XEEE', '2026-12-01 17:59', 'OPEN', 'continuous trading to 18:00'],
  ['XEEE', '2026-12-01 18:00', 'CLOSED', 'trading ends 18:00'],
  ['XEEE', '2025-12-24 12:00', 'CLOSED', 'Christmas Eve: no derivatives trading (EEX calendar)'],
  ['XEEE', '2026-05-25 12:00', 'OPEN', 'Whit Monday: EEX trades'],
  ['XEEE', '2025-11-19 12:00', 'OPEN', 'Day of Repentance, a Saxon holiday: EEX in Leipzig trades'],
  ['XEEE', '2028-05-01 12:00', 'CLOSED', 'Labour Day 2028 (rule)'],
  // Börse Frankfurt specialist trading: 08:00-22:00 since 2021-11-29; Deutsche Börse's closing days;
  // 20:00 on holidays (2022 notice); 14:00 on the last trading day.
  ['XFRA', '2026-12-01 07:59', 'CLOSED', 'pre-trading from 07:00'],
  ['XFRA', '2026-12-01 08:00', 'OPEN', 'specialist trading from 08:00'],
  ['XFRA', '2026-12-01 21:59', 'OPEN', 'specialist trading to 22:00 since 29 Nov 2021'],
  ['XFRA', '2026-12-01 22:00', 'CLOSED', 'post-trading from 22:00'],
  ['XFRA', '2025-12-24 12:00', 'CLOSED', 'Christmas Eve: settlement day without trading'],
  ['XFRA', '2025-12-30 13:59', 'OPEN', 'last trading day 2025: trading to 14:00'],
  ['XFRA', '2025-12-30 14:00', 'CLOSED', 'last trading day 2025: 14:00 close'],
  ['XFRA', '2025-10-03 19:59', 'OPEN', 'Day of German Unity: trading to 20:00'],
  ['XFRA', '2025-10-03 20:00', 'CLOSED', 'Day of German Unity: 20:00 close (XFRA notice, 3 Oct 2022)'],
  ['XFRA', '2026-06-04 20:30', 'CLOSED', 'Corpus Christi, a Hessian holiday: 20:00 close'],
  ['XFRA', '2026-05-25 12:00', 'OPEN', 'Whit Monday: Börse Frankfurt trades'],
  ['XFRA', '2028-12-29 14:00', 'CLOSED', 'last trading day 2028 is Friday 29 Dec (rule)'],
  // Börse Hamburg: 08:00-20:00 (conservative bound); common closing days; 14:00 last trading day.
  ['XHAM', '2026-12-01 07:59', 'CLOSED', 'trading from 08:00'],
  ['XHAM', '2026-12-01 08:00', 'OPEN', 'trading from 08:00'],
  ['XHAM', '2026-12-01 19:59', 'OPEN', 'trading to 20:00 (bound entered)'],
  ['XHAM', '2026-12-01 20:00', 'CLOSED', 'after 20:00 answered CLOSED (conservative; see the file)'],
  ['XHAM', '2026-04-03 12:00', 'CLOSED', 'Good Friday'],
  ['XHAM', '2026-12-30 13:59', 'OPEN', 'last trading day: trading to 14:00'],
  ['XHAM', '2026-12-30 14:00', 'CLOSED', 'last trading day: floor exchanges close 14:00 (VR Bank 2020, Düsseldorf 2025)'],
  ['XHAM', '2025-10-31 12:00', 'OPEN', 'Reformation Day, a Hamburg holiday: trading'],
  ['XHAM', '2026-12-31 12:00', 'CLOSED', "New Year's Eve"],
  // Börse Düsseldorf: 08:00-22:00; its 2025 calendar (published); 2026-2028 by that calendar's pattern.
  ['XDUS', '2026-12-01 07:59', 'CLOSED', 'trading from 08:00'],
  ['XDUS', '2026-12-01 08:00', 'OPEN', 'Xontro and Quotrix trading from 08:00'],
  ['XDUS', '2026-12-01 21:59', 'OPEN', 'trading to 22:00'],
  ['XDUS', '2026-12-01 22:00', 'CLOSED', 'trading ends 22:00'],
  ['XDUS', '2025-05-29 19:59', 'OPEN', 'Ascension 2025: 08:00-20:00 (Düsseldorf 2025 calendar)'],
  ['XDUS', '2025-05-29 20:00', 'CLOSED', 'Ascension 2025: shortened to 20:00'],
  ['XDUS', '2025-06-19 21:00', 'OPEN', 'Corpus Christi 2025: 08:00-22:00 (a state holiday, full hours)'],
  ['XDUS', '2025-12-30 14:00', 'CLOSED', 'last trading day 2025: 08:00-14:00'],
  ['XDUS', '2025-12-24 12:00', 'CLOSED', 'Christmas Eve 2025: no trading'],
  ['XDUS', '2028-10-03 20:00', 'CLOSED', 'Day of German Unity 2028: 20:00 close (rule)'],
  // Börse Stuttgart: 08:00-22:00 (exchange's trading-times page); common closing days (rule).
  ['XSTU', '2026-12-01 07:59', 'CLOSED', 'shares trade from 08:00 (exchange_calendars says 07:30)'],
  ['XSTU', '2026-12-01 08:00', 'OPEN', 'shares trade from 08:00'],
  ['XSTU', '2026-12-01 21:59', 'OPEN', 'shares trade to 22:00'],
  ['XSTU', '2026-12-01 22:00', 'CLOSED', 'trading ends 22:00'],
  ['XSTU', '2026-04-06 12:00', 'CLOSED', 'Easter Monday'],
  ['XSTU', '2026-12-30 14:00', 'CLOSED', 'last trading day: 14:00 close (rule)'],
  ['XSTU', '2026-05-14 19:59', 'OPEN', 'Ascension: trading'],
  ['XSTU', '2026-05-14 20:00', 'CLOSED', 'Ascension: 20:00 entered as a conservative bound'],
  ['XSTU', '2026-06-04 21:00', 'OPEN', 'Corpus Christi (a Baden-Württemberg holiday): full hours'],
]

// Daylight-saving edges as UTC instants. Europe: forward on Sundays 2026-03-29, 2027-03-28 and
// 2028-03-26, back on 2026-10-25 and 2027-10-31. US: forward on 2026-03-08 and 2027-03-14.
const UTC_FACTS: UtcFact[] = [
  ['XEUR', '2028-03-24T00:14:00Z', 'CLOSED', '01:14 CET, opening auction'],
  ['XEUR', '2028-03-24T00:15:00Z', 'OPEN', '01:15 CET'],
  ['XEUR', '2028-03-27T00:14:00Z', 'CLOSED', '02:14 CEST: the open follows Singapore time'],
  ['XEUR', '2028-03-27T00:15:00Z', 'OPEN', '02:15 CEST, first Monday of summer time'],
  ['XEUR', '2026-10-23T00:14:00Z', 'CLOSED', '02:14 CEST, last Friday of summer time'],
  ['XEUR', '2026-10-23T00:15:00Z', 'OPEN', '02:15 CEST'],
  ['XEUR', '2026-10-23T19:59:00Z', 'OPEN', '21:59 CEST'],
  ['XEUR', '2026-10-23T20:00:00Z', 'CLOSED', '22:00 CEST'],
  ['XEUR', '2026-10-26T00:15:00Z', 'OPEN', '01:15 CET, first Monday of winter time'],
  ['XEUR', '2026-10-26T00:14:00Z', 'CLOSED', '01:14 CET'],
  ['XCBF', '2027-03-12T14:29:00Z', 'CLOSED', '08:29 CST'],
  ['XCBF', '2027-03-12T14:30:00Z', 'OPEN', '08:30 CST'],
  ['XCBF', '2027-03-15T13:30:00Z', 'OPEN', '08:30 CDT, first Monday of US daylight time'],
  ['XCBF', '2027-03-15T19:59:00Z', 'OPEN', '14:59 CDT'],
  ['XCBF', '2027-03-15T20:00:00Z', 'CLOSED', '15:00 CDT'],
  ['IEPA', '2026-03-06T08:30:00Z', 'OPEN', '03:30 EST = 08:30 London'],
  ['IEPA', '2026-03-09T07:30:00Z', 'CLOSED', '03:30 EDT: in the mismatch week the open is held at 08:30 London'],
  ['IEPA', '2026-03-09T08:30:00Z', 'OPEN', '04:30 EDT = 08:30 GMT'],
  ['IEPA', '2026-03-30T07:30:00Z', 'OPEN', '03:30 EDT = 08:30 BST'],
  ['IEPA', '2026-10-26T07:30:00Z', 'CLOSED', '03:30 EDT after BST ended: open 04:30 EDT'],
  ['IEPA', '2026-10-26T08:30:00Z', 'OPEN', '04:30 EDT = 08:30 GMT'],
  ['IEPA', '2026-11-02T08:30:00Z', 'OPEN', '03:30 EST'],
  ['XEEE', '2028-03-24T06:59:00Z', 'CLOSED', '07:59 CET'],
  ['XEEE', '2028-03-24T07:00:00Z', 'OPEN', '08:00 CET'],
  ['XEEE', '2028-03-27T05:59:00Z', 'CLOSED', '07:59 CEST'],
  ['XEEE', '2028-03-27T06:00:00Z', 'OPEN', '08:00 CEST'],
  ['XFRA', '2026-10-23T19:59:00Z', 'OPEN', '21:59 CEST'],
  ['XFRA', '2026-10-23T20:00:00Z', 'CLOSED', '22:00 CEST'],
  ['XFRA', '2026-10-26T20:59:00Z', 'OPEN', '21:59 CET, first Monday of winter time'],
  ['XFRA', '2026-10-26T21:00:00Z', 'CLOSED', '22:00 CET'],
  ['XHAM', '2027-10-29T06:00:00Z', 'OPEN', '08:00 CEST'],
  ['XHAM', '2027-11-01T06:59:00Z', 'CLOSED', '07:59 CET, first Monday of winter time'],
  ['XHAM', '2027-11-01T07:00:00Z', 'OPEN', '08:00 CET'],
  ['XDUS', '2028-03-24T20:59:00Z', 'OPEN', '21:59 CET'],
  ['XDUS', '2028-03-27T19:59:00Z', 'OPEN', '21:59 CEST'],
  ['XDUS', '2028-03-27T20:00:00Z', 'CLOSED', '22:00 CEST'],
  ['XSTU', '2026-03-27T07:00:00Z', 'OPEN', '08:00 CET'],
  ['XSTU', '2026-03-30T05:59:00Z', 'CLOSED', '07:59 CEST'],
  ['XSTU', '2026-03-30T06:00:00Z', 'OPEN', '08:00 CEST'],
]

describe('2025-2028 facts: Eurex, CFE, ICE US, EEX, Frankfurt, Hamburg, Düsseldorf, Stuttgart', () => {
  testStatusFacts(FACTS.map(([mic, local, expected, why]): StatusFact => [mic, ...at(local), expected, why]))
  testUtcFacts(UTC_FACTS)
})

// [mic, local, status, phase]: phases never change the status.
const PHASE_FACTS: [string, string, Expected, Phase][] = [
  ['XEUR', '2026-12-01 01:05', 'CLOSED', 'closed'], // pre-trading 01:00-01:10: order entry, not a phase
  ['XEUR', '2026-12-01 01:12', 'CLOSED', 'pre_open_auction'], // opening auction 01:10-01:15 (circular 084/20)
  ['XEUR', '2026-06-15 02:12', 'CLOSED', 'pre_open_auction'], // summer: auction 02:10-02:15 CEST
  ['XEUR', '2026-12-01 12:00', 'OPEN', 'continuous'],
  ['XEUR', '2026-12-01 22:05', 'CLOSED', 'closed'], // post-trading: no closing auction at Eurex
  ['XCBF', '2026-12-01 03:00', 'CLOSED', 'extended'], // overnight ETH since 17:00 the day before (CFE-2021-028)
  ['XCBF', '2026-12-01 15:30', 'CLOSED', 'extended'], // ETH 15:00-16:00
  ['XCBF', '2026-12-01 16:30', 'CLOSED', 'closed'], // 16:00-17:00 halt
  ['XCBF', '2026-12-01 18:00', 'CLOSED', 'closed'], // evening ETH not entered (no Friday evening; bands have no weekday)
  ['XCBF', '2026-11-27 05:00', 'CLOSED', 'extended'], // early-close day keeps the overnight band
  ['XCBF', '2026-11-27 13:00', 'CLOSED', 'closed'], // no band after the 12:15 early close (ETH times not read)
  ['XCBF', '2026-01-19 03:00', 'CLOSED', 'closed'], // holiday: no bands
  ['IEPA', '2026-12-01 03:00', 'CLOSED', 'closed'], // pre-open not entered
  ['XFRA', '2026-12-01 07:30', 'CLOSED', 'closed'], // no phases for the specialist model
]

describe('trading phases at known instants (futures-germany)', () => {
  testPhaseFacts(PHASE_FACTS.map(([mic, local, status, phase]): PhaseFact => [mic, ...at(local), status, phase]))
})

describe('every day of 2027 and 2028 answers from the calendar (futures-germany)', () => {
  // Roughly 250 trading days a year; at least the 12:00 sample is OPEN on each (03:00 and 16:00 often too).
  testWalkWithoutUnknown(GROUP, '2027-01-01', '2028-12-31', 2 * 230)
})
