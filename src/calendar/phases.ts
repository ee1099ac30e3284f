// Trading phases (schema_version 3): the non-continuous phases around a trading day's open
// segments, written as bands of local time anchored to fixed times or to the day's first open
// and last close. Pure functions of (file, day plan), shared by the validator, the compiler
// and the calendar views, so that all three resolve a band the same way.
import type { DayPlan } from './day-plan'
import { BAND_PHASES, type BandPhase, type PhaseBand, type ScheduleFile } from './schema'
import { dayNumber, parseLocalTime } from './zone'

export { BAND_PHASES, type BandPhase }
/** What the API reports at an instant: a band's phase, continuous trading (an open segment), or closed. */
export type Phase = BandPhase | 'continuous' | 'closed'
export const PHASES: readonly Phase[] = ['pre_open_auction', 'continuous', 'closing_auction', 'post_close', 'extended', 'closed']

export const MAX_PHASE_OFFSET = 720

export type PhaseTime = { kind: 'fixed'; minutes: number } | { kind: 'anchor'; anchor: 'open' | 'close'; offset: number }

const ANCHOR = /^(open|close)(?:([+-])(\d+))?$/

/** A band time: fixed local minutes, or an anchor with its signed offset. Null when malformed (the schema refuses those). */
export function parsePhaseTime(text: string): PhaseTime | null {
  const anchor = ANCHOR.exec(text)
  if (anchor) return { kind: 'anchor', anchor: anchor[1] as 'open' | 'close', offset: anchor[2] ? (anchor[2] === '-' ? -1 : 1) * Number(anchor[3]) : 0 }
  const minutes = parseLocalTime(text)
  return Number.isNaN(minutes) ? null : { kind: 'fixed', minutes }
}

// Bands are resolved on every covered trading day when a file is validated and compiled, from a
// handful of distinct texts ("open-15", "close+5", "07:30"): each is parsed once.
const parsedPhaseTimes = new Map<string, PhaseTime | null>()

function phaseTimeOf(text: string): PhaseTime | null {
  let time = parsedPhaseTimes.get(text)
  if (time === undefined) {
    time = parsePhaseTime(text)
    if (parsedPhaseTimes.size < 10_000) parsedPhaseTimes.set(text, time)
  }
  return time
}

/** Offsets are whole minutes 1..720; returns why not, or null. */
export function offsetProblem(text: string): string | null {
  const time = parsePhaseTime(text)
  if (time?.kind !== 'anchor' || !/[+-]/.test(text)) return null
  const size = Math.abs(time.offset)
  return size >= 1 && size <= MAX_PHASE_OFFSET ? null : `offset ${size} in "${text}" is outside 1..${MAX_PHASE_OFFSET} minutes`
}

/** Local minutes of a band time on a trading day (may fall outside 0..1440; the validator refuses that). */
export function resolvePhaseTime(time: PhaseTime, plan: DayPlan): number {
  if (time.kind === 'fixed') return time.minutes
  const segments = plan.segments
  const base = time.anchor === 'open' ? segments[0]![0] : segments[segments.length - 1]![1]
  return base + time.offset
}

export interface BandsInForce {
  bands: PhaseBand[]
  /** JSON pointer of the array the bands come from. */
  path: string
}

/** The bands in force on a local date: a date entry, else the season covering it, else the default bands. */
export type BandLookup = (day: number, date: string) => BandsInForce

/** Null when the file describes no phases. */
export function bandLookup(file: ScheduleFile): BandLookup | null {
  const phases = file.phases
  if (!phases) return null
  const seasons = (phases.seasons ?? []).map((season, index) => ({ from: dayNumber(season.from), to: dayNumber(season.to), bands: season.bands, path: `/phases/seasons/${index}/bands` }))
  return (day, date) => {
    const dated = phases.dates?.[date]
    if (dated) return { bands: dated.bands, path: `/phases/dates/${date}/bands` }
    const season = seasons.find((entry) => day >= entry.from && day <= entry.to)
    return season ? { bands: season.bands, path: season.path } : { bands: phases.bands, path: '/phases/bands' }
  }
}

export interface ResolvedBand {
  phase: BandPhase
  /** Local minutes [start, end). */
  start: number
  end: number
  /** Index of the band in the array it comes from. */
  index: number
}

/** The bands of one trading day in local minutes, ordered by start. Only days with an open segment have phases. */
export function resolveBands(bands: readonly PhaseBand[], plan: DayPlan): ResolvedBand[] {
  if (plan.segments.length === 0) return []
  return bands
    .map((band, index) => ({ phase: band.phase, start: resolvePhaseTime(phaseTimeOf(band.from)!, plan), end: resolvePhaseTime(phaseTimeOf(band.to)!, plan), index }))
    .sort((a, b) => a.start - b.start || a.end - b.end)
}

export interface PhaseSpan {
  phase: Exclude<Phase, 'closed'>
  start: number
  end: number
}

/**
 * The day's non-closed phases in order: its bands, and continuous trading wherever an open
 * segment is not covered by a band (a band inside a segment wins the phase there).
 */
export function dayTimeline(plan: DayPlan, bands: readonly ResolvedBand[]): PhaseSpan[] {
  const spans: PhaseSpan[] = bands.map(({ phase, start, end }) => ({ phase, start, end }))
  for (const [open, close] of plan.segments) {
    let cursor = open
    for (const band of bands) {
      if (band.end <= cursor || band.start >= close) continue
      if (band.start > cursor) spans.push({ phase: 'continuous', start: cursor, end: band.start })
      cursor = Math.max(cursor, band.end)
    }
    if (cursor < close) spans.push({ phase: 'continuous', start: cursor, end: close })
  }
  return spans.sort((a, b) => a.start - b.start)
}
