// A table of dated facts checked against the real schedule files at venues' local wall times:
// one test per fact (shared by the facts-* files; times resolved by venue-time.ts).
import { expect, test } from 'bun:test'
import { phaseAt } from '../../src/calendar/engine'
// statusAt through the listed-day check: each fact is also checked against the day /v5/calendar lists.
import { statusAt } from './listed-days'
import { localInstant, repoCalendar } from './venue-time'

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
