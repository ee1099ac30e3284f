// What this node last applied from its upstream, kept in the schedules directory itself
// (`.openbell-upstream.state`, beside the files it describes, so a directory replaced by a new
// release starts afresh instead of reporting every file as edited): the publisher and serial, the
// SHA-256 of each file as written from upstream, and the MICs the operator handed back to
// upstream (`openbell calendars follow --accept-upstream MIC`). A file whose bytes differ from the
// hash written here was edited locally after the last update: a local override, never overwritten.
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { sha256Hex } from './manifest'

export const STATE_FILE = '.openbell-upstream.state'

export interface LocalState {
  /** The publisher's vkey (serials are counted per publisher). */
  publisher: string | null
  serial: number
  applied_at: string | null
  /** SHA-256 of each file as last written from (or found equal to) upstream. */
  files: Record<string, string>
  /** MICs to take from upstream at the next update whatever their local edit or version. */
  accept: string[]
  /** The last serial this node refused, and why (not tried again until the serial or the accept list changes). */
  refused: { serial: number; reason: string; detail: string; at: string } | null
}

export const emptyState = (): LocalState => ({ publisher: null, serial: 0, applied_at: null, files: {}, accept: [], refused: null })

/** The state in `dir`; an empty one when there is none or it cannot be read as one. */
export function readLocalState(dir: string): LocalState {
  const path = join(dir, STATE_FILE)
  if (!existsSync(path)) return emptyState()
  try {
    const value = JSON.parse(readFileSync(path, 'utf8')) as Partial<LocalState>
    return {
      publisher: typeof value.publisher === 'string' ? value.publisher : null,
      serial: Number.isSafeInteger(value.serial) ? value.serial! : 0,
      applied_at: typeof value.applied_at === 'string' ? value.applied_at : null,
      files: value.files && typeof value.files === 'object' ? Object.fromEntries(Object.entries(value.files).filter(([, hash]) => typeof hash === 'string')) : {},
      accept: Array.isArray(value.accept) ? value.accept.filter((mic): mic is string => typeof mic === 'string') : [],
      refused: value.refused && typeof value.refused === 'object' ? value.refused : null,
    }
  } catch {
    return emptyState()
  }
}

/** Writes a file so that a reader (or a restart after a crash) sees the old bytes or the new, never a part: a temp file, fsync, rename, fsync of the directory. */
export function writeAtomic(path: string, data: string | Uint8Array): void {
  const temp = join(dirname(path), `.${path.split('/').pop()}.${process.pid}.tmp`)
  const fd = openSync(temp, 'w', 0o644)
  try {
    writeSync(fd, typeof data === 'string' ? Buffer.from(data, 'utf8') : data)
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
  renameSync(temp, path)
  syncDirectory(dirname(path))
}

export function syncDirectory(dir: string): void {
  try {
    const fd = openSync(dir, 'r')
    try {
      fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
  } catch {
    // Not every file system lets a directory be opened for fsync; the rename is still atomic.
  }
}

export function writeLocalState(dir: string, state: LocalState): void {
  writeAtomic(join(dir, STATE_FILE), `${JSON.stringify(state, null, 2)}\n`)
}

/** SHA-256 of `<dir>/<MIC>.json` as it is on disk, or null when there is none. */
export function diskHash(dir: string, mic: string): string | null {
  try {
    return sha256Hex(readFileSync(join(dir, `${mic}.json`)))
  } catch {
    return null
  }
}

/** MICs whose file was edited after the last update (its bytes differ from what was written from upstream), unless handed back. */
export function localOverrides(dir: string, state: LocalState): string[] {
  return Object.entries(state.files)
    .filter(([mic, hash]) => {
      if (state.accept.includes(mic)) return false
      const disk = diskHash(dir, mic)
      return disk !== null && disk !== hash
    })
    .map(([mic]) => mic)
    .sort()
}
