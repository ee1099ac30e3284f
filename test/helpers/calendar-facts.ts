// A table of dated facts checked against the real schedule files at venues' local wall times:
// one test per fact (shared by the facts-* files; times resolved by venue-time.ts).
import { expect, test } from 'bun:test'
import { phaseAt } from '../../src/calendar/engine'
// statusAt through the listed-day check: each fact is also checked against the day /v5/calendar lists.
import { statusAt } from './listed-days'
import { localInstant, repoCalendar } from './venue-time'
import { dateOfDayNumber, dayNumber } from '../../src/calendar/zone'

export type ExpectedStatus = 'OPEN' | 'CLOSED' | 'UNKNOWN'
/** [venue, local date, local time HH:MM, expected status, why] */
export type StatusFact = [string, string, string, ExpectedStatus, string]
/** [venue, local date, local time HH:MM, expected status, expected phase (null when UNKNOWN)] */
export type PhaseFact = [string, string, string, ExpectedStatus, string | null]

/** One test per fact: the status at that local time, and a provisional reason when UNKNOWN. */
export function testStatusFacts(facts: StatusFact[]): void {
  for (const [mic, date, time, expected, why] of facts) {
    test(`${mic} ${date} ${time} local is ${expected}: ${why}`, () => {
      const answer = statusAt(repoCalendar(mic), localInstant(mic, date, time))
      expect(answer.status).toBe(expected)
      if (expected === 'UNKNOWN') expect(answer.reason).toStartWith('provisional:')
    })
  }
}

/** One test per fact: the status and the trading phase at that local time. */
export function testPhaseFacts(facts: PhaseFact[]): void {
  for (const [mic, date, time, status, phase] of facts) {
    test(`${mic} ${date} ${time} local: ${status}, phase ${phase}`, () => {
      const instant = localInstant(mic, date, time)
      expect(statusAt(repoCalendar(mic), instant).status).toBe(status)
      expect(phaseAt(repoCalendar(mic), instant)).toBe(phase as never)
    })
  }
}

/** [venue, UTC instant, expected status, why]: facts stated as instants (daylight-saving edges). */
export type UtcFact = [string, string, ExpectedStatus, string]

/** One test per fact: the status at that UTC instant. */
export function testUtcFacts(facts: UtcFact[]): void {
  for (const [mic, instant, expected, why] of facts) {
    test(`${mic} ${instant} is ${expected}: ${why}`, () => {
      expect(statusAt(repoCalendar(mic), Date.parse(instant)).status).toBe(expected)
    })
  }
}

/**
 * One test per venue: covered to `to`, no provisional date, and OPEN or CLOSED (never UNKNOWN) at
 * 03:00, 12:00 and 16:00 local on every day `from..to`, with more than `minOpen` of those samples OPEN.
 */
export function testWalkWithoutUnknown(mics: readonly string[], from: string, to: string, minOpen: number): void {
  for (const mic of mics) {
    test(`${mic}: covered to ${to}, nothing provisional, OPEN or CLOSED at 03:00, 12:00 and 16:00 local ${from}..${to}`, () => {
      const calendar = repoCalendar(mic)
      expect(calendar.coverageTo).toBe(to)
      expect(Object.keys(calendar.file.provisional ?? {})).toEqual([])
      const unknown: string[] = []
      let open = 0
      for (let day = dayNumber(from); day <= dayNumber(to); day++) {
        for (const time of ['03:00', '12:00', '16:00']) {
          const { status } = statusAt(calendar, localInstant(mic, dateOfDayNumber(day), time))
          if (status === 'UNKNOWN') unknown.push(`${dateOfDayNumber(day)} ${time}`)
          if (status === 'OPEN') open++
        }
      }
      expect(unknown).toEqual([])
      expect(open).toBeGreaterThan(minOpen)
    })
  }
}
