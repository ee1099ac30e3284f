// Dated calendar facts checked against the shipped schedule files: one table row per local
// instant, with the status (and, for phases, the phase) the exchange's notice or rule gives.
import { describe, expect, test } from 'bun:test'
import { phaseAt, statusAt } from '../../src/calendar/engine'
import { dayNumber, localToUtc, parseLocalTime } from '../../src/calendar/zone'
import { sharedCalendars } from './app'

export type FactStatus = 'OPEN' | 'CLOSED' | 'UNKNOWN'
/** [mic, local date, local time, expected status, why] */
export type LocalFact = [string, string, string, FactStatus, string]
/** [mic, local date, local time, expected status, expected phase (null when UNKNOWN)] */
export type PhaseFact = [string, string, string, FactStatus, string | null]

export function shippedCalendar(mic: string) {
  const calendar = sharedCalendars().calendar(mic)
  if (!calendar) throw new Error(`${mic} did not load`)
  return calendar
}

/** The instant of a local wall time at a venue, in the venue's own zone. */
export function localInstant(mic: string, date: string, time: string): number {
  return localToUtc(shippedCalendar(mic).timezone, dayNumber(date), parseLocalTime(time))
}

export function describeLocalFacts(title: string, facts: LocalFact[]): void {
  describe(title, () => {
    for (const [mic, date, time, expected, why] of facts) {
      test(`${mic} ${date} ${time} local is ${expected}: ${why}`, () => {
        expect(statusAt(shippedCalendar(mic), localInstant(mic, date, time)).status).toBe(expected)
      })
    }
  })
}

export function describePhaseFacts(title: string, facts: PhaseFact[]): void {
  describe(title, () => {
    for (const [mic, date, time, status, phase] of facts) {
      test(`${mic} ${date} ${time} local: ${status}, phase ${phase}`, () => {
        const instant = localInstant(mic, date, time)
        expect(statusAt(shippedCalendar(mic), instant).status).toBe(status)
        expect(phaseAt(shippedCalendar(mic), instant)).toBe(phase as never)
      })
    }
  })
}
