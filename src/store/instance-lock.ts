// One service instance per data directory. The counts a lone process keeps in memory (the free
// daily quota, the tool endpoint's anonymous allowance) are exact only while no other process
// serves from the same database, so a second `openbell` on the same DATA_DIR is refused at start,
// whatever port it asks for. The lock is an operating-system lock on `DATA_DIR/openbell.lock`,
// taken through SQLite (a transaction held open on that small file): the kernel drops it when the
// process ends, even by kill -9, so a crashed instance never leaves a stale lock behind.
//
// - A lone process and a supervisor (WORKERS > 1) hold it exclusively.
// - Processes started with REUSE_PORT=true share it with one another (they count in the database,
//   as workers do), and are refused beside an exclusive holder, and the other way round.
// - Workers take no lock: their supervisor holds it for them (main.ts admits a worker only when
//   its parent process is the supervisor that named itself in the worker's environment).
import { Database } from 'bun:sqlite'
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { DATA_DIR_MODE, DATA_FILE_MODE } from './database'

export const LOCK_FILE = 'openbell.lock'
/** Who holds the lock, for the refusal's message (written after the lock is taken). */
export const HOLDER_FILE = 'openbell.pid'

export class InstanceLocked extends Error {
  override name = 'InstanceLocked'
}

export interface InstanceLock {
  release(): void
}

interface Holder {
  pid: number
  port: number
  workers: number
  started_at: string
}

function holderText(dir: string): string {
  try {
    const holder = JSON.parse(readFileSync(join(dir, HOLDER_FILE), 'utf8')) as Holder
    // The file outlives its writer (kill -9): name the process only while it runs.
    process.kill(holder.pid, 0)
    return ` by openbell pid ${holder.pid} (port ${holder.port}, ${holder.workers} worker${holder.workers === 1 ? '' : 's'}, started ${holder.started_at})`
  } catch {
    return ' by other openbell processes'
  }
}

/**
 * Takes the data directory's lock for this process, or throws InstanceLocked naming the holder.
 * `shared`: REUSE_PORT processes, which may run side by side. Keep the returned lock referenced
 * for the life of the process (it is released when the process ends, or by release()).
 */
export function lockDataDir(dir: string, mode: 'exclusive' | 'shared', holder: Omit<Holder, 'pid' | 'started_at'>): InstanceLock {
  mkdirSync(dir, { recursive: true, mode: DATA_DIR_MODE })
  const path = join(dir, LOCK_FILE)
  if (!existsSync(path)) closeSync(openSync(path, 'a', DATA_FILE_MODE))
  const db = new Database(path, { create: true })
  try {
    // No waiting: a lock held elsewhere is an answer, not something to wait for.
    db.run('PRAGMA busy_timeout = 0')
    if (mode === 'exclusive') db.run('BEGIN EXCLUSIVE')
    else {
      // A read transaction holds SQLite's SHARED lock on the file until it ends.
      db.run('BEGIN')
      db.query('SELECT count(*) FROM sqlite_schema').get()
    }
  } catch (error) {
    db.close()
    if (/busy|locked/i.test((error as Error).message)) {
      const wanted = mode === 'shared' ? 'REUSE_PORT=true processes share it only with one another' : 'one instance per DATA_DIR; set WORKERS to use more cores'
      throw new InstanceLocked(`DATA_DIR ${dir} is in use${holderText(dir)} (${wanted})`)
    }
    throw error
  }
  if (mode === 'exclusive') {
    try {
      writeFileSync(join(dir, HOLDER_FILE), `${JSON.stringify({ pid: process.pid, ...holder, started_at: new Date().toISOString() } satisfies Holder)}\n`, { mode: DATA_FILE_MODE })
    } catch {
      // Only the refusal's message reads it.
    }
  }
  locks.add(db)
  return {
    release() {
      if (!locks.delete(db)) return
      try {
        db.run('ROLLBACK')
      } finally {
        db.close()
      }
    },
  }
}

/** Held here so that a lock whose handle the caller drops is never closed by the garbage collector. */
const locks = new Set<Database>()
