// RFC 5545 iCalendar feeds of the notable days (closures, early closes, late opens, special
// sessions, provisional dates) of one venue or of all, from 30 days ago to the end of each
// venue's coverage: the same day records as /v5/holidays. Written by ical-generator (folding at
// 75 octets, escaping, CRLF). Everything in a feed derives from the calendar data, never from
// the clock beyond the window's first day, so a feed is byte-identical until the data changes:
// DTSTAMP and LAST-MODIFIED come from the file's data_version, and SEQUENCE grows with it, so a
// subscriber's next refresh replaces an event whose day was confirmed or changed.
import ical, { ICalCalendarMethod, ICalEventStatus, ICalEventTransparency } from 'ical-generator'
import type { CompiledCalendar } from './compile'
import { notableCalendarDays, type CalendarDay } from './days'
import { DAY_MS, dayNumber } from './zone'

/** How far back a feed starts, in days before today (UTC). */
export const FEED_PAST_DAYS = 30
/** The refresh interval a feed suggests to calendar applications (REFRESH-INTERVAL, X-PUBLISHED-TTL). */
export const FEED_REFRESH_SECONDS = 6 * 3600
const SEQUENCE_EPOCH_MS = Date.UTC(2024, 0, 1)

/**
 * The instant a data_version stands for: YYYY.M.N → the first of that month plus N seconds. It
 * orders like data_version (for N below a month of seconds) and is the same after a restart.
 */
export function dataVersionInstant(version: string): number {
  const [year, month, edit] = version.split('.').map(Number) as [number, number, number]
  return Date.UTC(year, month - 1, 1) + edit * 1000
}

/** SEQUENCE of every event of a venue: seconds from 2024-01-01 to dataVersionInstant, so it grows with each data_version. */
export function dataVersionSequence(version: string): number {
  return Math.max(0, Math.floor((dataVersionInstant(version) - SEQUENCE_EPOCH_MS) / 1000))
}

export interface FeedVenue {
  mic: string
  name: string
  calendar: CompiledCalendar
}

/** UID of a venue's event on a local date: one per venue and date, whatever the day turns out to be. */
export const eventUid = (mic: string, date: string) => `${mic}-${date}@openbell`

function summaryOf(mic: string, timezone: string, day: CalendarDay): string {
  const first = day.sessions[0]
  const last = day.sessions[day.sessions.length - 1]
  const name = day.name ?? ''
  switch (day.kind) {
    case 'provisional':
      return `${mic} status unknown (provisional): ${name}`
    case 'early_close':
      return `${mic} closes early at ${last!.close_local} (${timezone}): ${name}`
    case 'late_open':
      return `${mic} opens late at ${first!.open_local} (${timezone}): ${name}`
    case 'special':
      if (first) return `${mic} special session ${first.open_local}-${last!.close_local} (${timezone}): ${name}`
      return `${mic} closed: ${name}`
    default:
      return `${mic} closed: ${name}`
  }
}

function descriptionOf(venue: FeedVenue, day: CalendarDay): string {
  const lines = [`${venue.name} (${venue.mic}), ${day.date}: ${day.kind.replace('_', ' ')}.`]
  if (day.sessions.length) lines.push(`Sessions (${venue.calendar.timezone}): ${day.sessions.map((s) => `${s.open_local}-${s.close_local} (${s.open.slice(11, 16)}-${s.close.slice(11, 16)} UTC)`).join(', ')}.`)
  if (day.kind === 'provisional') lines.push(`Provisional: ${day.provisional_why}. openbell answers UNKNOWN for this whole day until it is confirmed.`)
  else lines.push(`Basis: ${day.basis === 'rule' ? 'rule-derived (a statute or codified exchange rule)' : "published (the exchange's notice)"}.`)
  lines.push(`Calendar data_version ${venue.calendar.dataVersion}. Calendar only: no overrides or real-time halts.`)
  return lines.join('\n')
}

/** The feed's events: notable days of each venue from `fromDay` to its coverage end, by date then MIC. */
export function feedDays(venues: readonly FeedVenue[], fromDay: number): { venue: FeedVenue; day: CalendarDay }[] {
  return venues
    .flatMap((venue) => {
      const calendar = venue.calendar
      if (calendar.alwaysOpen || !calendar.coverageTo) return []
      const lastDay = dayNumber(calendar.coverageTo)
      return lastDay < fromDay ? [] : notableCalendarDays(calendar, fromDay, lastDay).map((day) => ({ venue, day }))
    })
    .sort((a, b) => a.day.date.localeCompare(b.day.date) || a.venue.mic.localeCompare(b.venue.mic))
}

export function buildFeed(venues: readonly FeedVenue[], fromDay: number, title: { name: string; description: string }): string {
  const feed = ical({
    name: title.name,
    description: title.description,
    prodId: { company: 'openbell', product: 'market calendar', language: 'EN' },
    method: ICalCalendarMethod.PUBLISH,
    ttl: FEED_REFRESH_SECONDS,
  })
  for (const { venue, day } of feedDays(venues, fromDay)) {
    const modified = new Date(dataVersionInstant(venue.calendar.dataVersion))
    const timed = day.sessions.length > 0
    feed.createEvent({
      id: eventUid(venue.mic, day.date),
      sequence: dataVersionSequence(venue.calendar.dataVersion),
      stamp: modified,
      lastModified: modified,
      allDay: !timed,
      start: timed ? new Date(day.sessions[0]!.open) : new Date(dayNumber(day.date) * DAY_MS),
      end: timed ? new Date(day.sessions[day.sessions.length - 1]!.close) : new Date((dayNumber(day.date) + 1) * DAY_MS),
      summary: summaryOf(venue.mic, venue.calendar.timezone, day),
      description: descriptionOf(venue, day),
      categories: [{ name: day.kind.toUpperCase() }],
      status: day.kind === 'provisional' ? ICalEventStatus.TENTATIVE : ICalEventStatus.CONFIRMED,
      transparency: ICalEventTransparency.TRANSPARENT,
    })
  }
  // Every content line ends with CRLF (RFC 5545 3.1), the last one too.
  return `${feed.toString()}\r\n`
}

/** First day of a feed window: FEED_PAST_DAYS before today (UTC). */
export function feedStartDay(now: number): number {
  return Math.floor(now / DAY_MS) - FEED_PAST_DAYS
}
