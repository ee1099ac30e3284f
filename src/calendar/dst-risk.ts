// The next daylight-saving transition among the covered exchanges and what it does to an agent
// that computed opening times in UTC before the change (/v5/dst-risk).
import type { CompiledCalendar } from './compile'
import { nextOpen } from './engine'
import { formatOffset, transitionsBetween, type OffsetTransition } from './dst'
import { DAY_MS } from './zone'

const SEARCH_DAYS = 400
const protocolNote =
  'Signed receipts are computed per request from exchange-local wall times, so they are right across the change; never reuse a cached receipt (60-second lifetime) or a UTC time computed before the transition.'
/** Transitions within a day of the earliest one form one event (US zones change an hour apart). */
const EVENT_SPAN_MS = DAY_MS

function firstTransition(timezone: string, now: number): OffsetTransition | null {
  return transitionsBetween(timezone, now, now + SEARCH_DAYS * DAY_MS)[0] ?? null
}

function riskLevel(errorMinutes: number | null): string {
  if (errorMinutes === null) return 'unknown'
  if (errorMinutes === 0) return 'none'
  // A naive open earlier than the real one means an agent believes OPEN while the venue is CLOSED.
  return errorMinutes < 0 ? 'high' : 'medium'
}

function gapNote(now: number): string {
  const year = new Date(now).getUTCFullYear()
  const from = Date.UTC(year, 0, 1)
  const to = Date.UTC(year + 1, 0, 1)
  const us = transitionsBetween('America/New_York', from, to)
  const eu = transitionsBetween('Europe/London', from, to)
  if (us.length < 2 || eu.length < 2) return 'US and European daylight saving dates could not be computed.'
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10)
  const days = (a: number, b: number) => Math.round(Math.abs(b - a) / DAY_MS)
  return (
    `In ${year} the US moves its clocks on ${day(us[0]!.at)} and Europe on ${day(eu[0]!.at)} (${days(us[0]!.at, eu[0]!.at)} days apart), ` +
    `and back on ${day(eu[1]!.at)} (Europe) and ${day(us[1]!.at)} (US) (${days(eu[1]!.at, us[1]!.at)} days apart). ` +
    'In those weeks New York is one hour closer to London and Paris than usual, so a fixed UTC offset between US and European sessions is wrong.'
  )
}

export function dstRisk(calendars: readonly CompiledCalendar[], now: number) {
  const zones = [...new Set(calendars.filter((c) => !c.alwaysOpen).map((c) => c.timezone))]
  const transitions = zones.map((zone) => firstTransition(zone, now)).filter((t): t is OffsetTransition => t !== null)
  const note = 'Exchanges open at fixed local wall times; their UTC times move when the local zone changes its offset. Re-derive opening times after every transition.'
  if (!transitions.length) {
    return { event: null, transition_utc: null, expires_at: null, description: 'No daylight-saving transition in the next year among covered exchanges.', affected_exchanges: [], risk_window_minutes: 0, us_europe_dst_gap_note: gapNote(now), verified_schedule: null, sma_protocol_note: protocolNote, note }
  }
  const earliest = Math.min(...transitions.map((t) => t.at))
  const eventTransitions = transitions.filter((t) => t.at - earliest < EVENT_SPAN_MS)
  const byZone = new Map(eventTransitions.map((t) => [t.timezone, t]))

  const affected = calendars
    .filter((calendar) => byZone.has(calendar.timezone) && !calendar.alwaysOpen)
    .map((calendar) => {
      const transition = byZone.get(calendar.timezone)!
      const actual = nextOpen(calendar, transition.at)
      // Same local wall time, converted with the offset from before the change.
      const naive = actual === null ? null : actual + (transition.offsetAfter - transition.offsetBefore)
      const errorMinutes = actual === null || naive === null ? null : Math.round((naive - actual) / 60_000)
      const shiftMinutes = Math.round((transition.offsetAfter - transition.offsetBefore) / 60_000)
      return {
        mic: calendar.mic,
        name: calendar.name,
        timezone: calendar.timezone,
        shift: `${shiftMinutes > 0 ? '+' : ''}${shiftMinutes} min (${formatOffset(transition.offsetBefore)} to ${formatOffset(transition.offsetAfter)})`,
        transition_utc: new Date(transition.at).toISOString(),
        naive_agent_open_utc: naive === null ? null : new Date(naive).toISOString(),
        actual_open_utc_after_dst: actual === null ? null : new Date(actual).toISOString(),
        error_minutes: errorMinutes,
        risk: riskLevel(errorMinutes),
      }
    })

  const direction = eventTransitions[0]!.offsetAfter > eventTransitions[0]!.offsetBefore ? 'starts' : 'ends'
  const zoneList = [...byZone.keys()].sort().join(', ')
  const firstWithOpen = affected.find((entry) => entry.actual_open_utc_after_dst !== null)
  const verifiedCalendar = firstWithOpen ? calendars.find((c) => c.mic === firstWithOpen.mic) : undefined
  const errors = affected.map((entry) => Math.abs(entry.error_minutes ?? 0))
  return {
    event: `Daylight saving time ${direction} in ${zoneList}`,
    transition_utc: new Date(earliest).toISOString(),
    expires_at: new Date(Math.max(...eventTransitions.map((t) => t.at))).toISOString(),
    description: `Clocks change in ${zoneList}. An agent that keeps using UTC opening times computed before the change will be off by the shift at the first session after it.`,
    affected_exchanges: affected,
    risk_window_minutes: errors.length ? Math.max(...errors) : 0,
    us_europe_dst_gap_note: gapNote(earliest),
    verified_schedule:
      firstWithOpen && verifiedCalendar
        ? { mic: firstWithOpen.mic, data_version: verifiedCalendar.dataVersion, first_open_after_transition_utc: firstWithOpen.actual_open_utc_after_dst, source: 'exchange calendar loaded by this service' }
        : null,
    sma_protocol_note: protocolNote,
    note,
  }
}
