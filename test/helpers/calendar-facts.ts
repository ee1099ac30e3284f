// A table of dated facts checked against the real schedule files at venues' local wall times:
// one test per fact (shared by the facts-*-east-asia files; times resolved by venue-time.ts).
import { expect, test } from 'bun:test'
// statusAt through the listed-day check: each fact is also checked against the day /v5/calendar lists.
import { statusAt } from './listed-days'
import { localInstant, repoCalendar } from './venue-time'

export type ExpectedStatus = 'OPEN' | 'CLOSED' | 'UNKNOWN'
/** [venue, local date, local time HH:MM, expected status, why] */
export type StatusFact = [string, string, string, ExpectedStatus, string]

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
