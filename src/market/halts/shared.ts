// Following the halt view of the node that polls the feed: every node (the poller's own adopt
// is a no-op) reads the published view when notified (PostgreSQL) and every second, and adopts
// it when it differs from the last one taken. A view that stops changing (its poller died) ages
// into `degraded` by the monitor's own rule until another node takes the lease and polls.
import type { Logger } from '../../log'
import type { HaltSnapshot, HaltStore } from './store'

export const FOLLOW_MS = 1000

export function followHalts(monitor: { adopt(snapshot: HaltSnapshot): void }, store: HaltStore, log: Logger, intervalMs = FOLLOW_MS): () => Promise<void> {
  // The row taken last; a different one is newer (compared as a whole, not by time: a new
  // poller's clock may be a little behind the last one's).
  let lastTaken = ''
  let reading: Promise<void> | null = null
  let failing = false
  const read = () =>
    (reading ??= (async () => {
      try {
        const row = await store.read()
        failing = false
        const key = row ? `${row.published_at}/${row.publisher}` : ''
        if (!row || key === lastTaken) return
        lastTaken = key
        monitor.adopt(JSON.parse(row.snapshot) as HaltSnapshot)
      } catch (error) {
        if (!failing) log.warn('cannot read the shared halt view; keeping the last one taken', { error: (error as Error).message })
        failing = true
      } finally {
        reading = null
      }
    })())
  const timer = setInterval(() => void read(), intervalMs)
  void read()
  const unwatch = store.watch?.(() => void read()).catch((error: Error) => {
    log.warn('halt notifications unavailable; reading the shared view every second', { error: error.message })
    return async () => {}
  })
  return async () => {
    clearInterval(timer)
    await (await unwatch)?.()
    await reading
  }
}
