// Dated facts for the southasia group (see docs/calendars/south-asia-2028.md): the new venues
// XKLS, XBKK and XIDX (hours and lunch breaks from the exchanges' own session tables, holidays
// from their lists), 2028 facts for XNSE, XBOM, XDFM and XSAU, the corrections of issue 25
// (XDFM's past 2026 windows), and the trading phases of XNSE and XBOM (issue 20).
import { describe, expect, test } from 'bun:test'
import { phaseAt, statusAt } from '../../src/calendar/engine'
import type { Phase } from '../../src/calendar/phases'
import { sharedCalendars } from '../helpers/app'
import { localLookups } from '../helpers/calendars'

const calendars = sharedCalendars()
const GROUP = ['XKLS', 'XBKK', 'XIDX', 'XNSE', 'XBOM', 'XDFM', 'XSAU'] as const

const { calendarOf, localInstant, statusOf } = localLookups(calendars)

type Fact = [mic: string, local: string, expected: 'OPEN' | 'CLOSED' | 'UNKNOWN', why: string]
const INDIA = (local: string, expected: Fact[2], why: string): Fact[] => ['XNSE', 'XBOM'].map((mic): Fact => [mic, local, expected, why])

const FACTS: Fact[] = [
  // Bursa Malaysia: two sessions (trading-sessions table), holidays of Kuala Lumpur.
  ['XKLS', '2026-12-01 09:00', 'OPEN', 'morning session opens 09:00'],
  ['XKLS', '2026-12-01 12:29', 'OPEN', 'morning session to 12:30'],
  ['XKLS', '2026-12-01 12:30', 'CLOSED', 'lunch break 12:30-14:30'],
  ['XKLS', '2026-12-01 14:30', 'OPEN', 'afternoon session from 14:30'],
  ['XKLS', '2026-12-01 16:45', 'CLOSED', 'pre-closing from 16:45 is not continuous trading'],
  ['XKLS', '2026-12-25 10:00', 'CLOSED', 'Christmas (Bursa 2026 list)'],
  ['XKLS', '2026-03-19 16:00', 'OPEN', 'eve of Hari Raya: normal hours (Bursa statement of 13 Mar 2026)'],
  ['XKLS', '2026-06-02 10:00', 'CLOSED', 'Wesak replacement: 31 May was a Sunday and 1 June the Agong\'s birthday'],
  ['XKLS', '2027-02-08 10:00', 'CLOSED', 'Chinese New Year second day (Sunday 7 Feb) replaced on Monday'],
  ['XKLS', '2027-02-05 16:00', 'OPEN', 'eve of Chinese New Year: full-day trading since 2024'],
  ['XKLS', '2027-03-10 10:00', 'CLOSED', 'Hari Raya Aidilfitri (2027 federal list)'],
  ['XKLS', '2027-02-24 10:00', 'UNKNOWN', 'Nuzul Al-Quran 1448 waits on the Ramadan announcement'],
  ['XKLS', '2028-02-29 10:00', 'CLOSED', 'Hari Raya Aidilfitri first day (Sunday 27 Feb) replaced after the second day'],
  ['XKLS', '2028-06-05 10:00', 'CLOSED', "Agong's birthday, first Monday of June"],
  // Stock Exchange of Thailand: afternoon session from 14:00 since 25 Mar 2024.
  ['XBKK', '2026-12-01 10:00', 'OPEN', 'morning session opens 10:00'],
  ['XBKK', '2026-12-01 12:30', 'CLOSED', 'midday break 12:30-14:00'],
  ['XBKK', '2026-12-01 14:00', 'OPEN', 'afternoon session from 14:00'],
  ['XBKK', '2026-12-01 16:30', 'CLOSED', 'pre-close call from 16:30'],
  ['XBKK', '2026-12-07 11:00', 'CLOSED', "substitution for King Bhumibol's birthday (Saturday 5 Dec, SET 2026 list)"],
  ['XBKK', '2026-12-31 11:00', 'CLOSED', "New Year's Eve (SET 2026 list)"],
  ['XBKK', '2027-07-19 11:00', 'CLOSED', 'Asarnha Bucha on Sunday 18 Jul substituted on Monday'],
  ['XBKK', '2027-07-20 11:00', 'OPEN', 'Buddhist Lent substitution is a government day, not a SET holiday'],
  ['XBKK', '2028-01-03 11:00', 'CLOSED', "New Year's Day (Saturday) substituted on Monday"],
  ['XBKK', '2028-04-17 11:00', 'OPEN', 'a Saturday Songkran day gets no substitute'],
  // Indonesia Stock Exchange: longer Friday break.
  ['XIDX', '2026-12-02 09:00', 'OPEN', 'session I opens 09:00'],
  ['XIDX', '2026-12-02 12:00', 'CLOSED', 'Monday-Thursday break 12:00-13:30'],
  ['XIDX', '2026-12-02 13:30', 'OPEN', 'session II from 13:30'],
  ['XIDX', '2026-12-02 15:50', 'CLOSED', 'pre-closing from 15:50'],
  ['XIDX', '2026-12-04 11:30', 'CLOSED', 'Friday break from 11:30'],
  ['XIDX', '2026-12-04 13:59', 'CLOSED', 'Friday break to 14:00'],
  ['XIDX', '2026-12-04 14:00', 'OPEN', 'Friday session II from 14:00'],
  ['XIDX', '2026-12-24 10:00', 'CLOSED', 'cuti bersama for Christmas (IDX 2026 notice)'],
  ['XIDX', '2026-12-31 10:00', 'CLOSED', 'year-end exchange holiday'],
  ['XIDX', '2027-03-10 10:00', 'CLOSED', 'Idul Fitri 1448 (every sighting outcome gives 10 March)'],
  ['XIDX', '2027-03-12 10:00', 'UNKNOWN', 'Idul Fitri collective leave waits on the 2027 SKB'],
  ['XIDX', '2028-05-09 10:00', 'CLOSED', 'Waisak on the full-moon date in Jakarta'],
  // India 2028: fixed dates by rule, festivals provisional.
  ...INDIA('2028-01-26 11:00', 'CLOSED', 'Republic Day'),
  ...INDIA('2028-04-14 11:00', 'CLOSED', 'Good Friday and Ambedkar Jayanti on one day'),
  ...INDIA('2028-04-13 15:29', 'OPEN', 'regular session to 15:30'),
  ...INDIA('2028-10-17 11:00', 'UNKNOWN', 'Diwali Laxmi Pujan with a Muhurat session of unknown hours'),
  ...INDIA('2026-11-08 18:30', 'UNKNOWN', 'Muhurat session of 2026: timings circular not read'),
  // Dubai: past 2026 windows entered, 2027 Eid days closed in every sighting case, 2028 windows.
  ['XDFM', '2026-06-15 11:00', 'CLOSED', 'Hijri New Year 1448, federal holiday moved to Monday'],
  ['XDFM', '2026-06-16 11:00', 'OPEN', 'Tuesday 16 Jun traded'],
  ['XDFM', '2026-08-24 11:00', 'CLOSED', "Prophet's Birthday 1448, federal holiday moved to Monday"],
  ['XDFM', '2026-08-25 11:00', 'OPEN', 'Tuesday 25 Aug traded'],
  ['XDFM', '2027-05-17 11:00', 'CLOSED', 'Eid al-Adha 1448 in every sighting case'],
  ['XDFM', '2028-05-05 11:00', 'CLOSED', 'Arafat Day or Eid al-Adha 1449 in every sighting case'],
  ['XDFM', '2028-02-28 11:00', 'UNKNOWN', 'Eid al-Fitr 1449 window'],
  ['XDFM', '2028-12-01 11:00', 'OPEN', 'Eid Al Etihad 2028 falls on the weekend'],
  // Saudi Exchange 2028.
  ['XSAU', '2028-02-22 11:00', 'CLOSED', 'Founding Day'],
  ['XSAU', '2028-02-29 11:00', 'CLOSED', 'Eid al-Fitr break (Saudi Exchange calendar)'],
  ['XSAU', '2028-05-03 11:00', 'UNKNOWN', 'first closed weekday of the Eid al-Adha break, moon sighting'],
  ['XSAU', '2028-05-11 11:00', 'OPEN', 'Thursday after the Eid al-Adha break'],
]

describe('2028 calendar facts: South and South-East Asia, India and the Gulf', () => {
  for (const [mic, local, expected, why] of FACTS) {
    test(`${mic} ${local} local is ${expected}: ${why}`, () => {
      const answer = statusOf(mic, local)
      expect(answer.status).toBe(expected)
      if (expected === 'UNKNOWN') expect(answer.reason).toStartWith('provisional:')
    })
  }

  test('a lunch break is reported as such', () => {
    for (const [mic, local] of [['XKLS', '2026-12-01 13:00'], ['XBKK', '2026-12-01 13:00'], ['XIDX', '2026-12-04 12:00']] as const) {
      expect(statusOf(mic, local).reason, mic).toContain('lunch')
    }
  })

  test('every venue of the group covers 2025-01-01 through 2028-12-31 with a basis for each year', () => {
    for (const mic of GROUP) {
      const file = calendarOf(mic).file
      expect(file.coverage, mic).toEqual({ from: '2025-01-01', to: '2028-12-31' })
      expect(Object.keys(file.basis ?? {}).sort(), mic).toEqual(['2025', '2026', '2027', '2028'])
    }
  })

  test('no provisional date before today remains except the 2026 Muhurat session', () => {
    for (const mic of GROUP) {
      const past = Object.keys(calendarOf(mic).file.provisional ?? {}).filter((date) => date < '2026-11-25')
      expect(past, mic).toEqual(mic === 'XNSE' || mic === 'XBOM' ? ['2026-11-08'] : [])
    }
  })
})

describe('trading phases of XNSE and XBOM (pre-open call auction, closing auction session, post-close)', () => {
  type PhaseFact = [local: string, status: 'OPEN' | 'CLOSED' | 'UNKNOWN', phase: Phase | null, why: string]
  const PHASES: PhaseFact[] = [
    ['2026-12-01 09:05', 'CLOSED', 'pre_open_auction', 'pre-open order entry 09:00-09:08'],
    ['2026-12-01 09:14', 'CLOSED', 'pre_open_auction', 'pre-open buffer to 09:15'],
    ['2026-12-01 09:15', 'OPEN', 'continuous', 'normal market opens 09:15'],
    ['2026-12-01 15:20', 'OPEN', 'closing_auction', 'closing auction session from 15:15 overlaps the open segment'],
    ['2026-12-01 15:32', 'CLOSED', 'closing_auction', 'closing auction matching 15:30-15:35'],
    ['2026-12-01 15:37', 'CLOSED', 'closed', 'between the auction and the post-close'],
    ['2026-12-01 15:45', 'CLOSED', 'post_close', 'post-close 15:40-16:00'],
    ['2026-12-01 16:00', 'CLOSED', 'closed', 'after the post-close'],
    ['2026-07-15 15:20', 'OPEN', 'continuous', 'before 2026-08-03 there was no closing auction session'],
    ['2026-07-15 15:45', 'CLOSED', 'post_close', 'post-close before the closing auction session too'],
    ['2025-10-21 13:40', 'CLOSED', 'pre_open_auction', 'Muhurat 2025: pre-open 13:30-13:45'],
    ['2025-10-21 15:00', 'CLOSED', 'closed', 'Muhurat 2025: no post-close band entered'],
    ['2026-12-25 09:05', 'CLOSED', 'closed', 'holiday: no phase'],
    ['2027-03-22 09:05', 'UNKNOWN', null, 'provisional day: phase null'],
  ]
  for (const mic of ['XNSE', 'XBOM']) {
    for (const [local, status, phase, why] of PHASES) {
      test(`${mic} ${local} local: ${status}, phase ${phase}: ${why}`, () => {
        const calendar = calendarOf(mic)
        const instant = localInstant(mic, local)
        expect(statusAt(calendar, instant).status).toBe(status)
        expect(phaseAt(calendar, instant)).toBe(phase)
      })
    }
  }
})
