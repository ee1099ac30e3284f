// Applying an accepted manifest to this node's schedules directory, whole or not at all.
// planApply decides, without writing anything, what the manifest would change and whether it is
// refused: a hash mismatch, a file the hot-reload validator refuses, a data_version lower than the
// one in force (rollback), all checked before a single byte is written. writeFiles then writes the
// changed files through a journal: every new file is written beside its target first, then the
// journal naming them, then each is renamed into place, then the state, then the journal goes. A
// restart finds a journal only after every file was written and checked, and finishes the renames
// (recoverPendingApply, before the first load), so no restart serves half a manifest.
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, unlinkSync } from 'node:fs'
import { join } from 'node:path'
import type { Logger } from '../../log'
import { compileCalendar } from '../compile'
import { isSupportedMic } from '../mics'
import { compareDataVersions } from '../registry'
import { validateScheduleText } from '../validate'
import { sha256Hex, type Manifest } from './manifest'
import { readLocalState, syncDirectory, writeAtomic, writeLocalState, type LocalState } from './local-state'

export const REFUSAL_REASONS = ['bad_signature', 'unknown_key', 'malformed_manifest', 'replay', 'serial_reused', 'rollback', 'hash_mismatch', 'invalid_file', 'too_large'] as const
export type RefusalReason = (typeof REFUSAL_REASONS)[number]

export interface Refusal {
  reason: RefusalReason
  detail: string
}

export interface FileWrite {
  mic: string
  sha256: string
  body: string
}

export interface ApplyPlan {
  /** Files whose bytes change. */
  writes: FileWrite[]
  /** Files edited locally after the last update: kept. */
  overrides: string[]
  /** Files already equal to upstream's. */
  unchanged: string[]
  /** Lines naming a MIC this build does not serve (a newer source): left alone. */
  ignored: string[]
}

export interface LocalView {
  state: LocalState
  /** SHA-256 of each file on disk (null: no file). */
  disk: (mic: string) => string | null
  /** The data_version in force for a MIC (null: no valid calendar loaded). */
  inForce: (mic: string) => string | null
}

/** Why a file would not load as the manifest lists it (the hot reload's validator and compiler), or null. */
export function checkFile(mic: string, body: string, dataVersion: string): Refusal | null {
  const validation = validateScheduleText(body, mic)
  if (!validation.ok) {
    const first = validation.problems[0]
    return { reason: 'invalid_file', detail: `${mic}.json: ${first ? `${first.path || '(file)'}: ${first.reason}` : 'invalid'}${validation.problems.length > 1 ? `, and ${validation.problems.length - 1} more` : ''}` }
  }
  if (validation.file.data_version !== dataVersion) return { reason: 'invalid_file', detail: `${mic}.json says data_version ${validation.file.data_version}, the manifest ${dataVersion}` }
  try {
    compileCalendar(validation.file)
  } catch (error) {
    return { reason: 'invalid_file', detail: `${mic}.json cannot be compiled: ${(error as Error).message}` }
  }
  return null
}

export type FileCheck = (mic: string, body: string, dataVersion: string, sha256: string) => Refusal | null

/**
 * What applying `manifest` would do here, or why it is refused; `bodies` holds the text of every
 * file by SHA-256 that may be written. `check` validates one file (a caller that checked the
 * files already, yielding between them, passes its results).
 */
export function planApply(manifest: Manifest, bodies: ReadonlyMap<string, string>, local: LocalView, check: FileCheck = checkFile): { ok: true; plan: ApplyPlan } | { ok: false; refusal: Refusal } {
  const plan: ApplyPlan = { writes: [], overrides: [], unchanged: [], ignored: [] }
  for (const entry of manifest.files) {
    if (!isSupportedMic(entry.mic)) {
      plan.ignored.push(entry.mic)
      continue
    }
    const disk = local.disk(entry.mic)
    if (disk === entry.sha256) {
      plan.unchanged.push(entry.mic)
      continue
    }
    const accepted = local.state.accept.includes(entry.mic)
    const written = local.state.files[entry.mic]
    if (written && disk !== null && disk !== written && !accepted) {
      plan.overrides.push(entry.mic)
      continue
    }
    const body = bodies.get(entry.sha256)
    if (body === undefined) return { ok: false, refusal: { reason: 'hash_mismatch', detail: `no file with the SHA-256 the manifest names for ${entry.mic} (${entry.sha256})` } }
    const bytes = Buffer.from(body, 'utf8')
    if (sha256Hex(bytes) !== entry.sha256 || bytes.length !== entry.size) return { ok: false, refusal: { reason: 'hash_mismatch', detail: `${entry.mic}.json is not the file the manifest names (SHA-256 ${entry.sha256}, ${entry.size} bytes)` } }
    const invalid = check(entry.mic, body, entry.data_version, entry.sha256)
    if (invalid) return { ok: false, refusal: invalid }
    // A file the operator handed back (or deleted) takes upstream's whatever its version.
    const current = local.inForce(entry.mic)
    if (!accepted && disk !== null && current !== null && compareDataVersions(entry.data_version, current) < 0) {
      return { ok: false, refusal: { reason: 'rollback', detail: `${entry.mic}: upstream's data_version ${entry.data_version} is lower than ${current} in force` } }
    }
    plan.writes.push({ mic: entry.mic, sha256: entry.sha256, body })
  }
  return { ok: true, plan }
}

export const JOURNAL_FILE = '.openbell-upstream.pending'
const tempName = (mic: string) => `.${mic}.json.upstream`

interface Journal {
  mics: string[]
  state: LocalState
}

/**
 * Writes the plan's files and then `state` through the journal (see the top of this file).
 * `afterRename` is called after each rename (tests stop there to play a crash).
 */
export function writeFiles(dir: string, writes: readonly FileWrite[], state: LocalState, hooks: { afterRename?: (index: number) => void } = {}): void {
  for (const write of writes) writeAtomic(join(dir, tempName(write.mic)), Buffer.from(write.body, 'utf8'))
  writeAtomic(join(dir, JOURNAL_FILE), JSON.stringify({ mics: writes.map((write) => write.mic), state } satisfies Journal))
  finish(dir, { mics: writes.map((write) => write.mic), state }, hooks)
}

function finish(dir: string, journal: Journal, hooks: { afterRename?: (index: number) => void } = {}): void {
  journal.mics.forEach((mic, index) => {
    const temp = join(dir, tempName(mic))
    if (existsSync(temp)) renameSync(temp, join(dir, `${mic}.json`))
    hooks.afterRename?.(index)
  })
  syncDirectory(dir)
  writeLocalState(dir, journal.state)
  // Processes sharing one directory (REUSE_PORT) apply the same bytes; one may have removed it already.
  rmSync(join(dir, JOURNAL_FILE), { force: true })
  syncDirectory(dir)
}

/**
 * At start, before the first load: finishes an apply a crash interrupted after its journal was
 * written, and removes the new files of one interrupted before (nothing of it was in place yet).
 * True when an apply was finished.
 */
export function recoverPendingApply(dir: string, log: Logger): boolean {
  let finished = false
  const journalPath = join(dir, JOURNAL_FILE)
  if (existsSync(journalPath)) {
    let journal: Journal | null = null
    try {
      journal = JSON.parse(readFileSync(journalPath, 'utf8')) as Journal
    } catch (error) {
      log.error('the journal of an interrupted calendar update cannot be read; removing it (the files already renamed stay)', { file: journalPath, error: (error as Error).message })
      unlinkSync(journalPath)
    }
    if (journal) {
      finish(dir, journal)
      log.warn('an interrupted calendar update was finished before loading', { serial: journal.state.serial, files: journal.mics })
      finished = true
    }
  }
  let names: string[] = []
  try {
    names = readdirSync(dir)
  } catch {
    return finished
  }
  for (const name of names) if (/^\.[A-Z0-9]{4}\.json\.upstream$/.test(name)) unlinkSync(join(dir, name))
  return finished
}

/** The state after applying `plan` of `manifest`: every file now equal to upstream's recorded, overrides kept as they were. */
export function stateAfter(before: LocalState, manifest: Manifest, publisher: string, plan: ApplyPlan, now: number): LocalState {
  const files = { ...(before.publisher === publisher ? before.files : {}) }
  for (const mic of [...plan.unchanged, ...plan.writes.map((write) => write.mic)]) files[mic] = manifest.files.find((file) => file.mic === mic)!.sha256
  // The overrides keep the hash last written from upstream, so they stay overrides.
  const handedBack = new Set(plan.writes.map((write) => write.mic).concat(plan.unchanged))
  return { publisher, serial: manifest.serial, applied_at: new Date(now).toISOString(), files, accept: before.accept.filter((mic) => !handedBack.has(mic)), refused: null }
}

export { readLocalState }
