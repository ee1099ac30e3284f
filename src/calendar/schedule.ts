// The unsigned schedule view of a venue (/v5/schedule): calendar only, no overrides or halts.
import type { CompiledCalendar } from './compile'
import { lunchBreak, planDay } from './day-plan'
import { nextCloseBoundary, nextOpenBoundary, phaseChangeAfter, phaseOf, statusAt } from './engine'
import { formatLocalTime, utcToLocal } from './zone'

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString())

export function scheduleView(calendar: CompiledCalendar | null, identity: { mic: string; name: string; timezone: string }, now: number, unavailable: string | null) {
  const base = { mic: identity.mic, name: identity.name, timezone: identity.timezone, queried_at: new Date(now).toISOString() }
  if (!calendar) {
    return { ...base, current_status: 'UNKNOWN', reason: unavailable ?? 'no valid calendar', phase: null, phase_until: null, next_open: null, next_close: null, next_open_provisional: false, next_close_provisional: false, lunch_break: null, note: 'No valid calendar is loaded for this exchange: treat it as CLOSED.', data_version: null, coverage: null }
  }
  const answer = statusAt(calendar, now)
  const openBoundary = nextOpenBoundary(calendar, now)
  const closeBoundary = nextCloseBoundary(calendar, now)
  const open = openBoundary?.at ?? null
  const close = closeBoundary?.at ?? null
  // The midday break of today's session, or of the next session when today has none.
  const reference = answer.status === 'OPEN' || open === null ? now : open
  const plan = planDay(calendar.file, utcToLocal(calendar.timezone, reference).day)
  const lunch = lunchBreak(plan)
  return {
    ...base,
    current_status: answer.status,
    reason: answer.reason,
    // What /v5/historical calls `phase` at this instant, and when it gives way to the next one.
    phase: phaseOf(calendar, now, answer.status),
    phase_until: iso(phaseChangeAfter(calendar, now)),
    next_open: iso(open),
    next_close: iso(close),
    // Not dropped when a provisional day lies in between: reported, and flagged.
    next_open_provisional: openBoundary?.provisional ?? false,
    next_close_provisional: closeBoundary?.provisional ?? false,
    lunch_break: lunch ? { start: formatLocalTime(lunch.start), end: formatLocalTime(lunch.end) } : null,
    note: calendar.alwaysOpen
      ? 'Trades continuously (24/7); there is no next open or close.'
      : 'Calendar only: ignores operator overrides and real-time halts. For a signed, actionable answer use /v5/status.',
    data_version: calendar.dataVersion,
    coverage: calendar.alwaysOpen ? null : { from: calendar.coverageFrom, to: calendar.coverageTo },
  }
}
