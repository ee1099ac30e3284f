// Compiling a validated schedule file into contiguous UTC spans over its whole coverage, so that
// a status lookup is a binary search, not date arithmetic. Done once per load.
import type { ScheduleFile } from './schema'
import { lunchBreak, planDay, type DayPlan } from './day-plan'
import { BAND_PHASES, bandLookup, resolveBands } from './phases'
import { DAY_MS, MINUTE_MS, dayNumber, formatLocalTime, localToUtc, zoneOffsetMs } from './zone'

export interface CompiledCalendar {
  mic: string
  name: string
  timezone: string
  country: string
  currency: string
  sameAs: string
  dataVersion: string
  alwaysOpen: boolean
  file: ScheduleFile
  /** First covered instant (local midnight of coverage.from) and the instant coverage ends. */
  coverageStart: number
  coverageEnd: number
  coverageFrom: string | null
  coverageTo: string | null
  /** Span i covers [starts[i], starts[i + 1]) (the last one ends at coverageEnd). */
  starts: Float64Array
  /** SPAN_CLOSED, SPAN_OPEN or SPAN_PROVISIONAL per span. */
  state: Uint8Array
  reasons: string[]
  /** The trading-phase bands of every covered trading day as UTC [start, end), ordered; null when the file has no phases. */
  bands: CompiledBands | null
}

/** Band i covers [starts[i], ends[i]) with phase BAND_PHASES[codes[i]]. Bands never overlap. */
export interface CompiledBands {
  starts: Float64Array
  ends: Float64Array
  codes: Uint8Array
}

export const SPAN_CLOSED = 0
export const SPAN_OPEN = 1
/** A provisional local date: its status waits for an announcement, so it answers UNKNOWN. */
export const SPAN_PROVISIONAL = 2

/**
 * Offsets of one zone remembered for a walk over consecutive days: dayConverter samples noon of
 * the day before, the day and the day after, so each day after the first reads one new offset
 * through Intl instead of three. Only the last few are kept.
 */
export function consecutiveDayOffsets(tz: string): (utcMs: number) => number {
  const known = new Map<number, number>()
  return (utcMs) => {
    let offset = known.get(utcMs)
    if (offset === undefined) {
      offset = zoneOffsetMs(tz, utcMs)
      if (known.size >= 8) known.delete(known.keys().next().value!)
      known.set(utcMs, offset)
    }
    return offset
  }
}

/** Converts local minutes of one day to UTC, with a fast path for days without a DST change. */
export function dayConverter(tz: string, day: number, offsetAt: (utcMs: number) => number = (utcMs) => zoneOffsetMs(tz, utcMs)): (minutes: number) => number {
  const wallStart = day * DAY_MS
  const before = offsetAt(wallStart - DAY_MS / 2)
  const after = offsetAt(wallStart + DAY_MS + DAY_MS / 2)
  if (before === after && offsetAt(wallStart + DAY_MS / 2) === before) return (minutes) => wallStart + minutes * MINUTE_MS - before
  return (minutes) => localToUtc(tz, day, minutes)
}

function openReason(plan: DayPlan): string {
  switch (plan.rule) {
    case 'early_close':
      return `early close day (${plan.name}): regular session`
    case 'late_open':
      return `late open (${plan.name}): regular session`
    case 'special_session':
      return `special session (${plan.name})`
    case 'continuous':
      return 'continuous trading (24/7)'
    default:
      return 'regular session'
  }
}

function closedDayReason(plan: DayPlan): string {
  if (plan.rule === 'holiday') return `holiday: ${plan.name}`
  if (plan.rule === 'special_session') return `no trading (${plan.name})`
  return 'weekend'
}

function afterCloseReason(plan: DayPlan): string {
  if (plan.rule === 'early_close') return `after close (early close at ${formatLocalTime(plan.segments.at(-1)![1])}: ${plan.name})`
  return 'after close'
}

function beforeOpenReason(plan: DayPlan): string {
  if (plan.rule === 'late_open') return `before open (late open at ${formatLocalTime(plan.segments[0]![0])}: ${plan.name})`
  return 'before open'
}

export function compileCalendar(file: ScheduleFile): CompiledCalendar {
  const common = {
    mic: file.mic,
    name: file.name,
    timezone: file.timezone,
    country: file.country,
    currency: file.currency,
    sameAs: file.sameAs,
    dataVersion: file.data_version,
    alwaysOpen: file.always_open,
    file,
  }
  if (file.always_open || !file.coverage) {
    return { ...common, coverageStart: -Infinity, coverageEnd: Infinity, coverageFrom: null, coverageTo: null, starts: new Float64Array([-Infinity]), state: new Uint8Array([SPAN_OPEN]), reasons: ['continuous trading (24/7)'], bands: null }
  }

  const tz = file.timezone
  const firstDay = dayNumber(file.coverage.from)
  const lastDay = dayNumber(file.coverage.to)
  const starts: number[] = []
  const state: number[] = []
  const reasons: string[] = []
  const push = (start: number, end: number, spanState: boolean | typeof SPAN_PROVISIONAL, reason: string) => {
    if (end <= start) return
    const code = spanState === true ? SPAN_OPEN : spanState === false ? SPAN_CLOSED : SPAN_PROVISIONAL
    const last = starts.length - 1
    // Merge with the previous span when nothing changes (keeps the table small).
    if (last >= 0 && state[last] === code && reasons[last] === reason) return
    starts.push(start)
    state.push(code)
    reasons.push(reason)
  }

  const offsetAt = consecutiveDayOffsets(tz)
  const lookup = bandLookup(file)
  const bands = { starts: [] as number[], ends: [] as number[], codes: [] as number[] }
  const provisional = file.provisional ?? {}
  for (let day = firstDay; day <= lastDay; day++) {
    const plan = planDay(file, day)
    const toUtc = dayConverter(tz, day, offsetAt)
    const dayStart = toUtc(0)
    const dayEnd = toUtc(1440)
    const pending = provisional[plan.date]
    if (pending) {
      push(dayStart, dayEnd, SPAN_PROVISIONAL, `provisional: ${pending.why} (${pending.name})`)
      continue
    }
    if (plan.segments.length === 0) {
      push(dayStart, dayEnd, false, closedDayReason(plan))
      continue
    }
    const lunch = lunchBreak(plan)
    push(dayStart, toUtc(plan.segments[0]![0]), false, beforeOpenReason(plan))
    plan.segments.forEach(([start, end], index) => {
      if (index > 0) {
        const previousEnd = plan.segments[index - 1]![1]
        const isLunch = lunch !== null && lunch.start === previousEnd
        push(toUtc(previousEnd), toUtc(start), false, isLunch ? 'lunch break' : 'trading break')
      }
      push(toUtc(start), toUtc(end), true, openReason(plan))
    })
    push(toUtc(plan.segments.at(-1)![1]), dayEnd, false, afterCloseReason(plan))
    if (lookup) {
      for (const band of resolveBands(lookup(day, plan.date).bands, plan)) {
        // The validator refuses bands outside the day; a wall time in a DST gap may still collapse one.
        if (band.start < 0 || band.end > 1440) continue
        const start = toUtc(band.start)
        const end = toUtc(band.end)
        if (end <= start) continue
        bands.starts.push(start)
        bands.ends.push(end)
        bands.codes.push(BAND_PHASES.indexOf(band.phase))
      }
    }
  }

  // The constructors copy a plain array several times faster than TypedArray.from (which goes
  // through the iterator) in a process that has just started, as at boot.
  return {
    ...common,
    coverageStart: localToUtc(tz, firstDay, 0),
    coverageEnd: localToUtc(tz, lastDay + 1, 0),
    coverageFrom: file.coverage.from,
    coverageTo: file.coverage.to,
    starts: new Float64Array(starts),
    state: new Uint8Array(state),
    reasons,
    bands: lookup ? { starts: new Float64Array(bands.starts), ends: new Float64Array(bands.ends), codes: new Uint8Array(bands.codes) } : null,
  }
}
