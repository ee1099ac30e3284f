// Reconstructing the calendar status of an instant in the past or future (/v5/historical), with
// the reasoning a person can check: local date and time, that day's sessions, the deciding rule.
import { formatInTimeZone } from 'date-fns-tz'
import type { CompiledCalendar } from './compile'
import { planDay } from './day-plan'
import { phaseOf, provisionalOn, statusAt } from './engine'
import { formatOffset, transitionsBetween } from './dst'
import { DAY_MS, formatLocalTime, utcToLocal, zoneOffsetMs } from './zone'

export const HISTORICAL_DISCLAIMER =
  'Unsigned reconstruction from the exchange calendar as loaded now. It does not include operator overrides, real-time halts or unscheduled closures, and is not a receipt.'

const DST_NOTE_WINDOW_MS = 7 * DAY_MS

export function dstNote(timezone: string, at: number): string | null {
  const transitions = transitionsBetween(timezone, at - DST_NOTE_WINDOW_MS, at + DST_NOTE_WINDOW_MS)
  if (!transitions.length) return null
  return transitions
    .map((t) => {
      const days = Math.round(Math.abs(at - t.at) / DAY_MS)
      const when = days === 0 ? 'within a day of' : `${days} day${days === 1 ? '' : 's'} ${t.at <= at ? 'before' : 'after'}`
      const shift = Math.round((t.offsetAfter - t.offsetBefore) / 60_000)
      return `${timezone} changes from ${formatOffset(t.offsetBefore)} to ${formatOffset(t.offsetAfter)} at ${new Date(t.at).toISOString()}, ${when} this instant: local session times stay the same, so their UTC times move by ${shift > 0 ? '-' : '+'}${Math.abs(shift)} minutes.`
    })
    .join(' ')
}

export function reconstruct(calendar: CompiledCalendar | null, identity: { mic: string; timezone: string }, at: number, now: number, unavailable: string | null) {
  const base = { mic: identity.mic, queried_at: new Date(now).toISOString(), at: new Date(at).toISOString(), source: 'SCHEDULE_RECONSTRUCTION' as const }
  const local = utcToLocal(identity.timezone, at)
  const localFacts = {
    timezone: identity.timezone,
    utc_offset: formatOffset(zoneOffsetMs(identity.timezone, at)),
    local_date: local.date,
    // Reading fields of a zoned time is what date-fns-tz does reliably (it uses Intl).
    local_time: formatInTimeZone(at, identity.timezone, 'HH:mm:ss'),
    weekday: ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'][local.weekday],
  }
  if (!calendar) {
    return { ...base, computed_status: 'UNKNOWN', phase: null, reasoning: { ...localFacts, rule: 'no_calendar', decided_by: unavailable ?? 'no valid calendar is loaded' }, dst_note: dstNote(identity.timezone, at), disclaimer: HISTORICAL_DISCLAIMER, data_version: null }
  }
  const answer = statusAt(calendar, at)
  const coverage = calendar.alwaysOpen ? null : { from: calendar.coverageFrom, to: calendar.coverageTo }
  const pending = answer.status === 'UNKNOWN' ? provisionalOn(calendar, local.date) : null
  if (pending) {
    // A provisional date: the day's status waits for an announcement; the rest of the calendar stands.
    return { ...base, computed_status: 'UNKNOWN', phase: null, reasoning: { ...localFacts, rule: 'provisional', rule_name: pending.name, provisional_why: pending.why, decided_by: answer.reason, coverage }, dst_note: dstNote(identity.timezone, at), disclaimer: HISTORICAL_DISCLAIMER, data_version: calendar.dataVersion }
  }
  if (answer.status === 'UNKNOWN') {
    return { ...base, computed_status: 'UNKNOWN', phase: null, reasoning: { ...localFacts, rule: 'outside_coverage', coverage, decided_by: answer.reason }, dst_note: dstNote(identity.timezone, at), disclaimer: HISTORICAL_DISCLAIMER, data_version: calendar.dataVersion }
  }
  const plan = planDay(calendar.file, local.day)
  const sessions = (segments: [number, number][]) => segments.map(([open, close]) => ({ open: formatLocalTime(open), close: formatLocalTime(close) }))
  return {
    ...base,
    computed_status: answer.status,
    // The trading phase (a band of the file's phases, else continuous or closed); OPEN keeps its meaning.
    phase: phaseOf(calendar, at, answer.status),
    reasoning: {
      ...localFacts,
      rule: plan.rule,
      rule_name: plan.name,
      season: plan.season,
      sessions: sessions(plan.segments),
      regular_sessions: sessions(plan.templateSegments),
      decided_by: answer.reason,
      coverage,
    },
    dst_note: calendar.alwaysOpen ? null : dstNote(identity.timezone, at),
    disclaimer: HISTORICAL_DISCLAIMER,
    data_version: calendar.dataVersion,
  }
}
