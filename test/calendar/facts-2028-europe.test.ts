// Dated facts for the europe group (see docs/calendars/europe-2028.md): the new venues XETR,
// XMAD, XOSL, XCSE, XWBO and XTAE (hours, holidays, early closes and DST edges from the
// exchanges' notices named in each file's sources), XIST through 2028, the trading phases of
// XETR, XMAD, XOSL, XCSE and XWBO (issue 20), and a walk over 2027-2028 for these venues.
import { describe } from 'bun:test'
import type { Phase } from '../../src/calendar/phases'
// Each fact goes through the listed-day check: it is also checked against the day /v5/calendar lists.
import { testPhaseFacts, testStatusFacts, testUtcFacts, testWalkWithoutUnknown, type PhaseFact, type StatusFact, type UtcFact } from '../helpers/calendar-facts'

const GROUP = ['XETR', 'XMAD', 'XOSL', 'XCSE', 'XWBO', 'XTAE', 'XIST'] as const

type Expected = 'OPEN' | 'CLOSED'
/** A venue's local wall time 'YYYY-MM-DD HH:MM' split into the date and time the shared fact tables take. */
const at = (local: string): [string, string] => local.split(' ') as [string, string]
// [mic, local 'YYYY-MM-DD HH:MM', expected, why]
const FACTS: [string, string, Expected, string][] = [
  // Deutsche Börse Xetra: 09:00-17:30; Deutsche Börse's non-trading days; last trading day to 14:00.
  ['XETR', '2026-12-01 08:59', 'CLOSED', 'opening auction before 09:00'],
  ['XETR', '2026-12-01 09:00', 'OPEN', 'continuous trading from 09:00'],
  ['XETR', '2026-12-01 17:29', 'OPEN', 'continuous trading to 17:30'],
  ['XETR', '2026-12-01 17:30', 'CLOSED', 'closing auction from 17:30'],
  ['XETR', '2025-12-24 12:00', 'CLOSED', 'Christmas Eve: settlement day without trading'],
  ['XETR', '2025-12-31 12:00', 'CLOSED', "New Year's Eve: settlement day without trading"],
  ['XETR', '2025-12-30 13:59', 'OPEN', 'last trading day of 2025: continuous trading to 14:00'],
  ['XETR', '2025-12-30 14:00', 'CLOSED', 'last trading day of 2025: closing auction from 14:00'],
  ['XETR', '2026-05-25 12:00', 'OPEN', 'Whit Monday: Xetra trades'],
  ['XETR', '2026-10-05 12:00', 'OPEN', 'ordinary Monday after the Day of German Unity (Saturday)'],
  ['XETR', '2027-10-04 12:00', 'OPEN', 'ordinary Monday; Xetra trades on 3 October holidays too'],
  ['XETR', '2026-12-30 13:59', 'OPEN', 'last trading day of 2026 (rule): continuous to 14:00'],
  ['XETR', '2026-12-30 14:00', 'CLOSED', 'last trading day of 2026 (rule): closing auction'],
  ['XETR', '2028-12-29 14:00', 'CLOSED', 'last trading day of 2028 is Friday 29 Dec (rule)'],
  ['XETR', '2028-05-01 12:00', 'CLOSED', 'Labour Day 2028 (Deutsche Börse table)'],
  ['XETR', '2028-12-26 12:00', 'CLOSED', 'Boxing Day 2028'],
  // BME (SIBE): 09:00-17:30; half sessions to 14:00 on 24 and 31 Dec.
  ['XMAD', '2026-12-01 08:59', 'CLOSED', 'opening auction 08:30-09:00'],
  ['XMAD', '2026-12-01 09:00', 'OPEN', 'continuous trading from 09:00'],
  ['XMAD', '2026-12-01 17:29', 'OPEN', 'continuous trading to 17:30'],
  ['XMAD', '2026-12-01 17:30', 'CLOSED', 'closing auction 17:30-17:35'],
  ['XMAD', '2026-04-06 12:00', 'CLOSED', 'Easter Monday (BME 2026 calendar)'],
  ['XMAD', '2026-12-24 13:54', 'OPEN', 'half session, morning'],
  ['XMAD', '2026-12-24 13:55', 'CLOSED', 'half session: the market ends at 14:00, continuous trading by 13:55'],
  ['XMAD', '2026-12-28 12:00', 'OPEN', "St Stephen's Day 2026 fell on a Saturday: no substitute"],
  ['XMAD', '2026-10-12 12:00', 'OPEN', 'Spanish National Day: the exchanges trade'],
  ['XMAD', '2027-12-31 13:55', 'CLOSED', "New Year's Eve half session 2027 (rule)"],
  ['XMAD', '2028-12-26 12:00', 'CLOSED', "St Stephen's Day 2028 (rule)"],
  // Euronext Oslo Børs: 09:00-16:20; Norwegian holidays; Holy Wednesday half day.
  ['XOSL', '2026-12-01 09:00', 'OPEN', 'continuous trading from 09:00'],
  ['XOSL', '2026-12-01 16:19', 'OPEN', 'continuous trading to 16:20'],
  ['XOSL', '2026-12-01 16:20', 'CLOSED', 'closing auction 16:20-16:25'],
  ['XOSL', '2025-04-16 12:59', 'OPEN', 'Holy Wednesday 2025: half day, continuous to 13:00'],
  ['XOSL', '2025-04-16 13:00', 'CLOSED', 'Holy Wednesday 2025: closing auction from 13:00'],
  ['XOSL', '2025-04-17 12:00', 'CLOSED', 'Maundy Thursday'],
  ['XOSL', '2025-05-29 12:00', 'CLOSED', 'Ascension Day 2025'],
  ['XOSL', '2026-05-14 12:00', 'CLOSED', 'Ascension Day 2026 (rule)'],
  ['XOSL', '2026-12-31 12:00', 'CLOSED', "New Year's Eve"],
  ['XOSL', '2027-05-17 12:00', 'CLOSED', 'Constitution Day and Whit Monday 2027'],
  ['XOSL', '2028-05-17 12:00', 'CLOSED', 'Constitution Day 2028 (Wednesday)'],
  ['XOSL', '2028-04-12 13:00', 'CLOSED', 'Holy Wednesday 2028 half day (rule)'],
  // Nasdaq Copenhagen: 09:00-16:55 continuous; bank closing days; no Great Prayer Day.
  ['XCSE', '2026-12-01 08:59', 'CLOSED', 'pre-open 08:00-09:00'],
  ['XCSE', '2026-12-01 09:00', 'OPEN', 'continuous trading from 09:00'],
  ['XCSE', '2026-12-01 16:54', 'OPEN', 'continuous trading to 16:55'],
  ['XCSE', '2026-12-01 16:55', 'CLOSED', 'closing call 16:55-17:00'],
  ['XCSE', '2025-05-16 12:00', 'OPEN', 'Great Prayer Day would have been 16 May 2025: abolished from 2024'],
  ['XCSE', '2026-05-01 12:00', 'OPEN', '1 May is a trading day in Copenhagen'],
  ['XCSE', '2026-05-15 12:00', 'CLOSED', 'bank closing day after Ascension (Danmarks Nationalbanken 2026)'],
  ['XCSE', '2026-06-05 12:00', 'CLOSED', 'Constitution Day'],
  ['XCSE', '2025-12-24 12:00', 'CLOSED', 'Christmas Eve'],
  ['XCSE', '2027-05-07 12:00', 'CLOSED', 'bank closing day after Ascension 2027'],
  ['XCSE', '2028-06-05 12:00', 'CLOSED', 'Whit Monday and Constitution Day 2028'],
  ['XCSE', '2028-05-26 12:00', 'CLOSED', 'bank closing day after Ascension 2028'],
  // Wiener Börse: 09:00-17:30; last trading day to 14:15; Austrian holidays it trades on.
  ['XWBO', '2026-12-01 08:59', 'CLOSED', 'opening auction from 08:55'],
  ['XWBO', '2026-12-01 09:00', 'OPEN', 'continuous trading from 09:00'],
  ['XWBO', '2026-12-01 12:01', 'OPEN', 'the 12:00 midday auction is kept inside the session'],
  ['XWBO', '2026-12-01 17:30', 'CLOSED', 'closing auction 17:30-17:35'],
  ['XWBO', '2025-12-30 14:14', 'OPEN', 'last trading day 2025: shortened session'],
  ['XWBO', '2025-12-30 14:15', 'CLOSED', 'last trading day 2025: closing auction from 14:15'],
  ['XWBO', '2025-06-09 12:00', 'OPEN', 'Whit Monday: a trading day since 2023'],
  ['XWBO', '2025-12-08 12:00', 'OPEN', 'Immaculate Conception: a trading day since 2019'],
  ['XWBO', '2026-10-26 12:00', 'CLOSED', 'Austrian National Holiday'],
  ['XWBO', '2027-12-30 14:15', 'CLOSED', 'last trading day 2027 (rule)'],
  ['XWBO', '2028-10-26 12:00', 'CLOSED', 'National Holiday 2028 (Thursday)'],
  // Tel Aviv Stock Exchange: Sunday-Thursday until 4 Jan 2026, Monday-Friday from 5 Jan 2026.
  ['XTAE', '2025-12-07 12:00', 'OPEN', 'Sunday trading in the old week'],
  ['XTAE', '2025-12-07 15:39', 'OPEN', 'Sunday continuous trading to 15:40'],
  ['XTAE', '2025-12-07 15:40', 'CLOSED', 'Sunday session over at 15:40'],
  ['XTAE', '2025-12-05 12:00', 'CLOSED', 'Friday: no trading in the old week'],
  ['XTAE', '2026-01-04 12:00', 'OPEN', 'last Sunday session, 4 Jan 2026'],
  ['XTAE', '2026-01-09 12:00', 'OPEN', 'first Friday session, 9 Jan 2026'],
  ['XTAE', '2026-01-11 12:00', 'CLOSED', 'Sunday: no trading from 5 Jan 2026'],
  ['XTAE', '2026-12-01 09:59', 'CLOSED', 'continuous trading starts at random between 09:59 and 10:00'],
  ['XTAE', '2026-12-01 10:00', 'OPEN', 'continuous trading from 10:00'],
  ['XTAE', '2026-12-01 17:13', 'OPEN', 'continuous trading to 17:14'],
  ['XTAE', '2026-12-01 17:14', 'CLOSED', 'continuous trading ends at random between 17:14 and 17:15'],
  ['XTAE', '2026-12-04 13:33', 'OPEN', 'Friday continuous trading to 13:34'],
  ['XTAE', '2026-12-04 13:34', 'CLOSED', 'Friday closing phases before Shabbat'],
  ['XTAE', '2025-10-02 12:00', 'CLOSED', 'Yom Kippur 2025 (TASE 2025 schedule)'],
  ['XTAE', '2025-10-08 14:13', 'OPEN', 'Sukkot intermediate day 2025: shortened trading'],
  ['XTAE', '2025-10-08 14:14', 'CLOSED', 'Sukkot intermediate day 2025: closing phase from 14:15'],
  ['XTAE', '2026-03-03 12:00', 'CLOSED', 'Purim 2026'],
  ['XTAE', '2026-04-22 12:00', 'CLOSED', 'Independence Day 2026'],
  ['XTAE', '2026-09-18 12:00', 'CLOSED', 'no Friday trading before Yom Kippur eve on Sunday 20 Sep 2026'],
  ['XTAE', '2026-09-28 14:14', 'CLOSED', 'Sukkot intermediate day 2026: shortened'],
  ['XTAE', '2027-10-08 12:00', 'CLOSED', 'no Friday trading before Yom Kippur eve on Sunday 10 Oct 2027 (rule)'],
  ['XTAE', '2027-08-12 12:00', 'CLOSED', "Tisha B'Av 2027 (rule)"],
  ['XTAE', '2028-03-10 12:00', 'CLOSED', 'no Friday trading before Purim on Sunday 12 Mar 2028 (rule)'],
  ['XTAE', '2028-04-14 12:00', 'CLOSED', 'no Friday trading before the eve of the seventh day of Passover on Sunday 16 Apr 2028 (rule)'],
  ['XTAE', '2028-10-06 13:33', 'OPEN', 'Sukkot intermediate Friday 2028: the Friday session applies'],
  ['XTAE', '2028-10-09 14:14', 'CLOSED', 'Sukkot intermediate day 2028: shortened (rule)'],
  ['XTAE', '2028-09-22 12:00', 'CLOSED', 'Rosh Hashanah second day 2028 (Friday)'],
  // Borsa Istanbul 2028: Law 2429 with Diyanet's computed Bayram dates.
  ['XIST', '2028-02-25 12:29', 'OPEN', 'Ramazan Bayrami arefe 2028: half day, continuous to 12:30'],
  ['XIST', '2028-02-25 12:30', 'CLOSED', 'Ramazan Bayrami arefe 2028: closing session from 12:30'],
  ['XIST', '2028-02-28 12:00', 'CLOSED', 'Ramazan Bayrami third day 2028'],
  ['XIST', '2028-05-04 12:30', 'CLOSED', 'Kurban Bayrami arefe 2028: half day'],
  ['XIST', '2028-05-08 12:00', 'CLOSED', 'Kurban Bayrami fourth day 2028'],
  ['XIST', '2028-05-09 12:00', 'OPEN', 'first trading day after Kurban Bayrami 2028'],
  ['XIST', '2028-10-27 17:59', 'OPEN', '28 October 2028 is a Saturday: no half day on the Friday'],
]

// Daylight-saving edges as UTC instants. Europe: clocks go forward on Sunday 2028-03-26 and back
// on Sunday 2027-10-31. Israel: forward on Friday 2027-03-26 (the Friday before the last Sunday of March).
const UTC_FACTS: UtcFact[] = [
  ['XETR', '2028-03-24T07:59:00Z', 'CLOSED', '08:59 CET, before the open'],
  ['XETR', '2028-03-24T08:00:00Z', 'OPEN', '09:00 CET'],
  ['XETR', '2028-03-27T07:00:00Z', 'OPEN', '09:00 CEST, first Monday of summer time'],
  ['XMAD', '2028-03-27T06:59:00Z', 'CLOSED', '08:59 CEST'],
  ['XMAD', '2028-03-27T07:00:00Z', 'OPEN', '09:00 CEST'],
  ['XOSL', '2027-10-29T14:19:00Z', 'OPEN', '16:19 CEST, last Friday of summer time'],
  ['XOSL', '2027-11-01T15:19:00Z', 'OPEN', '16:19 CET, first Monday of winter time'],
  ['XOSL', '2027-11-01T15:20:00Z', 'CLOSED', '16:20 CET'],
  ['XCSE', '2028-03-27T14:54:00Z', 'OPEN', '16:54 CEST'],
  ['XCSE', '2028-03-27T14:55:00Z', 'CLOSED', '16:55 CEST'],
  ['XWBO', '2028-03-24T08:00:00Z', 'OPEN', '09:00 CET'],
  ['XWBO', '2028-03-27T07:00:00Z', 'OPEN', '09:00 CEST'],
  ['XTAE', '2027-03-25T07:59:00Z', 'CLOSED', '09:59 IST (UTC+2), Thursday before the change'],
  ['XTAE', '2027-03-25T08:00:00Z', 'OPEN', '10:00 IST'],
  ['XTAE', '2027-03-26T07:00:00Z', 'OPEN', '10:00 IDT (UTC+3): clocks went forward at 02:00 that Friday'],
  ['XTAE', '2027-03-26T10:34:00Z', 'CLOSED', '13:34 IDT, Friday continuous trading over'],
]

describe('2025-2028 facts: Xetra, BME, Oslo, Copenhagen, Vienna, Tel Aviv, Istanbul', () => {
  testStatusFacts(FACTS.map(([mic, local, expected, why]): StatusFact => [mic, ...at(local), expected, why]))
  testUtcFacts(UTC_FACTS)
})

// [mic, local, status, phase, why]: the phases never change the status.
const PHASE_FACTS: [string, string, Expected, Phase, string][] = [
  ['XETR', '2026-12-01 07:30', 'CLOSED', 'closed', 'pre-trading is order entry only, not a phase here'],
  ['XETR', '2026-12-01 08:30', 'CLOSED', 'extended', 'Retail Early trading 08:00-08:55 (since 1 Dec 2025)'],
  ['XETR', '2026-12-01 08:57', 'CLOSED', 'pre_open_auction', 'opening auction from 08:55'],
  ['XETR', '2026-12-01 13:01', 'OPEN', 'continuous', 'the intraday auction is not modelled'],
  ['XETR', '2026-12-01 17:32', 'CLOSED', 'closing_auction', 'closing auction 17:30-17:35'],
  ['XETR', '2026-12-01 17:37', 'CLOSED', 'post_close', 'Trade-at-Close 17:35-17:40'],
  ['XETR', '2026-12-01 20:00', 'CLOSED', 'extended', 'Retail Late trading 17:40-22:00'],
  ['XETR', '2026-12-01 22:00', 'CLOSED', 'closed', 'post-trading from 22:00'],
  ['XETR', '2025-06-16 08:52', 'CLOSED', 'pre_open_auction', 'before Dec 2025 the opening auction started 08:50'],
  ['XETR', '2025-06-16 17:42', 'CLOSED', 'post_close', 'before Dec 2025 Trade-at-Close ran to 17:45'],
  ['XETR', '2025-06-16 18:00', 'CLOSED', 'closed', 'no Retail Late trading before Dec 2025'],
  ['XETR', '2026-12-30 14:02', 'CLOSED', 'closing_auction', 'last trading day: closing auction from 14:00'],
  ['XETR', '2026-12-30 14:07', 'CLOSED', 'closed', 'last trading day: Trade-at-Close time not read, none entered'],
  ['XMAD', '2026-12-01 08:45', 'CLOSED', 'pre_open_auction', 'opening auction 08:30-09:00'],
  ['XMAD', '2026-12-01 17:33', 'CLOSED', 'closing_auction', 'closing auction 17:30-17:35'],
  ['XMAD', '2026-12-01 17:40', 'CLOSED', 'post_close', 'Trading-at-Last 17:35-17:45'],
  ['XMAD', '2026-12-24 13:57', 'CLOSED', 'closed', 'half session: closing phases not read, none entered'],
  ['XOSL', '2026-12-01 08:30', 'CLOSED', 'pre_open_auction', 'pre-opening 08:15-09:00'],
  ['XOSL', '2026-12-01 16:22', 'CLOSED', 'closing_auction', 'closing auction 16:20-16:25'],
  ['XOSL', '2026-04-01 13:02', 'CLOSED', 'closing_auction', 'Holy Wednesday: closing auction 13:00-13:05'],
  ['XCSE', '2026-12-01 08:30', 'CLOSED', 'pre_open_auction', 'pre-open 08:00-09:00'],
  ['XCSE', '2026-12-01 16:57', 'CLOSED', 'closing_auction', 'closing call 16:55-17:00'],
  ['XCSE', '2026-12-01 17:05', 'CLOSED', 'post_close', 'Trading at Closing Price 17:00-17:10'],
  ['XCSE', '2026-12-01 17:15', 'CLOSED', 'closed', 'post-trading is not an order-book phase'],
  ['XWBO', '2026-12-01 08:57', 'CLOSED', 'pre_open_auction', 'opening auction from 08:55'],
  ['XWBO', '2026-12-01 17:32', 'CLOSED', 'closing_auction', 'closing auction 17:30-17:35'],
  ['XWBO', '2026-12-01 17:40', 'CLOSED', 'post_close', 'Trade at Close 17:35-17:45'],
  ['XWBO', '2025-12-30 14:17', 'CLOSED', 'closing_auction', 'last trading day: closing auction from 14:15'],
  ['XTAE', '2026-12-01 12:00', 'OPEN', 'continuous', 'no phases entered for XTAE: the status alone'],
]

describe('trading phases (issue 20) at known instants', () => {
  testPhaseFacts(PHASE_FACTS.map(([mic, local, status, phase]): PhaseFact => [mic, ...at(local), status, phase]))
})

describe('every day of 2027 and 2028 answers from the calendar', () => {
  // Roughly 240-250 trading days a year at noon (and at 16:00 where the session runs that late).
  testWalkWithoutUnknown(GROUP, '2027-01-01', '2028-12-31', 2 * 230)
})
