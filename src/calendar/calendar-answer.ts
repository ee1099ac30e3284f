// One answer for GET /v5/calendar and the get_market_calendar tool: the request's MIC and date
// range read the same way, and the same body.
import { parseDateRange, type DayRange } from './date-range'
import { calendarView } from './days'
import { identityOf, unavailableReason } from './directory'
import { parseMic } from './mic-param'
import type { Mic } from './mics'
import type { CalendarRegistry, CalendarSnapshot } from './registry'
import type { AnswerCache, CachedAnswer } from './answer-cache'

export interface CalendarQuery {
  mic: Mic
  range: DayRange
  /** No `from` given: the range starts today (UTC). */
  fromToday: boolean
}

/** The MIC and the range asked for, defaults resolved (the route's cache key); the spec's 400s. */
export function parseCalendarQuery(query: { mic?: string; from?: string; to?: string }, now: number): CalendarQuery {
  return { mic: parseMic(query.mic), range: parseDateRange(query, now), fromToday: !query.from }
}

export function calendarAnswer(snapshot: CalendarSnapshot, { mic, range }: CalendarQuery) {
  const entry = snapshot.entries.get(mic)
  return calendarView(entry?.state === 'loaded' ? entry.calendar : null, identityOf(snapshot, mic), range, unavailableReason(snapshot, mic))
}

/** The answer's key in the answer cache: the query with its defaults resolved. */
export const calendarAnswerKey = ({ mic, range }: CalendarQuery): string => `calendar ${mic} ${range.from} ${range.to}`

/** The answer as /v5/calendar serves it, from the answer cache (built once per snapshot and query). */
export function cachedCalendarAnswer(calendars: CalendarRegistry, answers: AnswerCache, asked: CalendarQuery): CachedAnswer {
  const snapshot = calendars.snapshot()
  return answers.answer(snapshot, calendarAnswerKey(asked), () => calendarAnswer(snapshot, asked))
}
