// 2027 facts for the east-asian venues (XSHG, XSHE, XHKG, XKRX), checked against the files in
// schedules/ (see each file's sources and docs/calendars/east-asia.md). They check the data, not the engine.
import { describe, expect, test } from 'bun:test'
// statusAt through the listed-day check: each fact is also checked against the day /v5/calendar lists.
import { statusAt } from '../helpers/listed-days'
import { sharedCalendars } from '../helpers/app'
import { testStatusFacts, type StatusFact } from '../helpers/calendar-facts'
import { localInstant } from '../helpers/venue-time'

const MICS = ['XSHG', 'XSHE', 'XHKG', 'XKRX']

// [venue, local date, local time, expected status, why]
const FACTS: StatusFact[] = [
  // Shanghai and Shenzhen: statutory days of the State Council regulation (rule), arrangement days provisional.
  ['XSHG', '2027-01-01', '10:00', 'CLOSED', "New Year's Day"],
  ['XSHG', '2027-01-04', '10:00', 'OPEN', 'first session of 2027'],
  ['XSHG', '2027-02-04', '14:00', 'OPEN', 'the day before the Spring Festival eve is a regular session'],
  ['XSHG', '2027-02-05', '10:00', 'CLOSED', "Chinese New Year's Eve, a statutory day since 2025"],
  ['XSHG', '2027-02-08', '10:00', 'CLOSED', 'third day of the first lunar month (statutory)'],
  ['XSHG', '2027-02-09', '10:00', 'UNKNOWN', 'Spring Festival adjusted day off waits for the State Council arrangement'],
  ['XSHG', '2027-04-05', '10:00', 'CLOSED', 'Qingming Festival'],
  ['XSHG', '2027-06-09', '10:00', 'CLOSED', 'Dragon Boat Festival'],
  ['XSHG', '2027-06-10', '10:00', 'OPEN', 'no bridge day after a Wednesday holiday'],
  ['XSHG', '2027-09-15', '14:00', 'CLOSED', 'Mid-Autumn Festival'],
  ['XSHG', '2027-10-01', '10:00', 'CLOSED', 'National Day'],
  ['XSHG', '2027-10-07', '10:00', 'UNKNOWN', 'National Day adjusted day off waits for the arrangement'],
  ['XSHG', '2027-10-08', '10:00', 'OPEN', 'the day after the National Day window trades'],
  ['XSHG', '2027-03-15', '12:00', 'CLOSED', 'lunch break'],
  ['XSHE', '2027-02-05', '10:00', 'CLOSED', "Chinese New Year's Eve"],
  ['XSHE', '2027-05-04', '10:00', 'UNKNOWN', 'Labour Day adjusted day off waits for the arrangement'],
  ['XSHE', '2027-05-06', '10:00', 'OPEN', 'the day after the Labour Day window trades'],
  ['XSHE', '2027-09-15', '10:00', 'CLOSED', 'Mid-Autumn Festival'],
  // Hong Kong: HKEX's published 2027 calendar.
  ['XHKG', '2027-02-05', '11:00', 'OPEN', 'eve of Lunar New Year: morning session'],
  ['XHKG', '2027-02-05', '13:30', 'CLOSED', 'eve of Lunar New Year: no afternoon session'],
  ['XHKG', '2027-02-08', '10:00', 'CLOSED', 'third day of Lunar New Year'],
  ['XHKG', '2027-02-09', '10:00', 'CLOSED', 'fourth day of Lunar New Year (the second day is a Sunday)'],
  ['XHKG', '2027-02-10', '10:00', 'OPEN', 'trading resumes after Lunar New Year'],
  ['XHKG', '2027-03-26', '10:00', 'CLOSED', 'Good Friday'],
  ['XHKG', '2027-03-29', '10:00', 'CLOSED', 'Easter Monday'],
  ['XHKG', '2027-05-03', '10:00', 'OPEN', 'no substitute for Labour Day on a Saturday'],
  ['XHKG', '2027-09-15', '14:00', 'OPEN', 'the Mid-Autumn day itself is a full trading day'],
  ['XHKG', '2027-09-16', '10:00', 'CLOSED', 'day following the Mid-Autumn Festival'],
  ['XHKG', '2027-10-08', '10:00', 'CLOSED', 'Chung Yeung Festival'],
  ['XHKG', '2027-12-24', '11:59', 'OPEN', 'Christmas Eve: morning session'],
  ['XHKG', '2027-12-24', '12:00', 'CLOSED', 'Christmas Eve: closes at 12:00'],
  ['XHKG', '2027-12-27', '10:00', 'CLOSED', 'first weekday after Christmas Day'],
  ['XHKG', '2027-12-31', '11:00', 'OPEN', "New Year's Eve: morning session"],
  ['XHKG', '2027-12-31', '14:00', 'CLOSED', "New Year's Eve: no afternoon session"],
  // Korea: Public Holidays Act with KASI's lunar dates (rule), substitute days confirmed by the 2027 almanac; the exam day provisional.
  ['XKRX', '2027-01-04', '09:30', 'CLOSED', 'first trading day opens at 10:00'],
  ['XKRX', '2027-01-04', '10:00', 'OPEN', 'first trading day from 10:00'],
  ['XKRX', '2027-02-05', '10:00', 'OPEN', 'Korean Seollal is Sunday 7 February, so Friday 5 February trades'],
  ['XKRX', '2027-02-08', '10:00', 'CLOSED', 'day after Seollal'],
  ['XKRX', '2027-02-09', '10:00', 'CLOSED', 'substitute holiday for Seollal on a Sunday'],
  ['XKRX', '2027-03-01', '10:00', 'CLOSED', 'Independence Movement Day'],
  ['XKRX', '2027-04-30', '15:00', 'OPEN', 'regular session before the Labour Day weekend'],
  ['XKRX', '2027-05-03', '10:00', 'CLOSED', 'substitute holiday for Labour Day on a Saturday (2027 official almanac)'],
  ['XKRX', '2027-05-04', '10:00', 'OPEN', 'regular session after the substitute day'],
  ['XKRX', '2027-05-13', '10:00', 'CLOSED', "Buddha's Birthday"],
  ['XKRX', '2027-06-07', '10:00', 'OPEN', 'no substitute for Memorial Day on a Sunday'],
  ['XKRX', '2027-07-19', '10:00', 'CLOSED', 'substitute holiday for Constitution Day on a Saturday (2027 official almanac)'],
  ['XKRX', '2027-08-16', '10:00', 'CLOSED', 'substitute holiday for Liberation Day'],
  ['XKRX', '2027-09-14', '10:00', 'CLOSED', 'Chuseok holiday'],
  ['XKRX', '2027-09-17', '10:00', 'OPEN', 'trading resumes after Chuseok'],
  ['XKRX', '2027-10-04', '10:00', 'CLOSED', 'substitute holiday for National Foundation Day'],
  ['XKRX', '2027-10-11', '10:00', 'CLOSED', 'substitute holiday for Hangul Day'],
  ['XKRX', '2027-11-17', '15:00', 'OPEN', 'regular session the day before the exam'],
  ['XKRX', '2027-11-18', '12:00', 'UNKNOWN', 'CSAT day: hours not yet announced'],
  ['XKRX', '2027-11-19', '09:30', 'OPEN', 'regular session the day after the exam'],
  ['XKRX', '2027-12-27', '10:00', 'CLOSED', 'substitute holiday for Christmas Day'],
  ['XKRX', '2027-12-30', '15:29', 'OPEN', 'last trading day of 2027'],
  ['XKRX', '2027-12-31', '10:00', 'CLOSED', 'year-end closure'],
]

describe('2027 calendar facts, east Asia', () => {
  const calendars = sharedCalendars()
  testStatusFacts(FACTS)

  test('each venue is schema version 2 or later with coverage through 2027 (and a basis for every covered year)', () => {
    for (const mic of MICS) {
      const file = calendars.calendar(mic)!.file
      expect(file.schema_version, mic).toBeGreaterThanOrEqual(2)
      expect(file.coverage!.to >= '2027-12-31', mic).toBe(true)
      expect(Object.keys(file.basis!).sort(), mic).toEqual(['2025', '2026', '2027', '2028'])
    }
  })
})

describe('walk from 2026-11-23 to 2027-12-31', () => {
  const calendars = sharedCalendars()
  const days: string[] = []
  for (let t = Date.parse('2026-11-23T00:00:00Z'); t <= Date.parse('2027-12-31T00:00:00Z'); t += 86_400_000) days.push(new Date(t).toISOString().slice(0, 10))

  for (const mic of MICS) {
    test(`${mic}: OPEN or CLOSED at 03:00, 10:30 and 14:30 local every day, UNKNOWN only on provisional dates`, () => {
      const calendar = calendars.calendar(mic)!
      const provisional = calendar.file.provisional ?? {}
      let open = 0
      let unknown = 0
      for (const date of days) {
        for (const time of ['03:00', '10:30', '14:30']) {
          const answer = statusAt(calendar, localInstant(mic, date, time))
          if (date in provisional) {
            expect(answer.status, `${mic} ${date} ${time}`).toBe('UNKNOWN')
            expect(answer.reason).toStartWith(`provisional: ${provisional[date]!.why}`)
            unknown++
          } else {
            expect(answer.status, `${mic} ${date} ${time}`).not.toBe('UNKNOWN')
            if (answer.status === 'OPEN') open++
          }
        }
      }
      expect(unknown).toBe(Object.keys(provisional).filter((d) => d >= days[0]! && d <= days.at(-1)!).length * 3)
      // Two sessions a day (10:30 and 14:30) on roughly 270 trading days.
      expect(open).toBeGreaterThan(2 * 250)
    })
  }
})
