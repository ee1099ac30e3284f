// The session engine: status of a venue at an instant, and the next open and close. Pure
// functions of (compiled calendar, instant). UNKNOWN whenever the calendar cannot say: outside
// coverage, and all day on a provisional date.
import { SPAN_OPEN, SPAN_PROVISIONAL, type CompiledCalendar } from './compile'
import { BAND_PHASES, type Phase } from './phases'

export type CalendarStatus = 'OPEN' | 'CLOSED' | 'UNKNOWN'

export interface CalendarAnswer {
  status: CalendarStatus
  reason: string
}

/** A next open or close; `provisional` when finding it crossed (or started in) a provisional day. */
export interface NextBoundary {
  at: number
  provisional: boolean
}

/** Index of the span containing `instant`, or -1 outside coverage. */
export function spanIndex(calendar: CompiledCalendar, instant: number): number {
  if (!(instant >= calendar.coverageStart && instant < calendar.coverageEnd)) return -1
  const starts = calendar.starts
  let low = 0
  let high = starts.length - 1
  while (low < high) {
    const mid = (low + high + 1) >>> 1
    if (starts[mid]! <= instant) low = mid
    else high = mid - 1
  }
  return low
}

export function outsideCoverageReason(calendar: CompiledCalendar): string {
  return `outside calendar coverage (${calendar.coverageFrom} to ${calendar.coverageTo}, data_version ${calendar.dataVersion})`
}

export function statusAt(calendar: CompiledCalendar, instant: number): CalendarAnswer {
  if (!Number.isFinite(instant)) return { status: 'UNKNOWN', reason: 'invalid instant' }
  const index = spanIndex(calendar, instant)
  if (index < 0) return { status: 'UNKNOWN', reason: outsideCoverageReason(calendar) }
  const state = calendar.state[index]!
  return { status: state === SPAN_OPEN ? 'OPEN' : state === SPAN_PROVISIONAL ? 'UNKNOWN' : 'CLOSED', reason: calendar.reasons[index]! }
}

/**
 * Start of the first open span after the current open run (the run we are in does not count).
 * Provisional days are never open; crossing one (or starting in one) marks the answer
 * provisional, since that day may yet trade. Null when none within coverage.
 */
export function nextOpenBoundary(calendar: CompiledCalendar, instant: number): NextBoundary | null {
  if (calendar.alwaysOpen) return null
  const index = spanIndex(calendar, instant)
  if (index < 0) return null
  const { state, starts } = calendar
  let provisional = false
  let i = index
  while (i < state.length && state[i] === SPAN_OPEN) i++
  while (i < state.length && state[i] !== SPAN_OPEN) {
    if (state[i] === SPAN_PROVISIONAL) provisional = true
    i++
  }
  return i < state.length ? { at: starts[i]!, provisional } : null
}

/**
 * End of the current open run, or of the next one when not open now. A run that runs into a
 * provisional day ends there as far as the calendar knows: that instant, marked provisional.
 */
export function nextCloseBoundary(calendar: CompiledCalendar, instant: number): NextBoundary | null {
  if (calendar.alwaysOpen) return null
  const index = spanIndex(calendar, instant)
  if (index < 0) return null
  const { state, starts } = calendar
  let provisional = false
  let i = index
  while (i < state.length && state[i] !== SPAN_OPEN) {
    if (state[i] === SPAN_PROVISIONAL) provisional = true
    i++
  }
  while (i < state.length && state[i] === SPAN_OPEN) i++
  if (i >= state.length) return null
  return { at: starts[i]!, provisional: provisional || state[i] === SPAN_PROVISIONAL }
}

export function nextOpen(calendar: CompiledCalendar, instant: number): number | null {
  return nextOpenBoundary(calendar, instant)?.at ?? null
}

export function nextClose(calendar: CompiledCalendar, instant: number): number | null {
  return nextCloseBoundary(calendar, instant)?.at ?? null
}

/** The provisional entry of a local date, if any. */
export function provisionalOn(calendar: CompiledCalendar, localDate: string): { name: string; why: string } | null {
  return calendar.file.provisional?.[localDate] ?? null
}

/**
 * The trading phase at an instant: a band covering it wins; else `continuous` inside an open
 * segment; else `closed`. Null when the status is UNKNOWN (outside coverage, a provisional day).
 * Phases never change the status: a band inside an open segment leaves it OPEN.
 */
export function phaseAt(calendar: CompiledCalendar, instant: number): Phase | null {
  return phaseOf(calendar, instant, statusAt(calendar, instant).status)
}

/** phaseAt for a status already looked up at the same instant. */
export function phaseOf(calendar: CompiledCalendar, instant: number, status: CalendarStatus): Phase | null {
  if (status === 'UNKNOWN') return null
  const bands = calendar.bands
  if (bands && bands.starts.length) {
    let low = 0
    let high = bands.starts.length - 1
    while (low < high) {
      const mid = (low + high + 1) >>> 1
      if (bands.starts[mid]! <= instant) low = mid
      else high = mid - 1
    }
    if (bands.starts[low]! <= instant && instant < bands.ends[low]!) return BAND_PHASES[bands.codes[low]!]!
  }
  return status === 'OPEN' ? 'continuous' : 'closed'
}

/**
 * The first instant after `instant` at which phaseAt gives another phase (a band starts or ends,
 * a session opens or closes, coverage ends); null when it never changes (24/7) or is not known.
 */
export function phaseChangeAfter(calendar: CompiledCalendar, instant: number): number | null {
  if (calendar.alwaysOpen) return null
  const phase = phaseAt(calendar, instant)
  if (phase === null) return null
  let at = instant
  // Spans and bands that change nothing (a merged reason, a band that continues a session's
  // phase) are stepped over; a few steps always reach a real change.
  for (let step = 0; step < 64; step++) {
    const next = nextEdge(calendar, at)
    if (next === null) return null
    if (phaseAt(calendar, next) !== phase) return next
    at = next
  }
  return null
}

/** The next span start or band edge after `instant` (coverage's end counts as one). */
function nextEdge(calendar: CompiledCalendar, instant: number): number | null {
  const index = spanIndex(calendar, instant)
  if (index < 0) return null
  let next = index + 1 < calendar.starts.length ? calendar.starts[index + 1]! : calendar.coverageEnd
  const bands = calendar.bands
  if (bands && bands.starts.length) {
    // The last band starting at or before the instant, and the one after it.
    let low = -1
    let high = bands.starts.length - 1
    while (low < high) {
      const mid = (low + high + 1) >> 1
      if (bands.starts[mid]! <= instant) low = mid
      else high = mid - 1
    }
    if (low >= 0 && instant < bands.ends[low]!) next = Math.min(next, bands.ends[low]!)
    if (low + 1 < bands.starts.length) next = Math.min(next, bands.starts[low + 1]!)
  }
  return Number.isFinite(next) ? next : null
}
