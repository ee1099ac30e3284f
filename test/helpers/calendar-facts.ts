// Dated facts checked against the real schedule files at local wall times, for venues whose zone
// keeps one UTC offset all year (east Asia): the fact table and the test per fact, shared by the
// facts-*-east-asia files.
import { expect, test } from 'bun:test'
import { statusAt } from '../../src/calendar/engine'
import type { sharedCalendars } from './app'

export type ExpectedStatus = 'OPEN' | 'CLOSED' | 'UNKNOWN'
/** [venue, local date, local time HH:MM, expected status, why] */
export type StatusFact = [string, string, string, ExpectedStatus, string]

/** A local wall time at a venue `offsetHours` east of UTC, as a UTC instant. */
export function fixedOffsetInstant(offsetHours: number, date: string, time: string): number {
  return Date.parse(`${date}T${time}:00Z`) - offsetHours * 3_600_000
}

/** One test per fact: the status at that local time, and a provisional reason when UNKNOWN. */
export function testStatusFacts(calendars: ReturnType<typeof sharedCalendars>, offsetHours: Record<string, number>, facts: StatusFact[]): void {
  for (const [mic, date, time, expected, why] of facts) {
    test(`${mic} ${date} ${time} local is ${expected}: ${why}`, () => {
      const calendar = calendars.calendar(mic)
      expect(calendar).not.toBeNull()
      const answer = statusAt(calendar!, fixedOffsetInstant(offsetHours[mic]!, date, time))
      expect(answer.status).toBe(expected)
      if (expected === 'UNKNOWN') expect(answer.reason).toStartWith('provisional:')
    })
  }
}
