// WAL checkpoints on a worker thread. SQLite's automatic checkpoint runs inside the commit that
// crosses 1,000 WAL pages: on the event loop, it copies those pages into the database file and
// waits for two fsyncs while every request waits with it. With the audit log's group commit
// that was about half the cost of logging a live receipt (13.9 → 5.5 µs per row, batches of 32,
// measured in one run on the 2-core bench machine). Here a second connection on a worker thread
// runs a PASSIVE checkpoint every 100 ms (it never blocks the writer, which keeps appending to
// the WAL meanwhile); the event loop keeps an automatic checkpoint only at 8,000 pages. Under
// sustained writes the worker rarely catches up with the very last frame, which the log needs
// before it can start again from its beginning, so the WAL file grows to that bound (32 MiB
// with 4 KiB pages, against 4 MiB before); there the writer's own checkpoint finds most pages
// already copied and restarts the log. Durability is unchanged: commits are in the WAL exactly
// as before (synchronous = NORMAL), and a checkpoint never drops a committed page.
import type { Database } from 'bun:sqlite'
import type { Logger } from '../log'

export const WORKER_CHECKPOINT_MS = 100
export const LOOP_CHECKPOINT_PAGES = 8000

// Inline source (a blob URL): it works unchanged in the single binary of `bun build --compile`,
// which embeds no separate worker file.
const WORKER_SOURCE = `
import { Database } from 'bun:sqlite'
let db = null
let timer = null
const checkpoint = () => {
  try {
    db.run('PRAGMA wal_checkpoint(PASSIVE)')
  } catch (error) {
    // SQLITE_BUSY: another checkpoint (another process on the same file) is running; next time.
    if (!/busy|locked/i.test(String(error && error.message))) postMessage({ error: String(error && error.message) })
  }
}
self.onmessage = ({ data }) => {
  if (data.stop) {
    if (timer) clearInterval(timer)
    if (db) db.close()
    db = null
    postMessage({ stopped: true })
    return
  }
  try {
    db = new Database(data.path)
    db.run('PRAGMA busy_timeout = 1000')
    timer = setInterval(checkpoint, data.intervalMs)
    postMessage({ started: true })
  } catch (error) {
    postMessage({ error: String(error && error.message) })
  }
}
`

/**
 * Moves WAL checkpoints of the database at `path` (opened as `db` on this thread) to a worker.
 * The returned stop ends the worker; call it before closing `db`. A database in memory has no
 * WAL: nothing is started.
 */
export function startCheckpoints(db: Database, path: string, log: Logger, intervalMs = WORKER_CHECKPOINT_MS): () => Promise<void> {
  if (path === ':memory:') return async () => {}
  const url = URL.createObjectURL(new Blob([WORKER_SOURCE], { type: 'application/javascript' }))
  const worker = new Worker(url)
  worker.unref()
  let reported = false
  let stopped: (() => void) | null = null
  worker.onmessage = ({ data }: MessageEvent<{ error?: string; stopped?: boolean; started?: boolean }>) => {
    if (data.started) db.run(`PRAGMA wal_autocheckpoint = ${LOOP_CHECKPOINT_PAGES}`)
    if (data.error && !reported) {
      // The event loop's automatic checkpoint (at LOOP_CHECKPOINT_PAGES) still bounds the WAL.
      reported = true
      log.warn('WAL checkpoint on the worker thread failed; the event loop checkpoints instead', { error: data.error })
      db.run('PRAGMA wal_autocheckpoint = 1000')
    }
    if (data.stopped) stopped?.()
  }
  worker.postMessage({ path, intervalMs })
  return async () => {
    const done = new Promise<void>((resolve) => {
      stopped = resolve
      setTimeout(resolve, 2000).unref()
    })
    worker.postMessage({ stop: true })
    await done
    worker.terminate()
    URL.revokeObjectURL(url)
  }
}
