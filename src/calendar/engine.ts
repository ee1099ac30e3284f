// The session engine: status of a venue at an instant, and the next open and close. Pure
// functions of (compiled calendar, instant). UNKNOWN whenever the calendar cannot say.
import type { CompiledCalendar } from './compile'

export type CalendarStatus = 'OPEN' | 'CLOSED' | 'UNKNOWN'

export interface CalendarAnswer {
  status: CalendarStatus
  reason: string
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
  return { status: calendar.open[index] ? 'OPEN' : 'CLOSED', reason: calendar.reasons[index]! }
}

/** Start of the first open span after the current one; the current open run does not count. Null when none within coverage. */
export function nextOpen(calendar: CompiledCalendar, instant: number): number | null {
  if (calendar.alwaysOpen) return null
  const index = spanIndex(calendar, instant)
  if (index < 0) return null
  const { open, starts } = calendar
  let i = index
  // Skip the open run we are in, then find the next open span.
  while (i < open.length && open[i]) i++
  while (i < open.length && !open[i]) i++
  return i < open.length ? starts[i]! : null
}

/** End of the current open run, or of the next one when closed now. Null when it ends beyond coverage (or never, 24/7). */
export function nextClose(calendar: CompiledCalendar, instant: number): number | null {
  if (calendar.alwaysOpen) return null
  const index = spanIndex(calendar, instant)
  if (index < 0) return null
  const { open, starts } = calendar
  let i = index
  while (i < open.length && !open[i]) i++
  while (i < open.length && open[i]) i++
  return i < open.length ? starts[i]! : null
}
