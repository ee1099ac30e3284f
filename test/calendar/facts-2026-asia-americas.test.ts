// Dated facts for the asia-americas group (issue 33, see docs/calendars/asia-americas-2026.md): the
// new venues AIXK, XKAR, XPHS, XSGO, XBOG, XLIM, XBUE and XBDA - hours, lunch and prayer breaks,
// Ramadan and US-DST seasons, holidays, half days, DST edges, provisional days (UNKNOWN with the
// provisional reason) and trading phases, each with the notice or rule it rests on.
import { describe } from 'bun:test'
import type { Phase } from '../../src/calendar/phases'
// Each fact goes through the listed-day check: it is also checked against the day /v5/calendar lists.
import { testPhaseFacts, testStatusFacts, testUtcFacts, testWalkWithoutUnknown, type PhaseFact, type StatusFact, type UtcFact } from '../helpers/calendar-facts'

type Expected = 'OPEN' | 'CLOSED' | 'UNKNOWN'
/** A venue's local wall time 'YYYY-MM-DD HH:MM' split into the date and time the shared fact tables take. */
const at = (local: string): [string, string] => local.split(' ') as [string, string]
// [mic, local 'YYYY-MM-DD HH:MM', expected, why (source)]
const FACTS: [string, string, Expected, string][] = [
  // AIX: continuous 11:30-16:45 Astana time (FEAS profile, AIX notice 2020-10-23_01); Kazakhstan's public holidays.
  ['AIXK', '2026-12-01 11:29', 'CLOSED', 'pre-open 11:00-11:30 (FEAS profile)'],
  ['AIXK', '2026-12-01 11:30', 'OPEN', 'continuous trading from 11:30'],
  ['AIXK', '2026-12-01 16:44', 'OPEN', 'continuous trading to 16:45'],
  ['AIXK', '2026-12-01 16:45', 'CLOSED', 'pre-close from 16:45 (AIX notice 2020-10-23_01)'],
  ['AIXK', '2025-01-03 12:00', 'CLOSED', 'day off transferred from Sunday 5 Jan 2025 (Labour Ministry order)'],
  ['AIXK', '2026-03-24 12:00', 'CLOSED', 'Nauryz observed (eGov 2026 calendar)'],
  ['AIXK', '2026-05-27 12:00', 'CLOSED', 'Kurban Ait 2026 (eGov 2026 calendar)'],
  ['AIXK', '2026-08-31 12:00', 'OPEN', 'Constitution Day 30 August dropped by the 2026 Constitution (Labour Ministry, Taspanews 18 Mar 2026)'],
  ['AIXK', '2027-03-15 12:00', 'CLOSED', 'Constitution Day on 15 March from 2027 (rule)'],
  ['AIXK', '2027-07-06 12:00', 'CLOSED', 'Capital Day 2027 (rule)'],
  ['AIXK', '2027-07-05 12:00', 'UNKNOWN', 'possible bridge day before a Tuesday holiday (transfer not yet decided)'],
  ['AIXK', '2027-05-17 12:00', 'UNKNOWN', 'Kurban Ait 2027 falls on Sunday 16 or Monday 17 May'],
  ['AIXK', '2028-01-04 12:00', 'CLOSED', 'New Year 2 Jan 2028 (Sunday) observed (rule)'],
  // PSX: Mon-Thu 09:32-15:30, Friday 09:17-12:00 and 14:32-16:30; Ramadan 09:17-13:30 / Fri 09:17-12:30.
  ['XKAR', '2026-12-01 09:31', 'CLOSED', 'order matching 09:30-09:32'],
  ['XKAR', '2026-12-01 09:32', 'OPEN', 'open session from 09:32 (PSX timings, July 2020 / May 2021)'],
  ['XKAR', '2026-12-01 15:29', 'OPEN', 'open session to 15:30'],
  ['XKAR', '2026-12-01 15:30', 'CLOSED', 'close 15:30 Monday-Thursday'],
  ['XKAR', '2026-12-04 09:17', 'OPEN', 'Friday first session from 09:17'],
  ['XKAR', '2026-12-04 11:59', 'OPEN', 'Friday first session to 12:00'],
  ['XKAR', '2026-12-04 12:00', 'CLOSED', 'Friday prayer break 12:00-14:32'],
  ['XKAR', '2026-12-04 14:31', 'CLOSED', 'Friday second session not yet open'],
  ['XKAR', '2026-12-04 14:32', 'OPEN', 'Friday second session from 14:32'],
  ['XKAR', '2026-12-04 16:29', 'OPEN', 'Friday second session to 16:30'],
  ['XKAR', '2026-12-04 16:30', 'CLOSED', 'Friday close 16:30'],
  ['XKAR', '2026-03-02 09:17', 'OPEN', 'Ramadan 1447 timetable from 19 Feb 2026: open 09:17 (PSX notice via pkrevenue)'],
  ['XKAR', '2026-03-02 13:29', 'OPEN', 'Ramadan: open to 13:30 Monday-Thursday'],
  ['XKAR', '2026-03-02 13:30', 'CLOSED', 'Ramadan: close 13:30'],
  ['XKAR', '2026-03-06 12:30', 'CLOSED', 'Ramadan Friday: close 12:30, no afternoon session'],
  ['XKAR', '2026-03-20 12:00', 'CLOSED', 'Juma-tul-Wida 2026 (PSX 2026 list)'],
  ['XKAR', '2026-03-23 12:00', 'CLOSED', 'Pakistan Day and third day of Eid-ul-Fitr'],
  ['XKAR', '2026-03-24 09:31', 'CLOSED', 'regular hours again after Ramadan: open 09:32'],
  ['XKAR', '2026-06-24 12:00', 'OPEN', 'Ashura 2026 was 25-26 June, not 24-25 (PSX notices via exchange_calendars PR #584)'],
  ['XKAR', '2026-06-26 12:00', 'CLOSED', 'Ashura 10 Muharram 1448'],
  ['XKAR', '2025-06-06 12:00', 'CLOSED', 'PSX closed 6-9 June 2025 for Eid-ul-Azha (PSX notice, Profit 3 Jun 2025)'],
  ['XKAR', '2026-08-26 12:00', 'UNKNOWN', 'Eid Milad-un-Nabi 2026: closing day not confirmed'],
  ['XKAR', '2027-02-08 10:00', 'UNKNOWN', 'possible first day of Ramadan 1448: Ramadan or regular hours'],
  ['XKAR', '2027-02-09 13:29', 'OPEN', 'Ramadan 1448 timetable (PSX practice 2022-2026)'],
  ['XKAR', '2027-02-09 14:00', 'CLOSED', 'Ramadan 1448: closed after 13:30'],
  ['XKAR', '2027-03-05 12:00', 'CLOSED', 'Juma-tul-Wida 1448 (last Friday of Ramadan in every sighting outcome)'],
  ['XKAR', '2027-03-10 12:00', 'UNKNOWN', 'Eid-ul-Fitr 1448 on 10 or 11 March'],
  ['XKAR', '2027-03-11 12:00', 'CLOSED', 'Eid-ul-Fitr 1448 (closed in every sighting outcome)'],
  ['XKAR', '2028-05-05 12:00', 'CLOSED', 'Eid-ul-Azha 1449 holidays (closed in every sighting outcome)'],
  ['XKAR', '2028-05-04 12:00', 'UNKNOWN', 'Eid-ul-Azha 1449: 9 Dhul Hijjah on 4 or 5 May'],
  // PSE: 09:30-12:00 and 13:00-14:45 continuous; market close 15:00 (PSE memoranda 2021-2022); proclamations.
  ['XPHS', '2026-12-01 09:29', 'CLOSED', 'pre-open 09:00-09:30'],
  ['XPHS', '2026-12-01 09:30', 'OPEN', 'market open 09:30'],
  ['XPHS', '2026-12-01 11:59', 'OPEN', 'morning session to 12:00'],
  ['XPHS', '2026-12-01 12:00', 'CLOSED', 'recess 12:00-13:00'],
  ['XPHS', '2026-12-01 12:59', 'CLOSED', 'recess'],
  ['XPHS', '2026-12-01 13:00', 'OPEN', 'market resumption 13:00'],
  ['XPHS', '2026-12-01 14:44', 'OPEN', 'continuous trading to the 14:45 pre-close'],
  ['XPHS', '2026-12-01 14:45', 'CLOSED', 'pre-close 14:45, run-off 14:50, market close 15:00'],
  ['XPHS', '2026-12-01 15:10', 'CLOSED', 'market closed at 15:00, not 15:30'],
  ['XPHS', '2025-05-12 12:00', 'CLOSED', 'election day 2025 (Proclamation 878)'],
  ['XPHS', '2026-02-25 10:00', 'OPEN', 'EDSA anniversary is a special working day'],
  ['XPHS', '2026-11-02 10:00', 'CLOSED', "All Souls' Day 2026 (Proclamation 1006)"],
  ['XPHS', '2026-12-24 10:00', 'CLOSED', 'Christmas Eve 2026 (Proclamation 1006)'],
  ['XPHS', '2027-11-30 10:00', 'CLOSED', 'Bonifacio Day 2027 (RA 9492)'],
  ['XPHS', '2027-11-29 10:00', 'UNKNOWN', 'Bonifacio Day may be moved to Monday by the 2027 proclamation'],
  ['XPHS', '2027-03-10 10:00', 'UNKNOWN', "Eid'l Fitr 2027 date not proclaimed"],
  ['XPHS', '2028-05-08 10:00', 'UNKNOWN', 'election day 2028 not yet proclaimed a special non-working day'],
  // Bolsa de Santiago: 09:30; close 16:00 (Mar-Oct) / 17:00 (Nov-Feb), continuous to 15 minutes before.
  ['XSGO', '2026-06-02 09:29', 'CLOSED', 'before the 09:30 open'],
  ['XSGO', '2026-06-02 09:30', 'OPEN', 'open 09:30'],
  ['XSGO', '2026-06-02 15:44', 'OPEN', 'winter: continuous trading to 15:45'],
  ['XSGO', '2026-06-02 15:45', 'CLOSED', 'winter: closing auction before the 16:00 close'],
  ['XSGO', '2026-12-01 16:44', 'OPEN', 'summer: continuous trading to 16:45'],
  ['XSGO', '2026-12-01 16:45', 'CLOSED', 'summer: closing auction before the 17:00 close'],
  ['XSGO', '2025-12-24 12:44', 'OPEN', 'Christmas Eve 2025: continuous trading to 12:45 (nuam notice)'],
  ['XSGO', '2025-12-24 12:45', 'CLOSED', 'Christmas Eve 2025: closing auction 12:45-13:00 (nuam notice)'],
  ['XSGO', '2025-12-30 12:45', 'CLOSED', 'last trading day of 2025: the same half day (nuam notice)'],
  ['XSGO', '2025-12-31 10:00', 'CLOSED', 'bank holiday 31 Dec 2025 (Ley 21.791, nuam notice)'],
  ['XSGO', '2026-06-29 12:00', 'CLOSED', 'San Pedro y San Pablo 2026 (a Monday)'],
  ['XSGO', '2027-06-28 12:00', 'CLOSED', 'San Pedro y San Pablo 2027 moved to Monday (Ley 19.668)'],
  ['XSGO', '2027-09-17 12:00', 'CLOSED', '17 September 2027 is a Friday holiday (Ley 20.983)'],
  ['XSGO', '2028-10-27 12:00', 'CLOSED', 'Evangelical churches day 2028 moved to the Friday before'],
  // BVC: 09:30-15:55 (08:30-14:55 on the US-DST grid), closing auction 5 minutes (BVC Circular Única 3.2.1).
  ['XBOG', '2026-12-01 09:29', 'CLOSED', 'opening preparation 09:15-09:30'],
  ['XBOG', '2026-12-01 09:30', 'OPEN', 'open market 09:30'],
  ['XBOG', '2026-12-01 15:54', 'OPEN', 'continuous trading to 15:55'],
  ['XBOG', '2026-12-01 15:55', 'CLOSED', 'closing auction 15:55-16:00'],
  ['XBOG', '2026-06-02 08:29', 'CLOSED', 'US-DST grid: opening preparation 08:15-08:30'],
  ['XBOG', '2026-06-02 08:30', 'OPEN', 'US-DST grid: open 08:30 (Valora Analitik, 9 Mar-30 Oct 2026)'],
  ['XBOG', '2026-06-02 14:55', 'CLOSED', 'US-DST grid: closing auction 14:55-15:00'],
  ['XBOG', '2026-10-30 14:54', 'OPEN', 'last day of the 2026 US-DST grid'],
  ['XBOG', '2026-11-03 09:29', 'CLOSED', 'standard grid again (2 Nov is a holiday)'],
  ['XBOG', '2025-12-24 12:54', 'OPEN', 'Christmas Eve 2025: equities close 13:00 (nuam notice)'],
  ['XBOG', '2025-12-24 12:55', 'CLOSED', 'Christmas Eve: closing auction 12:55-13:00'],
  ['XBOG', '2025-12-31 12:00', 'CLOSED', 'last business day of the year: no trading'],
  ['XBOG', '2025-06-30 12:00', 'CLOSED', 'Sagrado Corazón and San Pedro y San Pablo both moved to Monday 30 June'],
  ['XBOG', '2026-07-13 12:00', 'CLOSED', 'Virgen del Rosario de Chiquinquirá (Ley 2578 de 2026), moved to Monday'],
  ['XBOG', '2028-12-29 12:00', 'CLOSED', 'last business day of 2028 (31 Dec is a Sunday)'],
  // BVL: 09:00-16:00, close 15:00 while the US observes DST (Gestión, Mar 2025); 24/31 Dec reduced (nuam).
  ['XLIM', '2026-12-01 08:59', 'CLOSED', 'before the 09:00 open'],
  ['XLIM', '2026-12-01 09:00', 'OPEN', 'open 09:00'],
  ['XLIM', '2026-12-01 15:59', 'OPEN', 'US standard time: trading to 16:00'],
  ['XLIM', '2026-12-01 16:00', 'CLOSED', 'close 16:00'],
  ['XLIM', '2026-06-02 14:59', 'OPEN', 'US DST: trading to 15:00'],
  ['XLIM', '2026-06-02 15:00', 'CLOSED', 'US DST: close 15:00'],
  ['XLIM', '2025-12-24 11:59', 'OPEN', 'reduced session 24 Dec 2025 (nuam notice)'],
  ['XLIM', '2025-12-24 12:00', 'CLOSED', 'reduced session ends (12:00-12:10 by segment)'],
  ['XLIM', '2025-12-31 11:00', 'OPEN', '31 Dec 2025 is a reduced session, not a holiday'],
  ['XLIM', '2025-07-23 12:00', 'CLOSED', 'Peruvian Air Force Day (Ley 31822)'],
  ['XLIM', '2026-07-29 12:00', 'CLOSED', 'Fiestas Patrias, second day'],
  ['XLIM', '2027-06-07 12:00', 'CLOSED', 'Battle of Arica and Flag Day (Ley 31788)'],
  // BYMA: 10:30-17:00 from 28 Jul 2025 (11:00 before); Ley 27.399; bridge days by decree.
  ['XBUE', '2026-12-01 10:29', 'CLOSED', 'before the 10:30 open'],
  ['XBUE', '2026-12-01 10:30', 'OPEN', 'open 10:30 since 28 Jul 2025'],
  ['XBUE', '2026-12-01 16:59', 'OPEN', 'trading to 17:00'],
  ['XBUE', '2026-12-01 17:00', 'CLOSED', 'close 17:00'],
  ['XBUE', '2025-07-25 10:45', 'CLOSED', 'before 28 Jul 2025 the session opened at 11:00'],
  ['XBUE', '2025-07-28 10:30', 'OPEN', 'new 10:30 open from 28 Jul 2025'],
  ['XBUE', '2025-11-06 12:00', 'CLOSED', "bankers' day: no market activity (CCT 18/75 art. 50)"],
  ['XBUE', '2025-11-17 12:00', 'OPEN', 'Soberanía Nacional 2025 moved to 24 Nov, not 17 Nov'],
  ['XBUE', '2025-11-21 12:00', 'CLOSED', 'bridge day 2025 (Decreto 1027/2024)'],
  ['XBUE', '2025-12-31 12:00', 'CLOSED', 'no trading on 31 Dec 2025 (BYMA)'],
  ['XBUE', '2026-06-15 12:00', 'CLOSED', 'Güemes 2026 moved to Monday 15 June'],
  ['XBUE', '2026-06-17 12:00', 'OPEN', '17 June 2026 is a working day'],
  ['XBUE', '2026-07-10 12:00', 'CLOSED', 'bridge day 2026 (Resolución 164/2025)'],
  ['XBUE', '2026-12-24 12:00', 'UNKNOWN', '24 Dec 2026 hours not yet announced'],
  ['XBUE', '2027-06-21 12:00', 'CLOSED', 'Güemes 2027 (a Thursday) moved to Monday 21 June (Ley 27.399)'],
  ['XBUE', '2027-05-24 12:00', 'UNKNOWN', 'possible 2027 bridge day before Revolución de Mayo'],
  // BSX: 09:00-15:30 (WFE, Reuters); Public Holidays Act; Christmas Eve early closure (BSX notices).
  ['XBDA', '2026-12-01 08:59', 'CLOSED', 'price discovery 08:30-08:59'],
  ['XBDA', '2026-12-01 09:00', 'OPEN', 'continuous trading from 09:00'],
  ['XBDA', '2026-12-01 15:29', 'OPEN', 'continuous trading to 15:30'],
  ['XBDA', '2026-12-01 15:30', 'CLOSED', 'after 15:30'],
  ['XBDA', '2025-12-24 13:59', 'OPEN', 'Christmas Eve 2025 early closure 09:00-14:00 (BSX notice 18 Dec 2025)'],
  ['XBDA', '2025-12-24 14:00', 'CLOSED', 'Christmas Eve 2025 early closure'],
  ['XBDA', '2025-12-26 12:00', 'CLOSED', 'Boxing Day 2025 (BSX notice)'],
  ['XBDA', '2026-07-31 12:00', 'CLOSED', 'Mary Prince Day 2026'],
  ['XBDA', '2026-12-28 12:00', 'CLOSED', 'Boxing Day 2026 (a Saturday) observed'],
  ['XBDA', '2028-11-13 12:00', 'CLOSED', 'Remembrance Day 2028 (a Saturday) observed'],
]

// Offset edges as UTC instants. Chile: standard time (UTC-4) from Sunday 4 Apr 2027. Bermuda: ADT
// (UTC-3) from Sunday 8 Mar 2026. Kazakhstan: UTC+5 since 1 Mar 2024, no DST. Colombia: no DST,
// but BVC's session moves with New York's (Monday 9 Mar 2026).
const UTC_FACTS: UtcFact[] = [
  ['AIXK', '2026-12-01T06:29:00Z', 'CLOSED', '11:29 Astana (UTC+5)'],
  ['AIXK', '2026-12-01T06:30:00Z', 'OPEN', '11:30 Astana (UTC+5)'],
  ['XSGO', '2027-04-02T12:29:00Z', 'CLOSED', '09:29 CLST (UTC-3), last Friday of summer time'],
  ['XSGO', '2027-04-02T12:30:00Z', 'OPEN', '09:30 CLST'],
  ['XSGO', '2027-04-05T12:30:00Z', 'CLOSED', '08:30 CLT (UTC-4), first Monday of standard time'],
  ['XSGO', '2027-04-05T13:30:00Z', 'OPEN', '09:30 CLT'],
  ['XBDA', '2026-03-06T12:59:00Z', 'CLOSED', '08:59 AST (UTC-4)'],
  ['XBDA', '2026-03-06T13:00:00Z', 'OPEN', '09:00 AST'],
  ['XBDA', '2026-03-09T12:00:00Z', 'OPEN', '09:00 ADT (UTC-3), first Monday of daylight time'],
  ['XBDA', '2026-03-09T11:59:00Z', 'CLOSED', '08:59 ADT'],
  ['XBOG', '2026-03-06T14:29:00Z', 'CLOSED', '09:29 Bogota, last Friday of the standard grid'],
  ['XBOG', '2026-03-06T14:30:00Z', 'OPEN', '09:30 Bogota'],
  ['XBOG', '2026-03-09T13:30:00Z', 'OPEN', '08:30 Bogota, first day of the US-DST grid (9:30 New York)'],
  ['XLIM', '2026-03-06T20:59:00Z', 'OPEN', '15:59 Lima, US standard time'],
  ['XLIM', '2026-03-09T20:00:00Z', 'CLOSED', '15:00 Lima, close on the US-DST schedule'],
]

describe('2025-2028 facts: Astana, Karachi, Manila, Santiago, Bogota, Lima, Buenos Aires, Bermuda', () => {
  testStatusFacts(FACTS.map(([mic, local, expected, why]): StatusFact => [mic, ...at(local), expected, why]))
  testUtcFacts(UTC_FACTS)
})

// [mic, local, status, phase]: the phases never change the status.
const PHASE_FACTS: [string, string, Expected, Phase | null][] = [
  ['AIXK', '2026-12-01 11:15', 'CLOSED', 'pre_open_auction'],
  ['AIXK', '2026-12-01 12:00', 'OPEN', 'continuous'],
  ['AIXK', '2026-12-01 16:50', 'CLOSED', 'closing_auction'],
  ['AIXK', '2026-12-01 17:02', 'CLOSED', 'post_close'],
  ['AIXK', '2026-12-01 17:10', 'CLOSED', 'closed'],
  ['XKAR', '2026-12-01 09:20', 'CLOSED', 'pre_open_auction'],
  ['XKAR', '2026-12-01 15:45', 'CLOSED', 'closed'],
  ['XKAR', '2026-12-01 16:05', 'CLOSED', 'post_close'],
  ['XKAR', '2026-12-04 09:05', 'CLOSED', 'pre_open_auction'],
  ['XKAR', '2026-12-04 14:20', 'CLOSED', 'closed'],
  ['XKAR', '2026-12-04 17:05', 'CLOSED', 'post_close'],
  ['XKAR', '2026-03-02 14:05', 'CLOSED', 'post_close'],
  ['XKAR', '2027-03-10 12:00', 'UNKNOWN', null],
  ['XPHS', '2026-12-01 09:10', 'CLOSED', 'pre_open_auction'],
  ['XPHS', '2026-12-01 12:30', 'CLOSED', 'closed'],
  ['XPHS', '2026-12-01 14:47', 'CLOSED', 'closing_auction'],
  ['XPHS', '2026-12-01 14:55', 'CLOSED', 'post_close'],
  ['XBOG', '2026-12-01 09:20', 'CLOSED', 'pre_open_auction'],
  ['XBOG', '2026-12-01 15:57', 'CLOSED', 'closing_auction'],
  ['XBOG', '2026-06-02 14:57', 'CLOSED', 'closing_auction'],
  ['XBOG', '2025-12-24 12:57', 'CLOSED', 'closing_auction'],
  ['XBDA', '2026-12-01 08:45', 'CLOSED', 'pre_open_auction'],
  ['XSGO', '2026-12-01 16:50', 'CLOSED', 'closed'],
  ['XBUE', '2026-12-01 12:00', 'OPEN', 'continuous'],
]

describe('trading phases (issue 20) at known instants, asia-americas venues', () => {
  testPhaseFacts(PHASE_FACTS.map(([mic, local, status, phase]): PhaseFact => [mic, ...at(local), status, phase]))
})

describe('every day of 2027 and 2028 answers from the calendar (venues without provisional dates)', () => {
  testWalkWithoutUnknown(['XSGO', 'XBOG', 'XLIM', 'XBDA'], '2027-01-01', '2028-12-31', 2 * 230)
})
