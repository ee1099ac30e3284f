// Dated calendar facts as tables: one row per local instant with the status (and, for phases,
// the phase) the exchange's notice or rule gives. Each row goes through the listed-day check, so
// the engine and the day /v5/calendar lists are both held to it.
import { describe, expect, test } from 'bun:test'
import { phaseAt } from '../../src/calendar/engine'
import { statusAt } from './listed-days'
import { localInstant, repoCalendar } from './venue-time'

export type FactStatus = 'OPEN' | 'CLOSED' | 'UNKNOWN'
/** [mic, local date, local time, expected status, why] */
export type LocalFact = [string, string, string, FactStatus, string]
/** [mic, local date, local time, expected status, expected phase (null when UNKNOWN)] */
export type PhaseFact = [string, string, string, FactStatus, string | null]

export function describeLocalFacts(title: string, facts: LocalFact[]): void {
  describe(title, () => {
    for (const [mic, date, time, expected, why] of facts) {
      test(`${mic} ${date} ${time} local is ${expected}: ${why}`, () => {
        expect(statusAt(repoCalendar(mic), localInstant(mic, date, time)).status).toBe(expected)
      })
    }
  })
}

export function describePhaseFacts(title: string, facts: PhaseFact[]): void {
  describe(title, () => {
    for (const [mic, date, time, status, phase] of facts) {
      test(`${mic} ${date} ${time} local: ${status}, phase ${phase}`, () => {
        const instant = localInstant(mic, date, time)
        expect(statusAt(repoCalendar(mic), instant).status).toBe(status)
        expect(phaseAt(repoCalendar(mic), instant)).toBe(phase as never)
      })
    }
  })
}
