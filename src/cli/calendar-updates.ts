// `openbell calendars publish --out DIR`: the manifest and files of GET /v5/calendars/… written to a
// directory for static hosting (DIR/v5/calendars/manifest, DIR/v5/calendars/files/<MIC>.json), with
// the serial from this installation's database (the same one the service serves) and never lower
// than the one already in DIR. `openbell calendars follow --accept-upstream MIC…`: hand locally
// edited files back to the upstream (the next update overwrites them). `openbell calendars status`:
// the upstream, last check, last applied serial, local overrides, last refusal.
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { Config } from '../config'
import type { Logger } from '../log'
import { DEFAULT_KEY_FILE, loadSigner } from '../crypto/key-file'
import { parseNote } from '../transparency/note'
import { readScheduleDir } from '../calendar/files'
import { isSupportedMic } from '../calendar/mics'
import { fileSetHash, parseManifest, sha256Hex, type ManifestFile } from '../calendar/updates/manifest'
import { calendarPublisherKey, publisherKeyName, signManifest } from '../calendar/updates/publisher'
import { localOverrides, readLocalState, writeAtomic, writeLocalState } from '../calendar/updates/local-state'
import type { CliStores, OpenedCliStores } from './database'

export interface CalendarUpdatesCommandParts {
  config: Config
  log: Logger
  out: (line: string) => void
  err: (line: string) => void
  openStores: (init: boolean) => Promise<OpenedCliStores>
  now?: () => number
}

export const CALENDAR_UPDATES_USAGE = 'usage: openbell calendars publish --out DIR | follow --accept-upstream MIC [MIC…] | status'

export async function runCalendarUpdatesCommand(args: string[], parts: CalendarUpdatesCommandParts): Promise<number> {
  const [sub, ...rest] = args
  if (sub === 'publish') return publish(rest, parts)
  if (sub === 'follow') return follow(rest, parts)
  if (sub === 'status') return status(parts)
  parts.err(CALENDAR_UPDATES_USAGE)
  return 2
}

async function withStores(parts: CalendarUpdatesCommandParts, init: boolean, work: (stores: CliStores) => Promise<number>): Promise<number> {
  const opened = await parts.openStores(init)
  if (!opened.ok) return opened.code
  try {
    return await work(opened.stores)
  } finally {
    await opened.stores.close()
  }
}

/** The serial and file set of a manifest already in DIR (null: none there, or unreadable). */
function existingManifest(path: string): { serial: number; setHash: string } | null {
  if (!existsSync(path)) return null
  const note = parseNote(readFileSync(path, 'utf8'))
  const parsed = note ? parseManifest(note.text) : null
  return parsed?.ok ? { serial: parsed.manifest.serial, setHash: fileSetHash(parsed.manifest.files) } : null
}

async function publish(args: string[], parts: CalendarUpdatesCommandParts): Promise<number> {
  const { config, out, err } = parts
  const init = args.includes('--init')
  const rest = args.filter((arg) => arg !== '--init')
  if (rest[0] !== '--out' || !rest[1] || rest.length !== 2) {
    err('usage: openbell calendars publish --out DIR')
    return 2
  }
  const target = resolve(rest[1])
  if (!config.signingKey && !config.signingKeyFile && !existsSync(join(config.dataDir, DEFAULT_KEY_FILE))) {
    err(`error: no signing key in ${config.dataDir} (the service makes one on its first start), and neither SIGNING_KEY nor SIGNING_KEY_FILE is set`)
    return 1
  }
  const signer = loadSigner(config, new Date(parts.now?.() ?? Date.now()), parts.log)
  const key = calendarPublisherKey(signer, publisherKeyName(config.publicBaseUrl))
  if (!key) {
    err(`error: the signing key cannot be read (${signer.offlineReason}); nothing was written`)
    return 1
  }
  const results = readScheduleDir(config.schedulesDir)
  const invalid = results.filter((entry) => !entry.result.ok || !isSupportedMic(entry.mic))
  for (const entry of invalid) err(`FAIL  ${entry.mic}  ${entry.path}: ${entry.result.ok ? 'not a supported MIC' : entry.result.problems.map((problem) => `${problem.path || '(file)'}: ${problem.reason}`).join('; ')}`)
  if (invalid.length) {
    err(`error: ${invalid.length} file(s) in ${config.schedulesDir} would not load; fix them (openbell calendars check) before publishing. Nothing was written.`)
    return 1
  }
  const bodies = new Map<string, Uint8Array>()
  const files: ManifestFile[] = results.map((entry) => {
    const bytes = readFileSync(entry.path)
    bodies.set(entry.mic, bytes)
    return { mic: entry.mic, data_version: (entry.result as { ok: true; file: { data_version: string } }).file.data_version, sha256: sha256Hex(bytes), size: bytes.length }
  })
  const manifestPath = join(target, 'v5', 'calendars', 'manifest')
  const existing = existingManifest(manifestPath)
  const atLeast = existing ? existing.serial + (existing.setHash === fileSetHash(files) ? 0 : 1) : 1
  return withStores(parts, init, async (stores) => {
    const manifest = await signManifest({ key, publications: stores.calendarPublications, transactor: stores.transactor, now: parts.now?.() ?? Date.now() }, files, atLeast)
    const filesDir = join(target, 'v5', 'calendars', 'files')
    mkdirSync(filesDir, { recursive: true })
    // The files first, the manifest last: a follower never reads a manifest naming files not there yet.
    for (const file of files) writeAtomic(join(filesDir, `${file.mic}.json`), bodies.get(file.mic)!)
    writeAtomic(manifestPath, manifest.note)
    out(`published serial ${manifest.serial}: ${files.length} files in ${target}`)
    out(`serve ${target} over https (or http on a private network); followers set`)
    out(`  CALENDAR_UPSTREAM_URL=<the URL ${target} is served at>`)
    out(`  CALENDAR_UPSTREAM_KEY=${key.vkey}`)
    return 0
  })
}

function follow(args: string[], parts: CalendarUpdatesCommandParts): number {
  const { config, out, err } = parts
  const mics = args.slice(1).map((mic) => mic.toUpperCase())
  if (args[0] !== '--accept-upstream' || !mics.length) {
    err('usage: openbell calendars follow --accept-upstream MIC [MIC…]')
    return 2
  }
  const unknown = mics.filter((mic) => !isSupportedMic(mic))
  if (unknown.length) {
    err(`error: not a supported MIC: ${unknown.join(', ')}`)
    return 2
  }
  const dir = config.schedulesDir
  const state = readLocalState(dir)
  const overrides = localOverrides(dir, state)
  writeLocalState(dir, { ...state, accept: [...new Set([...state.accept, ...mics])].sort(), refused: null })
  for (const mic of mics) {
    out(`${mic}: ${overrides.includes(mic) ? 'the local edit' : 'the file'} in ${dir} will be replaced by the upstream's at the next update (whatever its data_version)`)
  }
  if (!config.calendarUpstream) err('note: CALENDAR_UPSTREAM_URL is not set here; the service follows no source until it is')
  else out(`a running service applies it within ${Math.min(config.calendarUpstream.intervalMs / 1000, 5)} s`)
  return 0
}

async function status(parts: CalendarUpdatesCommandParts): Promise<number> {
  const { config, out } = parts
  return withStores(parts, false, async (stores) => {
    const published = await stores.calendarPublications.latest()
    out(`publishing: ${published ? `serial ${published.serial} issued ${published.issued_at}` : 'no manifest signed yet'} (GET /v5/calendars/manifest)`)
    if (!config.calendarUpstream) {
      out('following: none (CALENDAR_UPSTREAM_URL is not set)')
      return 0
    }
    const upstream = config.calendarUpstream
    const shared = await stores.calendarUpstream.status()
    const accepted = await stores.calendarUpstream.latest(upstream.key)
    const state = readLocalState(config.schedulesDir)
    const mine = state.publisher === upstream.key
    out(`following: ${upstream.url} every ${upstream.intervalMs / 1000} s`)
    out(`status: ${shared && shared.publisher === upstream.key ? shared.status : 'pending'}`)
    out(`last check: ${shared?.last_check ?? 'never'}; last success: ${shared?.last_success ?? 'never'}${shared?.last_error ? `; last error: ${shared.last_error}` : ''}`)
    out(`last accepted serial: ${accepted?.serial ?? 'none'}; applied in ${config.schedulesDir}: ${mine && state.serial ? `serial ${state.serial} at ${state.applied_at}` : 'none'}`)
    const overrides = mine ? localOverrides(config.schedulesDir, state) : []
    out(`local overrides: ${overrides.length ? overrides.join(', ') : 'none'}${state.accept.length ? `; handed back to upstream: ${state.accept.join(', ')}` : ''}`)
    const refusals = [shared?.last_refusal ? JSON.parse(shared.last_refusal) : null, mine ? state.refused : null].filter(Boolean) as { at: string; serial: number | null; reason: string; detail: string }[]
    const last = refusals.sort((a, b) => (a.at < b.at ? 1 : -1))[0]
    out(`last refusal: ${last ? `${last.at} serial ${last.serial ?? '?'} ${last.reason}: ${last.detail}` : 'none'}`)
    return 0
  })
}
