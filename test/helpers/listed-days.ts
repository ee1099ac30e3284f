// The day that /v5/calendar lists for an instant, read back as a status and a phase, and a
// statusAt that checks the engine against it: the facts tests import this statusAt, so every
// published fact they check is also checked against the listed day.
import { expect } from 'bun:test'
import type { CompiledCalendar } from '../../src/calendar/compile'
import { calendarDay, type CalendarDay } from '../../src/calendar/days'
import { phaseAt, statusAt as engineStatusAt, type CalendarAnswer } from '../../src/calendar/engine'
import { utcToLocal } from '../../src/calendar/zone'

export interface Listed {
  status: 'OPEN' | 'CLOSED' | 'UNKNOWN'
  phase: string | null
}

const within = (instant: number, from: string, to: string) => Date.parse(from) <= instant && instant < Date.parse(to)

/** Status and phase at an instant as a listed day says them: in a session → OPEN; a phase span containing it, else closed; unknown and provisional days → UNKNOWN, null. */
export function readListedDay(day: CalendarDay, instant: number): Listed {
  if (day.kind === 'unknown' || day.kind === 'provisional') return { status: 'UNKNOWN', phase: null }
  const status = day.sessions.some((session) => within(instant, session.open, session.close)) ? 'OPEN' : 'CLOSED'
  if (day.phases === null) return { status, phase: status === 'OPEN' ? 'continuous' : 'closed' }
  return { status, phase: day.phases.find((span) => within(instant, span.from, span.to))?.phase ?? 'closed' }
}

export function listedAt(calendar: CompiledCalendar, instant: number): Listed {
  if (!Number.isFinite(instant)) return { status: 'UNKNOWN', phase: null }
  return readListedDay(calendarDay(calendar, utcToLocal(calendar.timezone, instant).day), instant)
}

/** The engine's statusAt, after checking that the listed day agrees with it (status and phase). */
export function statusAt(calendar: CompiledCalendar, instant: number): CalendarAnswer {
  const answer = engineStatusAt(calendar, instant)
  const where = `${calendar.mic} ${Number.isFinite(instant) ? new Date(instant).toISOString() : instant}`
  expect({ where, ...listedAt(calendar, instant) }).toEqual({ where, status: answer.status, phase: phaseAt(calendar, instant) })
  return answer
}
