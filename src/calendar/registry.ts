// The loaded calendars as one immutable snapshot, replaced whole on reload: a request that takes
// the snapshot once sees either the old or the new set, never a mix. An invalid file never
// replaces a valid one; a MIC that has never had a valid file answers UNKNOWN. Each loaded entry
// keeps its file's exact bytes (what /v5/calendars/files serves and the manifest hashes); every
// reload after the first compares each changed venue with the snapshot before it, day by day
// (diff.ts), logs one line saying what changed or "no change", and tells its listeners.
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import type { Clock } from '../clock'
import type { Logger } from '../log'
import { compileCalendar, type CompiledCalendar } from './compile'
import { describeChanges, diffCalendars, type DayChange } from './diff'
import { listScheduleFiles } from './files'
import { isSupportedMic, SUPPORTED_MICS } from './mics'
import { validateScheduleText, type ValidationProblem } from './validate'

export type CalendarEntry =
  | { state: 'loaded'; mic: string; calendar: CompiledCalendar; path: string; contentHash: string; loadedAt: string; bytes: Uint8Array }
  | { state: 'invalid'; mic: string; path: string | null; problems: ValidationProblem[] }

export interface CalendarSnapshot {
  generation: number
  entries: ReadonlyMap<string, CalendarEntry>
  /** Files on disk that the last reload refused while an earlier version stays in force (until fixed). */
  rejected?: ReadonlyMap<string, RejectedFile>
}

export interface RejectedFile {
  mic: string
  path: string
  problems: ValidationProblem[]
  in_force: string
}

export type ReloadOutcome = 'loaded' | 'unchanged' | 'rejected' | 'missing' | 'ignored'

export interface ReloadResult {
  mic: string
  outcome: ReloadOutcome
  /** Version in force after the reload (null when the MIC has no valid calendar). */
  data_version: string | null
  previous_data_version?: string | null
  problems?: ValidationProblem[]
  warning?: string
}

/** What a reload changed in one venue: its version and file hash before and after, and the changed dates. */
export interface VenueChange {
  mic: string
  data_version_before: string | null
  data_version_after: string | null
  hash_before: string | null
  hash_after: string | null
  days: DayChange[]
}

export interface ReloadReport {
  trigger: string
  generation: number
  ok: boolean
  results: ReloadResult[]
  /** Venues with at least one changed date (never at the first load: there is nothing before it). */
  changes: VenueChange[]
}

export type ReloadListener = (report: ReloadReport) => void

/** Reloads an operator asked for: their "no change" is logged at info. */
const OPERATOR_TRIGGERS: ReadonlySet<string> = new Set(['SIGHUP', 'admin'])

export class CalendarRegistry {
  private current: CalendarSnapshot = { generation: 0, entries: new Map() }
  /**
   * What each file was at the last reload (its content hash, `missing`, `unreadable`), so that a
   * reload of files that did not change does not log their problems again: a SIGHUP that changed
   * nothing logs one info line, "no change".
   */
  private seen = new Map<string, string>()
  /** Called after every reload with its report (change announcements, the manifest cache). */
  readonly reloaded = new Set<ReloadListener>()

  constructor(
    readonly dir: string,
    private readonly log: Logger,
    private readonly clock: Clock,
  ) {}

  snapshot(): CalendarSnapshot {
    return this.current
  }

  /** The compiled calendar of a MIC, or null when it has no valid calendar. */
  calendar(mic: string, snapshot: CalendarSnapshot = this.current): CompiledCalendar | null {
    const entry = snapshot.entries.get(mic)
    return entry?.state === 'loaded' ? entry.calendar : null
  }

  /** Re-reads the directory, validates every file, then swaps the snapshot in one assignment. */
  reload(trigger: string): ReloadReport {
    const previous = this.current
    const next = new Map<string, CalendarEntry>()
    const results: ReloadResult[] = []
    const seen = new Map<string, string>()
    /** Names whose file is exactly what the last reload saw (a problem then was logged then). */
    const repeated = new Set<string>()
    const see = (name: string, state: string) => {
      seen.set(name, state)
      if (this.seen.get(name) === state) repeated.add(name)
    }
    let files: { mic: string; path: string }[] = []
    try {
      files = listScheduleFiles(this.dir)
    } catch (error) {
      this.log.error('cannot read the schedules directory; keeping the calendars in force', { dir: this.dir, error: (error as Error).message })
    }
    const byMic = new Map(files.map((file) => [file.mic, file.path]))
    const rejected = new Map<string, RejectedFile>()

    for (const { mic } of files) {
      if (!isSupportedMic(mic)) {
        see(`ignored:${mic}`, 'ignored')
        results.push({ mic, outcome: 'ignored', data_version: null, warning: 'not a supported MIC' })
      }
    }

    for (const mic of SUPPORTED_MICS) {
      const old = previous.entries.get(mic)
      const kept = old?.state === 'loaded' ? old : null
      const path = byMic.get(mic) ?? null
      if (!path) {
        see(mic, 'missing')
        const problems = [{ path: '', reason: `no ${mic}.json in ${this.dir}` }]
        next.set(mic, kept ?? { state: 'invalid', mic, path: null, problems })
        results.push({ mic, outcome: 'missing', data_version: kept?.calendar.dataVersion ?? null, problems })
        continue
      }
      let bytes: Uint8Array
      try {
        bytes = readFileSync(path)
      } catch (error) {
        see(mic, `unreadable:${(error as Error).message}`)
        const problems = [{ path: '', reason: `cannot read file: ${(error as Error).message}` }]
        next.set(mic, kept ?? { state: 'invalid', mic, path, problems })
        results.push({ mic, outcome: 'rejected', data_version: kept?.calendar.dataVersion ?? null, problems })
        continue
      }
      const text = Buffer.from(bytes).toString('utf8')
      const contentHash = createHash('sha256').update(bytes).digest('hex')
      see(mic, contentHash)
      if (kept && kept.contentHash === contentHash) {
        next.set(mic, kept)
        results.push({ mic, outcome: 'unchanged', data_version: kept.calendar.dataVersion })
        continue
      }
      const validation = validateScheduleText(text, mic)
      // Legal but suspicious data (as `calendars check` prints it): logged, the file still loads.
      if (validation.ok) for (const warning of validation.warnings) this.log.warn('calendar data warning', { trigger, mic, file: `${mic}.json`, json_path: warning.path, reason: warning.reason })
      let compiled: CompiledCalendar | null = null
      let problems: ValidationProblem[] = validation.ok ? [] : validation.problems
      if (validation.ok) {
        try {
          compiled = compileCalendar(validation.file)
        } catch (error) {
          problems = [{ path: '', reason: `cannot compile: ${(error as Error).message}` }]
        }
      }
      if (!compiled) {
        if (kept) rejected.set(mic, { mic, path, problems, in_force: kept.calendar.dataVersion })
        next.set(mic, kept ?? { state: 'invalid', mic, path, problems })
        results.push({ mic, outcome: 'rejected', data_version: kept?.calendar.dataVersion ?? null, previous_data_version: kept?.calendar.dataVersion ?? null, problems })
        continue
      }
      next.set(mic, { state: 'loaded', mic, calendar: compiled, path, contentHash, loadedAt: new Date(this.clock.now()).toISOString(), bytes })
      const result: ReloadResult = { mic, outcome: 'loaded', data_version: compiled.dataVersion, previous_data_version: kept?.calendar.dataVersion ?? null }
      if (kept && kept.calendar.dataVersion === compiled.dataVersion) result.warning = 'content changed but data_version was not bumped'
      else if (kept && compareDataVersions(compiled.dataVersion, kept.calendar.dataVersion) < 0) result.warning = `data_version went down from ${kept.calendar.dataVersion} to ${compiled.dataVersion}; an older file replaced a newer one`
      results.push(result)
    }

    this.current = { generation: previous.generation + 1, entries: next, rejected }
    this.seen = seen
    const changes = previous.generation === 0 ? [] : venueChanges(previous, this.current, results)
    const report: ReloadReport = { trigger, generation: this.current.generation, ok: results.every((r) => r.outcome === 'loaded' || r.outcome === 'unchanged'), results, changes }
    this.logReport(report, repeated)
    for (const listener of this.reloaded) {
      try {
        listener(report)
      } catch (error) {
        this.log.error('calendar reload listener failed', { trigger, error: (error as Error).message })
      }
    }
    return report
  }

  /** One line per change; problems of files that are as they were at the last reload only at debug. */
  private logReport(report: ReloadReport, repeated: ReadonlySet<string>): void {
    let changed = 0
    for (const result of report.results) {
      if (result.outcome === 'loaded') {
        changed++
        this.log[result.warning ? 'warn' : 'info']('calendar loaded', { trigger: report.trigger, mic: result.mic, data_version: result.data_version, previous: result.previous_data_version ?? null, ...(result.warning ? { warning: result.warning } : {}) })
      } else if (result.outcome === 'rejected' || result.outcome === 'missing') {
        if (repeated.has(result.mic)) {
          this.log.debug('calendar still rejected (file unchanged)', { trigger: report.trigger, mic: result.mic, in_force: result.data_version ?? 'none (answers UNKNOWN)' })
          continue
        }
        changed++
        for (const problem of result.problems ?? []) {
          this.log.error('calendar rejected', { trigger: report.trigger, mic: result.mic, file: `${result.mic}.json`, json_path: problem.path, reason: problem.reason, in_force: result.data_version ?? 'none (answers UNKNOWN)' })
        }
      } else if (result.outcome === 'ignored' && !repeated.has(`ignored:${result.mic}`)) {
        changed++
        this.log.warn('schedule file ignored', { mic: result.mic, reason: result.warning })
      }
    }
    if (report.generation === 1) return
    // One line per reload after the first: per venue what changed (day by day), or "no change" —
    // at info for the operator's own SIGHUP and admin reload, at debug for the watch's and the
    // follower's reloads that found nothing (they follow every touch of a file).
    const changes = Object.fromEntries(report.changes.map((change) => [change.mic, `${change.data_version_before ?? 'none'} → ${change.data_version_after ?? 'none'}; ${describeChanges(change.days)}`]))
    if (report.changes.length) this.log.info(`calendar reload: ${report.changes.length} venue${report.changes.length === 1 ? '' : 's'} changed`, { trigger: report.trigger, generation: report.generation, changes })
    else this.log[OPERATOR_TRIGGERS.has(report.trigger) ? 'info' : 'debug']('calendar reload: no change', { trigger: report.trigger, generation: report.generation, ...(changed ? { note: 'files were loaded or refused, but no date changed' } : {}) })
  }
}

/** The venues whose in-force calendar changed at a reload, with their changed dates (venues whose dates are all the same are left out). */
function venueChanges(before: CalendarSnapshot, after: CalendarSnapshot, results: readonly ReloadResult[]): VenueChange[] {
  const changes: VenueChange[] = []
  for (const result of results) {
    if (result.outcome !== 'loaded') continue
    const old = before.entries.get(result.mic)
    const now = after.entries.get(result.mic)
    const was = old?.state === 'loaded' ? old : null
    const is = now?.state === 'loaded' ? now : null
    if (was?.contentHash === is?.contentHash) continue
    const days = diffCalendars(was?.calendar ?? null, is?.calendar ?? null)
    if (!days.length) continue
    changes.push({ mic: result.mic, data_version_before: was?.calendar.dataVersion ?? null, data_version_after: is?.calendar.dataVersion ?? null, hash_before: was?.contentHash ?? null, hash_after: is?.contentHash ?? null, days })
  }
  return changes
}

/** Orders data_version strings `YYYY.M.N` numerically, part by part. */
export function compareDataVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number)
  const pb = b.split('.').map(Number)
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const diff = (pa[i] ?? 0) - (pb[i] ?? 0)
    if (diff) return diff
  }
  return 0
}
