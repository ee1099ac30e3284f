// /v5/briefing: one UTC day for an agent, from the calendars — every venue's sessions in UTC
// (with midday breaks, early closes, late opens), the venues closed and why, DST changes in the
// next 7 days and calendar warnings. For today it adds the live state (overrides, halts).
// Everything but that live section is a function of the date and the loaded calendars.
import type { DiscoveryDeps } from './deps'
import { SUPPORTED_MICS } from '../calendar/mics'
import { lunchBreak, planDay, type DayPlan } from '../calendar/day-plan'
import { transitionsBetween, formatOffset } from '../calendar/dst'
import { calendarWarnings } from '../calendar/horizon'
import { unavailableReason } from '../calendar/directory'
import { DAY_MS, dayNumber, formatLocalTime, localToUtc } from '../calendar/zone'
import type { CompiledCalendar } from '../calendar/compile'

const iso = (ms: number) => new Date(ms).toISOString()

interface Session {
  local_date: string
  open_utc: string
  close_utc: string
  rule: DayPlan['rule']
  name: string | null
}

function sessionsOverlapping(calendar: CompiledCalendar, from: number, to: number): { sessions: Session[]; plans: DayPlan[] } {
  const sessions: Session[] = []
  const plans: DayPlan[] = []
  const first = dayNumber(iso(from).slice(0, 10)) - 1
  // Local days that can touch the UTC day: one either side covers every offset from -12 to +14 h.
  for (let day = first; day <= first + 2; day++) {
    const plan = planDay(calendar.file, day)
    plans.push(plan)
    // Touching segments (a break at midnight) are merged so a continuous session reads as one.
    const merged: [number, number][] = []
    for (const [start, end] of plan.segments) {
      const last = merged.at(-1)
      if (last && last[1] === start) last[1] = end
      else merged.push([start, end])
    }
    for (const [start, end] of merged) {
      const open = localToUtc(calendar.timezone, day, start)
      const close = localToUtc(calendar.timezone, day, end)
      if (close > from && open < to) sessions.push({ local_date: plan.date, open_utc: iso(open), close_utc: iso(close), rule: plan.rule, name: plan.name })
    }
  }
  return { sessions, plans }
}

function venueDay(calendar: CompiledCalendar, from: number, to: number) {
  if (calendar.alwaysOpen) return { mic: calendar.mic, name: calendar.name, timezone: calendar.timezone, state: 'open_24_7', sessions: [{ open_utc: iso(from), close_utc: iso(to), rule: 'continuous', name: null }] }
  const covered = from >= calendar.coverageStart && to <= calendar.coverageEnd
  if (!covered) {
    // Outside coverage the calendar vouches for nothing: no sessions that only repeat the weekly pattern.
    const reason = `outside calendar coverage (${calendar.coverageFrom} to ${calendar.coverageTo}): treat as CLOSED`
    return { mic: calendar.mic, name: calendar.name, timezone: calendar.timezone, state: 'unknown', reason, sessions: [], lunch_break: null, closed_because: null, special_days: [] }
  }
  const { sessions, plans } = sessionsOverlapping(calendar, from, to)
  const localDay = plans[1]!
  const lunch = lunchBreak(localDay)
  const special = plans.filter((plan) => plan.rule !== 'regular' && plan.rule !== 'weekend' && plan.rule !== 'continuous')
  return {
    mic: calendar.mic,
    name: calendar.name,
    timezone: calendar.timezone,
    state: sessions.length ? 'trading' : 'closed',
    sessions,
    lunch_break: lunch ? { start: formatLocalTime(lunch.start), end: formatLocalTime(lunch.end), local_date: localDay.date } : null,
    closed_because: !sessions.length ? (localDay.rule === 'weekend' ? 'weekend' : localDay.name ?? localDay.rule) : null,
    special_days: special.map((plan) => ({ local_date: plan.date, rule: plan.rule, name: plan.name })),
  }
}

export async function briefing(deps: Pick<DiscoveryDeps, 'calendars' | 'clock' | 'overrides' | 'halts'>, date: string) {
  const from = Date.parse(`${date}T00:00:00Z`)
  const to = from + DAY_MS
  const snapshot = deps.calendars.snapshot()
  const venues = SUPPORTED_MICS.map((mic) => {
    const calendar = deps.calendars.calendar(mic, snapshot)
    if (!calendar) return { mic, state: 'unknown', reason: unavailableReason(snapshot, mic) ?? 'no calendar', sessions: [] }
    return venueDay(calendar, from, to)
  })
  const zones = [...new Set(venues.map((venue) => ('timezone' in venue ? venue.timezone : null)).filter((zone): zone is string => zone !== null))]
  const dstChanges = zones.flatMap((zone) =>
    transitionsBetween(zone, from, from + 7 * DAY_MS).map((change) => ({
      timezone: zone,
      at_utc: iso(change.at),
      from_offset: formatOffset(change.offsetBefore),
      to_offset: formatOffset(change.offsetAfter),
      mics: venues.filter((venue) => 'timezone' in venue && venue.timezone === zone).map((venue) => venue.mic),
    })),
  )
  const now = deps.clock.now()
  const today = iso(now).slice(0, 10) === date
  const live = today
    ? {
        as_of: iso(now),
        overrides: [...(await deps.overrides.active(now)).values()].map((row) => ({ mic: row.mic, status: row.status, reason: row.reason, expires_at: row.expires_at })),
        halt_monitor: deps.halts.status(),
      }
    : null
  return {
    date,
    venues,
    trading: venues.filter((venue) => venue.state === 'trading' || venue.state === 'open_24_7').map((venue) => venue.mic),
    closed: venues.filter((venue) => venue.state === 'closed').map((venue) => ({ mic: venue.mic, because: 'closed_because' in venue ? venue.closed_because : null })),
    unknown: venues.filter((venue) => venue.state === 'unknown').map((venue) => venue.mic),
    dst_changes_next_7_days: dstChanges.sort((a, b) => a.at_utc.localeCompare(b.at_utc)),
    calendar_warnings: calendarWarnings(snapshot, from),
    live,
    note: today
      ? 'Sessions from the exchange calendars; `live` adds overrides and halts in force now. Act only on a signed receipt from /v5/status.'
      : 'Reconstructed from the exchange calendars loaded now; overrides and halts of that day are not included. Act only on a signed receipt from /v5/status.',
  }
}
