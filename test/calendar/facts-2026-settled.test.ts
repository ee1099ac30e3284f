// Dated facts for the "settled" re-check of 2026-12-06 (issue 33, "Also, on the 44 already
// served"): XNSE, XBOM, XDFM, XSAU and XKRX, whose provisional dates an announcement had settled
// or was about to. The re-check found no announcement to enter (see docs/calendars/india-gulf.md
// and east-asia-2028.md; each file's last `sources` entry says what was read): the NSE/BSE 2027
// list is expected in mid-December 2026, the 2026-11-08 Muhurat timings circular and the UAE's
// 2026 Eid Al Etihad decision were not found, the Saudi Exchange announces each Eid break weeks
// before it, and KRX's 2027 notices come in December 2026 and November 2027. So this file pins
// the state the re-check left: the past days still provisional, the days around them as
// published, and the 2027 days still waiting. When an announcement is entered, move its date
// from the provisional lists below to a fact naming the notice.
import { describe, expect, test } from 'bun:test'
import { testStatusFacts, type StatusFact } from '../helpers/calendar-facts'
import { repoCalendar } from '../helpers/venue-time'

const GROUP = ['XNSE', 'XBOM', 'XDFM', 'XSAU', 'XKRX'] as const
const RECHECK = '2026-12-06'

/** The same fact for NSE and BSE, which publish identical equity holiday lists. */
const india = (date: string, time: string, expected: StatusFact[3], why: string): StatusFact[] =>
  ['XNSE', 'XBOM'].map((mic): StatusFact => [mic, date, time, expected, why])

const FACTS: StatusFact[] = [
  // India. 2026 list: NSE/CMTR/71775 (12 Dec 2025) and BSE's identical list; regular hours per NSE/CMTR/72349.
  ...india('2026-11-06', '15:29', 'OPEN', 'Friday before Diwali: regular session to 15:30 (not on the 2026 list)'),
  ...india('2026-11-08', '10:00', 'UNKNOWN', 'Diwali Laxmi Pujan (Sunday): Muhurat session held, timings circular not found on the re-check'),
  ...india('2026-11-08', '18:30', 'UNKNOWN', 'Muhurat evening: no guessed session window'),
  ...india('2026-11-09', '09:15', 'OPEN', 'Monday between Laxmi Pujan and Balipratipada: regular session (not on the 2026 list)'),
  ...india('2026-11-10', '11:00', 'CLOSED', 'Diwali Balipratipada (NSE/CMTR/71775)'),
  ...india('2027-01-26', '11:00', 'CLOSED', 'Republic Day (fixed date on every NSE/BSE list, rule)'),
  ...india('2027-03-22', '11:00', 'UNKNOWN', 'Holi: the 2027 NSE/BSE list was not out on the re-check'),
  ...india('2027-10-29', '18:30', 'UNKNOWN', 'Diwali Laxmi Pujan 2027: list and Muhurat timings awaited'),
  // Dubai. DFM circular 12/2025 (via exchange_calendars XDFM, PR #593): Eid Al Etihad Wed 2-Thu 3 Dec 2026.
  ['XDFM', '2026-11-30', '14:44', 'OPEN', 'Monday before the Eid Al Etihad week: continuous trading to 14:45'],
  ['XDFM', '2026-12-01', '11:00', 'UNKNOWN', 'possible transferred Eid Al Etihad day: no 2026 decision found on the re-check'],
  ['XDFM', '2026-12-02', '11:00', 'CLOSED', 'Eid Al Etihad (DFM circular 12/2025)'],
  ['XDFM', '2026-12-03', '11:00', 'CLOSED', 'Eid Al Etihad (DFM circular 12/2025)'],
  ['XDFM', '2026-12-04', '11:00', 'UNKNOWN', 'possible transferred Eid Al Etihad day: no 2026 decision found on the re-check'],
  ['XDFM', '2026-12-07', '10:00', 'OPEN', 'Monday after the Eid Al Etihad week'],
  // Saudi Exchange: the 2027 calendar-page windows (via exchange_calendars XSAU, PR #534); no 2027 break announced yet.
  ['XSAU', '2027-03-04', '11:00', 'UNKNOWN', 'possible first closed day of the Eid al-Fitr 1448 break'],
  ['XSAU', '2027-03-09', '11:00', 'CLOSED', 'inside the Eid al-Fitr 1448 break (Saudi Exchange calendar)'],
  ['XSAU', '2027-03-15', '10:00', 'OPEN', 'Monday after the latest possible end of the break'],
  ['XSAU', '2027-05-23', '11:00', 'UNKNOWN', 'possible last closed day of the Eid al-Adha 1448 break'],
  ['XSAU', '2027-05-24', '10:00', 'OPEN', 'Monday after the Eid al-Adha 1448 break'],
  // KRX: 2027 official almanac, KRX's first-day and year-end practice (Kukinews 17 Dec 2024, WOW TV 18 Dec 2025).
  ['XKRX', '2027-01-04', '09:59', 'CLOSED', 'first trading day of 2027 opens at 10:00'],
  ['XKRX', '2027-01-04', '10:00', 'OPEN', 'first trading day of 2027 from 10:00'],
  ['XKRX', '2027-11-18', '12:00', 'UNKNOWN', 'CSAT day: KRX announces the shifted hours shortly before the exam'],
  ['XKRX', '2027-12-30', '15:29', 'OPEN', 'last trading day of 2027'],
  ['XKRX', '2027-12-31', '10:00', 'CLOSED', 'year-end closure (KRX rule, 31 Dec is a Friday)'],
]

/** Provisional dates before the re-check that no readable announcement has settled. */
const PAST_PROVISIONAL: Record<(typeof GROUP)[number], string[]> = {
  XNSE: ['2026-11-08'],
  XBOM: ['2026-11-08'],
  XDFM: ['2026-12-01', '2026-12-04'],
  XSAU: [],
  XKRX: [],
}

/** 2027 dates still waiting for an announcement on the re-check. */
const PROVISIONAL_2027: Record<(typeof GROUP)[number], string[]> = {
  XNSE: ['2027-03-10', '2027-03-22', '2027-04-15', '2027-04-19', '2027-05-17', '2027-06-16', '2027-09-03', '2027-10-29'],
  XBOM: ['2027-03-10', '2027-03-22', '2027-04-15', '2027-04-19', '2027-05-17', '2027-06-16', '2027-09-03', '2027-10-29'],
  XDFM: ['2027-03-09', '2027-03-12', '2027-05-19', '2027-06-07'],
  XSAU: ['2027-03-04', '2027-03-07', '2027-03-11', '2027-03-14', '2027-05-13', '2027-05-16', '2027-05-20', '2027-05-23'],
  XKRX: ['2027-11-18'],
}

const provisionalDates = (mic: string) => Object.keys(repoCalendar(mic).file.provisional ?? {}).sort()

describe('the settled re-check of 2026-12-06: XNSE, XBOM, XDFM, XSAU, XKRX', () => {
  testStatusFacts(FACTS)

  test('the past provisional days left are exactly the ones no readable announcement settled', () => {
    for (const mic of GROUP) {
      expect(provisionalDates(mic).filter((date) => date < RECHECK), mic).toEqual(PAST_PROVISIONAL[mic])
    }
  })

  test('the 2027 provisional days are exactly the ones still waiting for an announcement', () => {
    for (const mic of GROUP) {
      expect(provisionalDates(mic).filter((date) => date.startsWith('2027-')), mic).toEqual(PROVISIONAL_2027[mic])
    }
  })

  test('each re-checked file is data_version 2026.12.0 and its sources say what was read on 2026-12-06', () => {
    for (const mic of GROUP) {
      const file = repoCalendar(mic).file
      expect(file.data_version, mic).toBe('2026.12.0')
      const recheck = file.sources.find((source) => source.covers.startsWith(`Re-check of ${RECHECK}`))
      expect(recheck, mic).toBeDefined()
      expect(recheck!.note, mic).toContain(`Read on ${RECHECK}`)
    }
  })

  test('a past provisional day gives its reason with the re-check date', () => {
    for (const [mic, date] of [['XNSE', '2026-11-08'], ['XBOM', '2026-11-08'], ['XDFM', '2026-12-01'], ['XDFM', '2026-12-04']] as const) {
      expect(repoCalendar(mic).file.provisional![date]!.why, `${mic} ${date}`).toContain(`re-checked ${RECHECK}`)
    }
  })
})
