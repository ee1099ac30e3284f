// The calendar changes as an Atom 1.0 feed (RFC 4287) for feed readers: one entry per venue and
// reload that changed dates, newest first, its text listing each changed date before and after.
import type { CalendarDay } from '../days'
import type { ChangeEventRow, ChangeRow } from './store'

const XML_UNSAFE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g
export const xmlEscape = (text: string) => text.replace(XML_UNSAFE, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;')

const KIND_WORD: Record<string, string> = { regular: 'trading day', early_close: 'early close', late_open: 'late open', special: 'special session', holiday: 'holiday', weekend: 'weekend', provisional: 'provisional (UNKNOWN)', unknown: 'unknown' }

/** A day record in a few words: kind, name, local hours. */
export function describeDay(day: CalendarDay | null): string {
  if (!day) return 'not covered'
  const hours = day.sessions.length ? ` ${day.sessions.map((session) => `${session.open_local}–${session.close_local}`).join(', ')}` : ''
  return `${KIND_WORD[day.kind] ?? day.kind}${day.name ? ` "${day.name}"` : ''}${hours}`
}

/** One line per changed date. */
export function describeChange(change: Pick<ChangeRow, 'date' | 'change' | 'to' | 'before' | 'after'>): string {
  if (change.change === 'coverage_extended') return `${change.date} to ${change.to}: coverage extended (dates now known)`
  if (change.change === 'coverage_reduced') return `${change.date} to ${change.to}: coverage reduced (dates now unknown)`
  return `${change.date} ${change.change.replace(/_/g, ' ')}: ${describeDay(change.before)} → ${describeDay(change.after)}`
}

export interface AtomFeedOptions {
  baseUrl: string
  /** The tag authority of entry ids (the issuer's host name). */
  authority: string
  mic: string | null
  /** `updated` of a feed without entries. */
  emptyUpdated: string
}

export function atomFeed(events: readonly (ChangeEventRow & { days: ChangeRow[] })[], options: AtomFeedOptions): string {
  const query = options.mic ? `?mic=${options.mic}` : ''
  const self = `${options.baseUrl}/v5/calendar/changes.atom${query}`
  const updated = events[0]?.at ?? options.emptyUpdated
  const entries = events.map((event) => {
    const first = event.days[0]
    const headline = event.day_count === 1 && first ? describeChange(first) : `${event.day_count} dates changed`
    const lines = event.days.map(describeChange)
    if (event.day_count > event.days.length) lines.push(`… and ${event.day_count - event.days.length} more: ${options.baseUrl}/v5/calendar/changes?mic=${event.mic}&since=${encodeURIComponent(event.at)}`)
    const text = `${event.mic}: data_version ${event.data_version_before ?? 'none'} → ${event.data_version_after ?? 'none'} (${event.trigger})\n${lines.join('\n')}`
    return `  <entry>
    <id>tag:${xmlEscape(options.authority)},${event.at.slice(0, 10)}:calendar-change:${event.id}</id>
    <title>${xmlEscape(`${event.mic}: ${headline}`)}</title>
    <updated>${event.at}</updated>
    <published>${event.at}</published>
    <link rel="alternate" type="text/html" href="${xmlEscape(`${options.baseUrl}/venue/${event.mic}`)}"/>
    <category term="${xmlEscape(event.mic)}"/>
    <content type="text">${xmlEscape(text)}</content>
  </entry>`
  })
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <id>${xmlEscape(self)}</id>
  <title>${xmlEscape(`openbell: calendar changes${options.mic ? ` of ${options.mic}` : ''}`)}</title>
  <subtitle>Holidays, hours, early closes, late opens, phases and provisional days that changed in the exchange calendars this service answers from.</subtitle>
  <updated>${updated}</updated>
  <link rel="self" type="application/atom+xml" href="${xmlEscape(self)}"/>
  <link rel="alternate" type="application/json" href="${xmlEscape(`${options.baseUrl}/v5/calendar/changes${query}`)}"/>
  <author><name>openbell</name></author>
  <generator>openbell</generator>
${entries.join('\n')}
</feed>
`
}
