// Facts for the east-asian venues through 2028 (XJPX, XHKG, XSES, XSHG, XSHE, XKRX) and the new
// XTAI file, checked against schedules/ (see each file's sources and docs/calendars/east-asia-2028.md).
// They check the data, not the engine.
import { describe, expect, test } from 'bun:test'
import { phaseAt } from '../../src/calendar/engine'
import { EXCHANGE_IDENTITIES } from '../../src/calendar/exchanges'
import type { Phase } from '../../src/calendar/phases'
import { sharedCalendars } from '../helpers/app'
// statusAt through the listed-day check: each fact is also checked against the day /v5/calendar lists.
import { statusAt } from '../helpers/listed-days'
import { testStatusFacts, type ExpectedStatus, type StatusFact } from '../helpers/calendar-facts'
import { localInstant } from '../helpers/venue-time'

const MICS = ['XJPX', 'XHKG', 'XSES', 'XSHG', 'XSHE', 'XKRX', 'XTAI']

// [venue, local date, local time, expected status, why]
const FACTS: StatusFact[] = [
  // Taiwan: TWSE's published 2025 and 2026 schedules (via press and calendar projects).
  ['XTAI', '2025-01-22', '13:29', 'OPEN', 'last trading day before Lunar New Year 2025 (TWSE notice of 22 Nov 2024)'],
  ['XTAI', '2025-01-23', '10:00', 'CLOSED', 'no trading, clearing and settlement only'],
  ['XTAI', '2025-02-03', '09:00', 'OPEN', 'first trading day after Lunar New Year 2025'],
  ['XTAI', '2025-10-24', '10:00', 'CLOSED', 'Retrocession Day observed (revised 2025 calendar)'],
  ['XTAI', '2025-12-25', '10:00', 'CLOSED', 'Constitution Day, a day off again from 2025'],
  ['XTAI', '2026-02-11', '13:29', 'OPEN', 'last trading day before Lunar New Year 2026'],
  ['XTAI', '2026-02-12', '10:00', 'CLOSED', 'no trading before Lunar New Year 2026'],
  ['XTAI', '2026-02-20', '10:00', 'CLOSED', 'substitute for the day before the Eve (a Sunday)'],
  ['XTAI', '2026-02-23', '09:00', 'OPEN', 'first trading day after Lunar New Year 2026'],
  ['XTAI', '2026-03-10', '08:59', 'CLOSED', 'before the 09:00 open (pre-open order entry is not trading)'],
  ['XTAI', '2026-03-10', '09:00', 'OPEN', 'regular open'],
  ['XTAI', '2026-03-10', '12:00', 'OPEN', 'no lunch break'],
  ['XTAI', '2026-03-10', '13:29', 'OPEN', 'inside the session (closing call auction 13:25-13:30 kept inside)'],
  ['XTAI', '2026-03-10', '13:30', 'CLOSED', 'regular close'],
  ['XTAI', '2026-10-26', '10:00', 'CLOSED', 'Retrocession Day observed (25 Oct is a Sunday)'],
  // Taiwan 2027-2028 by the 2025 holidays act and TWSE practice.
  ['XTAI', '2027-01-28', '10:00', 'OPEN', 'regular session before the Lunar New Year window'],
  ['XTAI', '2027-02-01', '10:00', 'UNKNOWN', 'possible no-trading day: where the 2027 substitute days go is not known here'],
  ['XTAI', '2027-02-03', '10:00', 'CLOSED', 'closed in every arrangement (no-trading day or substitute day off)'],
  ['XTAI', '2027-02-10', '10:00', 'UNKNOWN', 'possible substitute day off for Sun 7 Feb'],
  ['XTAI', '2027-02-11', '09:00', 'OPEN', 'trading resumes after Lunar New Year 2027 in every arrangement'],
  ['XTAI', '2027-04-06', '10:00', 'CLOSED', "Children's Day observed (4 Apr is a Sunday, 5 Apr Tomb-Sweeping Day)"],
  ['XTAI', '2027-12-24', '10:00', 'CLOSED', 'Constitution Day observed (25 Dec is a Saturday)'],
  ['XTAI', '2027-12-31', '10:00', 'CLOSED', 'Founding Day 2028 observed (1 Jan 2028 is a Saturday)'],
  ['XTAI', '2028-01-19', '13:00', 'OPEN', 'last trading day before Lunar New Year 2028'],
  ['XTAI', '2028-01-20', '10:00', 'CLOSED', 'no trading before Lunar New Year 2028'],
  ['XTAI', '2028-01-31', '09:00', 'OPEN', 'first trading day after Lunar New Year 2028'],
  ['XTAI', '2028-04-03', '10:00', 'CLOSED', "Children's Day moved to the day before Tomb-Sweeping Day"],
  ['XTAI', '2028-05-29', '10:00', 'CLOSED', 'Dragon Boat Festival observed (28 May is a Sunday)'],
  ['XTAI', '2028-10-02', '10:00', 'OPEN', 'no bridge day before the Tuesday Mid-Autumn Festival'],
  // Japan 2028: Act on National Holidays.
  ['XJPX', '2028-01-03', '10:00', 'CLOSED', 'New Year holiday (1-3 Jan)'],
  ['XJPX', '2028-01-04', '09:00', 'OPEN', 'first session of 2028'],
  ['XJPX', '2028-03-20', '10:00', 'CLOSED', 'Vernal Equinox Day'],
  ['XJPX', '2028-04-28', '10:00', 'OPEN', 'no substitute for Showa Day on a Saturday'],
  ['XJPX', '2028-09-22', '10:00', 'CLOSED', 'Autumnal Equinox Day'],
  ['XJPX', '2028-09-21', '15:29', 'OPEN', 'regular session between the September holidays'],
  // Hong Kong 2028: General Holidays Ordinance and HKEX's half-day practice.
  ['XHKG', '2028-01-25', '11:59', 'OPEN', 'eve of Lunar New Year: morning session'],
  ['XHKG', '2028-01-25', '13:30', 'CLOSED', 'eve of Lunar New Year: no afternoon session'],
  ['XHKG', '2028-01-26', '10:00', 'CLOSED', "Lunar New Year's Day"],
  ['XHKG', '2028-07-03', '10:00', 'OPEN', 'no substitute for 1 July on a Saturday'],
  ['XHKG', '2028-10-02', '10:00', 'CLOSED', 'the day following National Day (a Sunday)'],
  ['XHKG', '2028-10-03', '14:00', 'OPEN', 'the Mid-Autumn day itself trades'],
  ['XHKG', '2028-10-04', '10:00', 'CLOSED', 'the day following the Mid-Autumn Festival'],
  ['XHKG', '2028-12-26', '10:00', 'CLOSED', 'the first weekday after Christmas Day'],
  // Singapore 2028: fixed and lunar dates by rule; the gazetted moving holidays provisional.
  ['XSES', '2028-01-25', '11:00', 'OPEN', 'eve of Chinese New Year: morning session'],
  ['XSES', '2028-01-25', '14:00', 'CLOSED', 'eve of Chinese New Year: half day'],
  ['XSES', '2028-01-27', '10:00', 'CLOSED', 'Chinese New Year (second day)'],
  ['XSES', '2028-02-28', '10:00', 'UNKNOWN', 'Hari Raya Puasa not yet gazetted'],
  ['XSES', '2028-05-05', '10:00', 'UNKNOWN', 'Hari Raya Haji not yet gazetted'],
  ['XSES', '2028-08-09', '10:00', 'CLOSED', 'National Day'],
  ['XSES', '2028-10-17', '10:00', 'UNKNOWN', 'Deepavali not yet gazetted'],
  ['XSES', '2028-10-18', '16:59', 'OPEN', 'regular session after the Deepavali window'],
  // Shanghai and Shenzhen 2028: statutory days by the regulation; the arrangement days provisional.
  ['XSHG', '2028-01-24', '10:00', 'UNKNOWN', 'possible Spring Festival adjusted day off'],
  ['XSHG', '2028-01-25', '10:00', 'CLOSED', "Chinese New Year's Eve (statutory)"],
  ['XSHG', '2028-02-03', '10:00', 'OPEN', 'the day after the Spring Festival window trades'],
  ['XSHG', '2028-04-04', '10:00', 'CLOSED', 'Qingming Festival'],
  ['XSHG', '2028-05-02', '10:00', 'CLOSED', 'Labour Day (second statutory day)'],
  ['XSHG', '2028-05-29', '10:00', 'UNKNOWN', 'Dragon Boat Festival (Sunday) compensation day waits for the arrangement'],
  ['XSHE', '2028-10-03', '10:00', 'CLOSED', 'National Day and Mid-Autumn Festival'],
  ['XSHE', '2028-10-09', '10:00', 'OPEN', 'the week after the National Day window trades'],
  // Korea: the corrected 2027 substitute days, and 2028 by the Act and the election law.
  ['XKRX', '2027-05-03', '10:00', 'CLOSED', 'substitute holiday for Labour Day (2027 almanac)'],
  ['XKRX', '2027-07-19', '10:00', 'CLOSED', 'substitute holiday for Constitution Day (2027 almanac)'],
  ['XKRX', '2028-01-03', '09:30', 'CLOSED', 'first trading day opens at 10:00'],
  ['XKRX', '2028-01-03', '10:00', 'OPEN', 'first trading day from 10:00'],
  ['XKRX', '2028-01-25', '10:00', 'OPEN', 'Korean Seollal is 27 Jan, so 25 Jan trades'],
  ['XKRX', '2028-01-28', '10:00', 'CLOSED', 'day after Seollal'],
  ['XKRX', '2028-04-12', '10:00', 'CLOSED', '23rd National Assembly election'],
  ['XKRX', '2028-07-17', '10:00', 'CLOSED', 'Constitution Day'],
  ['XKRX', '2028-10-05', '10:00', 'CLOSED', 'substitute day: Chuseok overlaps National Foundation Day'],
  ['XKRX', '2028-10-06', '10:00', 'OPEN', 'trading resumes after Chuseok'],
  ['XKRX', '2028-11-16', '12:00', 'UNKNOWN', 'possible CSAT day, date not yet announced'],
  ['XKRX', '2028-12-28', '15:29', 'OPEN', 'last trading day of 2028'],
  ['XKRX', '2028-12-29', '10:00', 'CLOSED', 'year-end closure on the last weekday (31 Dec is a Sunday)'],
]

// [venue, local date, local time, expected phase (null when UNKNOWN), expected status, why]
const PHASE_FACTS: [string, string, string, Phase | null, ExpectedStatus, string][] = [
  ['XJPX', '2026-12-01', '08:30', 'pre_open_auction', 'CLOSED', 'pre-opening order acceptance from 08:00'],
  ['XJPX', '2026-12-01', '10:00', 'continuous', 'OPEN', 'morning session'],
  ['XJPX', '2026-12-01', '12:00', 'closed', 'CLOSED', 'lunch break (no lunch phases modelled)'],
  ['XJPX', '2026-12-01', '15:27', 'closing_auction', 'OPEN', 'closing auction 15:25-15:30, kept inside the session'],
  ['XJPX', '2026-12-01', '15:30', 'closed', 'CLOSED', 'after the closing auction'],
  ['XHKG', '2026-12-01', '09:15', 'pre_open_auction', 'CLOSED', 'pre-opening session 09:00-09:30'],
  ['XHKG', '2026-12-01', '16:05', 'closing_auction', 'CLOSED', 'closing auction session 16:00-16:10'],
  ['XHKG', '2027-12-24', '12:05', 'closing_auction', 'CLOSED', 'half day: closing auction 12:00-12:10'],
  ['XHKG', '2027-12-24', '16:05', 'closed', 'CLOSED', 'half day: nothing in the afternoon'],
  ['XSES', '2026-12-01', '08:45', 'pre_open_auction', 'CLOSED', 'opening routine 08:30-09:00'],
  ['XSES', '2026-12-01', '17:03', 'closing_auction', 'CLOSED', 'closing routine 17:00-17:06'],
  ['XSES', '2026-12-01', '17:10', 'post_close', 'CLOSED', 'trade-at-close 17:06-17:16'],
  ['XSES', '2026-12-01', '17:16', 'closed', 'CLOSED', 'after trade-at-close'],
  ['XSES', '2027-12-24', '12:10', 'post_close', 'CLOSED', 'half day: trade-at-close 12:06-12:16'],
  ['XKRX', '2026-12-01', '08:45', 'pre_open_auction', 'CLOSED', 'opening single-price auction from 08:30'],
  ['XKRX', '2026-12-01', '15:25', 'closing_auction', 'OPEN', 'closing single-price auction 15:20-15:30 inside the session'],
  ['XKRX', '2026-12-01', '15:35', 'closed', 'CLOSED', 'between the close and after-hours trading'],
  ['XKRX', '2026-12-01', '15:50', 'post_close', 'CLOSED', 'after-hours closing-price trading 15:40-16:00'],
  ['XKRX', '2026-12-01', '17:00', 'extended', 'CLOSED', 'after-hours single-price trading 16:00-18:00'],
  ['XKRX', '2026-12-01', '18:00', 'closed', 'CLOSED', 'after-hours trading ends at 18:00'],
  ['XKRX', '2027-01-04', '09:45', 'pre_open_auction', 'CLOSED', 'first trading day: the auction moves with the 10:00 open'],
  ['XKRX', '2026-11-19', '16:50', 'post_close', 'CLOSED', 'CSAT day: after-hours closing-price trading from 16:40'],
  ['XKRX', '2028-04-12', '08:45', 'closed', 'CLOSED', 'election day: no phases on a holiday'],
  ['XKRX', '2027-11-18', '08:45', null, 'UNKNOWN', 'provisional day: phase is null'],
]

describe('trading phases, east Asia', () => {
  const calendars = sharedCalendars()
  for (const [mic, date, time, phase, status, why] of PHASE_FACTS) {
    test(`${mic} ${date} ${time} local is ${phase} (${status}): ${why}`, () => {
      const calendar = calendars.calendar(mic)!
      const instant = localInstant(mic, date, time)
      expect(phaseAt(calendar, instant)).toBe(phase)
      expect(statusAt(calendar, instant).status).toBe(status)
    })
  }

  test('each venue with phases names a trading phases source', () => {
    for (const mic of ['XJPX', 'XHKG', 'XSES', 'XKRX']) {
      const file = calendars.calendar(mic)!.file
      expect(file.schema_version, mic).toBe(3)
      expect(file.sources.some((source) => source.covers.includes('trading phases')), mic).toBe(true)
    }
  })
})

describe('2028 calendar facts, east Asia', () => {
  const calendars = sharedCalendars()
  testStatusFacts(FACTS)

  test('each venue covers 2028 with a basis for every year, 2028 by rule', () => {
    for (const mic of MICS) {
      const file = calendars.calendar(mic)!.file
      expect(file.coverage!.to, mic).toBe('2028-12-31')
      expect(Object.keys(file.basis!).sort(), mic).toEqual(['2025', '2026', '2027', '2028'])
      expect(file.basis!['2028'], mic).toBe('rule')
    }
  })

  test('XTAI is a listed venue trading in Asia/Taipei', () => {
    expect(EXCHANGE_IDENTITIES.XTAI).toMatchObject({ mic: 'XTAI', country: 'TW', currency: 'TWD', timezone: 'Asia/Taipei', region: 'Asia-Pacific' })
    expect(calendars.calendar('XTAI')!.file.timezone).toBe('Asia/Taipei')
  })
})
