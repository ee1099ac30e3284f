// Following an upstream source (CALENDAR_UPSTREAM_URL, CALENDAR_UPSTREAM_KEY). Two jobs:
// - poll (one node at a time, under the `calendar-upstream` lease): fetch <url>/v5/calendars/manifest
//   (conditional, bounded), verify the signed note against the configured key, refuse a serial
//   lower than the last accepted (replay) or reused for other content, get the files whose bytes
//   are not stored yet (downloading only those nobody here has), check each file's hash, and plan
//   the apply here (validation, rollback, local edits); only then store the manifest and its files
//   in the database in one unit of work. Errors back off with jitter; refusals are logged and kept
//   for /v5/health.
// - sync (every node, every min(interval, 5 s)): when the database holds a newer accepted manifest
//   than this node applied (or the operator handed a file back), plan it again against this node's
//   directory and apply it whole (apply.ts), then reload. So every node of a database serves the
//   same data_version within one poll interval plus five seconds, each keeping its own local edits.
import type { Clock } from '../../clock'
import type { Logger } from '../../log'
import type { Transactor } from '../../store/transaction'
import { checkNoteSignature, parseNote, type Vkey } from '../../transparency/note'
import type { CalendarRegistry } from '../registry'
import { isSupportedMic } from '../mics'
import { checkFile, planApply, stateAfter, writeFiles, type Refusal, type RefusalReason } from './apply'
import { upstreamGet, utf8Text } from './fetch'
import { diskHash, localOverrides, readLocalState, writeLocalState, type LocalState } from './local-state'
import { MAX_FILE_BYTES, MAX_MANIFEST_BYTES, parseManifest, sha256Hex, type Manifest } from './manifest'
import type { StoredFile, UpstreamStatus, UpstreamStore } from './store'

export interface UpstreamConfig {
  /** Base URL without a trailing slash: an instance, or a directory written by `openbell calendars publish`. */
  url: string
  /** The publisher's vkey as configured, and parsed. */
  vkey: string
  key: Vkey
  intervalMs: number
}

export interface FollowerParts {
  config: UpstreamConfig
  calendars: CalendarRegistry
  store: UpstreamStore
  transactor: Transactor
  clock: Clock
  log: Logger
  random?: () => number
}

export interface RefusalRecord extends Refusal {
  at: string
  serial: number | null
}

/** The `calendars.upstream` member of /v5/health. */
export interface UpstreamHealth {
  url: string
  status: UpstreamStatus['status']
  last_check: string | null
  last_success: string | null
  /** Seconds since the last check that reached the upstream and verified (how old this node's view of it is). */
  age_s: number | null
  last_error: string | null
  last_applied_serial: number | null
  last_applied_at: string | null
  local_overrides: string[]
  last_refusal: RefusalRecord | null
}

/** Manifests kept in the database per publisher (the newest; older ones and their files are pruned). */
const KEEP_MANIFESTS = 5
const SYNC_MAX_MS = 5000
const MAX_BACKOFF_MS = 3_600_000

export type PollOutcome = 'applied' | 'unchanged' | 'not_modified' | 'refused' | 'unreachable'

export class CalendarFollower {
  private pollTimer: ReturnType<typeof setTimeout> | null = null
  private syncTimer: ReturnType<typeof setInterval> | null = null
  private polling: Promise<unknown> | null = null
  private syncing: Promise<unknown> | null = null
  private pollRunning = false
  private failures = 0
  /** The shared status as last read (the lease holder writes it). */
  private shared: UpstreamStatus | null = null
  private overrides: string[] = []
  private localState: LocalState
  private readonly random: () => number
  /** Syncs run one after another (the poll's and the loop's), never two at once. */
  private syncChain: Promise<unknown> = Promise.resolve()
  /**
   * Files validated and compiled already, by MIC, version and hash (their outcome cannot change):
   * the sync after a poll, and every node after the first, does not compile them again.
   */
  private readonly checked = new Map<string, Refusal | null>()

  constructor(private readonly parts: FollowerParts) {
    this.random = parts.random ?? Math.random
    this.localState = readLocalState(parts.calendars.dir)
  }

  private get dir(): string {
    return this.parts.calendars.dir
  }

  private get publisher(): string {
    return this.parts.config.vkey
  }

  /** The poll loop (run under the `calendar-upstream` lease): at once, then every interval, sooner after errors (backoff with jitter). */
  startPolling(): () => Promise<void> {
    this.pollRunning = true
    const loop = async () => {
      this.pollTimer = null
      if (!this.pollRunning) return
      const outcome = await (this.polling = this.poll().catch((error: Error) => {
        // The database (not the source) failed: back off as after any error.
        this.failures++
        this.parts.log.error('calendar upstream check failed', { error: error.message })
        return 'unreachable' as const
      }))
      this.polling = null
      if (this.pollRunning) this.pollTimer = setTimeout(() => void loop(), this.nextPollDelay(outcome))
    }
    void loop()
    return async () => {
      this.pollRunning = false
      if (this.pollTimer) clearTimeout(this.pollTimer)
      this.pollTimer = null
      await this.polling
    }
  }

  /** The sync loop (every node). */
  startSync(): () => Promise<void> {
    let failing = false
    const run = () => {
      this.syncing ??= this.sync()
        .then(() => {
          if (failing) this.parts.log.info('calendar upstream sync works again')
          failing = false
        })
        .catch((error: Error) => {
          // Once per outage, not every few seconds while the database is away.
          if (!failing) this.parts.log.error('calendar upstream sync failed; the calendars in force are kept', { error: error.message })
          failing = true
        })
        .finally(() => {
          this.syncing = null
        })
    }
    run()
    this.syncTimer = setInterval(run, Math.min(this.parts.config.intervalMs, SYNC_MAX_MS))
    return async () => {
      if (this.syncTimer) clearInterval(this.syncTimer)
      this.syncTimer = null
      await this.syncing
    }
  }

  /** The interval (±10 %) after a check; after n failures in a row, min(interval, 30 s) × 2^(n-1) (±20 %), at most max(interval, 1 h). */
  nextPollDelay(outcome: PollOutcome): number {
    const interval = this.parts.config.intervalMs
    if (outcome !== 'unreachable') return Math.round(interval * (0.9 + 0.2 * this.random()))
    const base = Math.min(interval, 30_000)
    const delay = Math.min(base * 2 ** Math.min(this.failures - 1, 20), Math.max(interval, MAX_BACKOFF_MS))
    return Math.round(delay * (0.8 + 0.4 * this.random()))
  }

  health(): UpstreamHealth {
    const shared = this.shared
    const now = this.parts.clock.now()
    const sharedRefusal = parseRefusal(shared?.last_refusal ?? null)
    const localRefusal = this.localState.publisher === this.publisher && this.localState.refused ? { ...this.localState.refused, reason: this.localState.refused.reason as RefusalReason } : null
    const lastRefusal = [sharedRefusal, localRefusal].filter((refusal): refusal is RefusalRecord => refusal !== null).sort((a, b) => (a.at < b.at ? 1 : -1))[0] ?? null
    const applied = this.localState.publisher === this.publisher
    return {
      url: this.parts.config.url,
      status: localRefusal && (!shared || shared.status === 'ok') ? 'refused' : (shared?.status ?? 'pending'),
      last_check: shared?.last_check ?? null,
      last_success: shared?.last_success ?? null,
      age_s: shared?.last_success ? Math.max(0, Math.round((now - Date.parse(shared.last_success)) / 1000)) : null,
      last_error: shared?.last_error ?? null,
      last_applied_serial: applied && this.localState.serial ? this.localState.serial : null,
      last_applied_at: applied ? this.localState.applied_at : null,
      local_overrides: this.overrides,
      last_refusal: lastRefusal,
    }
  }

  /** One check of the upstream (the lease holder's job); stores an accepted manifest and applies it here. */
  async poll(): Promise<PollOutcome> {
    const { config, store, log, clock } = this.parts
    const now = clock.now()
    const at = new Date(now).toISOString()
    const previous = await store.status()
    const base: UpstreamStatus = previous && previous.publisher === this.publisher && previous.url === config.url ? previous : { url: config.url, publisher: this.publisher, status: 'pending', last_check: null, last_success: null, last_error: null, last_refusal: null, etag: null }
    const write = async (status: Partial<UpstreamStatus>) => {
      this.shared = { ...base, last_check: at, ...status }
      await store.writeStatus(this.shared)
    }
    const refuse = async (reason: RefusalReason, detail: string, serial: number | null = null): Promise<PollOutcome> => {
      this.failures = 0
      log.warn('calendar update refused; the calendars in force are kept', { url: config.url, reason, detail, serial })
      // No ETag kept: the next check reads the manifest again rather than taking a 304 for an accepted one.
      await write({ status: 'refused', last_error: null, etag: null, last_refusal: JSON.stringify({ at, serial, reason, detail } satisfies RefusalRecord) })
      return 'refused'
    }
    const unreachable = async (detail: string): Promise<PollOutcome> => {
      this.failures++
      log.warn('calendar upstream unreachable; the calendars in force are kept', { url: config.url, error: detail, failures: this.failures })
      await write({ status: 'unreachable', last_error: detail })
      return 'unreachable'
    }

    const answer = await upstreamGet(`${config.url}/v5/calendars/manifest`, { maxBytes: MAX_MANIFEST_BYTES, etag: base.etag })
    if (answer.kind === 'failed') return unreachable(answer.detail)
    if (answer.kind === 'too_large') return refuse('too_large', `manifest: ${answer.detail}`)
    if (answer.kind === 'not_modified') {
      this.failures = 0
      await write({ status: 'ok', last_success: at, last_error: null })
      return 'not_modified'
    }
    const text = utf8Text(answer.bytes)
    const note = text === null ? null : parseNote(text)
    if (!note || text === null) return refuse('malformed_manifest', 'the answer is not a signed note (c2sp.org/signed-note)')
    const signature = checkNoteSignature(note, config.key)
    if (signature === 'absent') return refuse('unknown_key', `no signature by ${config.key.name} (key id ${config.key.keyId.toString(16).padStart(8, '0')}); signed by ${note.signatures.map((line) => line.name).join(', ').slice(0, 200)}`)
    if (signature === 'invalid') return refuse('bad_signature', `the signature by ${config.key.name} does not verify`)
    const parsed = parseManifest(note.text)
    if (!parsed.ok) return refuse('malformed_manifest', parsed.reason)
    const manifest = parsed.manifest
    if (manifest.origin !== config.key.name) return refuse('malformed_manifest', `the manifest names ${manifest.origin.slice(0, 200)}, not the key's name ${config.key.name}`, manifest.serial)
    const latest = await store.latest(this.publisher)
    if (latest && manifest.serial < latest.serial) return refuse('replay', `serial ${manifest.serial} is lower than ${latest.serial}, the last accepted`, manifest.serial)
    if (latest && manifest.serial === latest.serial) {
      if (latest.note !== text) return refuse('serial_reused', `serial ${manifest.serial} was accepted with other content`, manifest.serial)
      this.failures = 0
      await write({ status: 'ok', last_success: at, last_error: null, etag: answer.etag })
      return 'unchanged'
    }

    // The bodies: stored already, in force here, or downloaded (only those nobody here has).
    const supported = manifest.files.filter((file) => isSupportedMic(file.mic))
    const stored = await store.stored(supported.map((file) => file.sha256))
    const fresh: StoredFile[] = []
    const snapshot = this.parts.calendars.snapshot()
    for (const file of supported) {
      if (stored.has(file.sha256) || fresh.some((known) => known.sha256 === file.sha256)) continue
      const entry = snapshot.entries.get(file.mic)
      let bytes: Uint8Array
      if (entry?.state === 'loaded' && entry.contentHash === file.sha256) bytes = entry.bytes
      else {
        const download = await upstreamGet(`${config.url}/v5/calendars/files/${file.mic}.json`, { maxBytes: MAX_FILE_BYTES })
        if (download.kind === 'failed' || download.kind === 'not_modified') return unreachable(`${file.mic}.json: ${download.kind === 'failed' ? download.detail : 'not modified'}`)
        if (download.kind === 'too_large') return refuse('too_large', `${file.mic}.json: ${download.detail}`, manifest.serial)
        bytes = download.bytes
        if (bytes.length !== file.size || sha256Hex(bytes) !== file.sha256) return refuse('hash_mismatch', `${file.mic}.json: got ${bytes.length} bytes with SHA-256 ${sha256Hex(bytes)}; the manifest names ${file.size} bytes with ${file.sha256}`, manifest.serial)
      }
      const body = utf8Text(bytes)
      if (body === null) return refuse('invalid_file', `${file.mic}.json is not UTF-8 text`, manifest.serial)
      fresh.push({ sha256: file.sha256, mic: file.mic, body })
    }

    const planned = await this.plan(manifest, new Map(fresh.map((file) => [file.sha256, file.body])))
    if (!planned.ok) return refuse(planned.refusal.reason, planned.refusal.detail, manifest.serial)
    await this.parts.transactor.run(() => store.accept({ publisher: this.publisher, serial: manifest.serial, note: text, url: config.url, accepted_at: at }, fresh), { name: 'calendar-upstream-accept' })
    await store.prune(this.publisher, KEEP_MANIFESTS)
    this.failures = 0
    await write({ status: 'ok', last_success: at, last_error: null, etag: answer.etag })
    log.info('calendar manifest accepted', { url: config.url, serial: manifest.serial, files: manifest.files.length, downloaded: fresh.map((file) => file.mic) })
    await this.sync()
    return 'applied'
  }

  /** The plan for this node's directory; `extra` holds bodies not in the database yet. */
  private async plan(manifest: Manifest, extra: ReadonlyMap<string, string> = new Map()) {
    const state = this.stateForPublisher(readLocalState(this.dir))
    const wanted = manifest.files.filter((file) => isSupportedMic(file.mic) && diskHash(this.dir, file.mic) !== file.sha256 && !extra.has(file.sha256))
    const stored = await this.parts.store.files(wanted.map((file) => file.sha256))
    const bodies = new Map([...extra, ...[...stored.values()].map((file) => [file.sha256, file.body] as const)])
    // Validating and compiling every venue of a large update takes seconds: one file per turn of
    // the event loop, so that requests are answered in between.
    for (const file of manifest.files) {
      const body = bodies.get(file.sha256)
      const key = `${file.mic} ${file.data_version} ${file.sha256}`
      if (body === undefined || this.checked.has(key) || !isSupportedMic(file.mic) || sha256Hex(body) !== file.sha256) continue
      this.checked.set(key, checkFile(file.mic, body, file.data_version))
      await new Promise((resolve) => setImmediate(resolve))
    }
    while (this.checked.size > 2000) this.checked.delete(this.checked.keys().next().value!)
    const snapshot = this.parts.calendars.snapshot()
    const check = (mic: string, body: string, version: string, sha: string) => {
      const key = `${mic} ${version} ${sha}`
      return this.checked.has(key) ? this.checked.get(key)! : checkFile(mic, body, version)
    }
    return planApply(manifest, bodies, {
      state,
      disk: (mic) => diskHash(this.dir, mic),
      inForce: (mic) => {
        const entry = snapshot.entries.get(mic)
        return entry?.state === 'loaded' ? entry.calendar.dataVersion : null
      },
    }, check)
  }

  /** The local state as it counts for the configured publisher (another publisher's serial and hashes do not). */
  private stateForPublisher(state: LocalState): LocalState {
    return state.publisher === this.publisher ? state : { ...state, publisher: this.publisher, serial: 0, files: {}, refused: null }
  }

  /** Applies the newest accepted manifest here when this node is behind it (or a file was handed back or deleted). */
  sync(): Promise<'current' | 'applied' | 'refused' | 'none'> {
    const run = this.syncChain.then(() => this.syncNow())
    this.syncChain = run.catch(() => {})
    return run
  }

  private async syncNow(): Promise<'current' | 'applied' | 'refused' | 'none'> {
    const { store, log, clock } = this.parts
    this.shared = await store.status()
    const latest = await store.latest(this.publisher)
    const state = this.stateForPublisher(readLocalState(this.dir))
    this.localState = state
    this.overrides = localOverrides(this.dir, state)
    if (!latest) return 'none'
    const note = parseNote(latest.note)
    const parsed = note && checkNoteSignature(note, this.parts.config.key) === 'valid' ? parseManifest(note.text) : null
    if (!parsed?.ok) {
      log.error('the accepted calendar manifest in the database does not verify; not applied', { serial: latest.serial })
      return 'refused'
    }
    const manifest = parsed.manifest
    const missing = manifest.files.some((file) => isSupportedMic(file.mic) && diskHash(this.dir, file.mic) === null)
    const behind = manifest.serial > state.serial
    if (!behind && !state.accept.length && !missing) return 'current'
    if (state.refused?.serial === manifest.serial && !state.accept.length && !missing) return 'refused'
    const planned = await this.plan(manifest)
    const now = clock.now()
    if (!planned.ok) {
      const refused = { serial: manifest.serial, ...planned.refusal, at: new Date(now).toISOString() }
      log.warn('calendar update refused on this node; the calendars in force are kept', { serial: manifest.serial, reason: refused.reason, detail: refused.detail })
      this.localState = { ...readLocalState(this.dir), refused }
      writeLocalState(this.dir, this.localState)
      return 'refused'
    }
    const { plan } = planned
    // Read again just before writing (synchronously from here on): a hand-back written meanwhile by the CLI is kept.
    const next = stateAfter(this.stateForPublisher(readLocalState(this.dir)), manifest, this.publisher, plan, now)
    writeFiles(this.dir, plan.writes, next)
    this.localState = next
    const report = this.parts.calendars.reload('upstream')
    for (const write of plan.writes) {
      const result = report.results.find((entry) => entry.mic === write.mic)
      if (result?.outcome === 'rejected') log.error('a calendar file written from upstream was refused by the reload', { mic: write.mic, problems: result.problems })
    }
    this.overrides = localOverrides(this.dir, next)
    log.info('calendar update applied', { serial: manifest.serial, written: plan.writes.map((write) => write.mic), local_overrides: plan.overrides, ignored: plan.ignored })
    return 'applied'
  }
}

function parseRefusal(text: string | null): RefusalRecord | null {
  if (!text) return null
  try {
    return JSON.parse(text) as RefusalRecord
  } catch {
    return null
  }
}
