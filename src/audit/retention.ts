// Pruning old receipt bodies (RECEIPT_RETENTION_DAYS): full signed receipts older than the
// window lose their JSON in audit_log (the transparency log keeps each one's exact bytes in its
// entry bundles, and a day is pruned only once the log has integrated all of it); the indexed fields, the ids, the leaf index and the sealed digests
// stay, so proofs and digests keep working. Only sealed days are pruned, day by day in short
// transactions with the event loop free in between (a day of a million rows in one statement
// held the database and the event loop for seconds); the last pruned day is remembered.
import type { Clock } from '../clock'
import type { Logger } from '../log'
import type { AuditStore } from './store'
import { addDays, utcDay } from './dates'

export const RETENTION_CHECK_MS = 3_600_000
/** Rows whose bodies are dropped per transaction. */
export const PRUNE_CHUNK = 2_000
export const PRUNED_THROUGH = 'bodies_pruned_through'

export class RetentionJob {
  private timer: ReturnType<typeof setInterval> | null = null
  private running: Promise<number> | null = null

  constructor(
    private readonly deps: {
      store: AuditStore
      clock: Clock
      log: Logger
      retentionDays: number
      /** The last audit_log position the transparency log has stored in its tiles: bodies past it are kept. */
      integratedThrough?: () => Promise<number>
    },
  ) {}

  /** Prunes every sealed day older than the window not pruned yet; returns the rows changed. */
  tick(): Promise<number> {
    this.running ??= this.prune().finally(() => {
      this.running = null
    })
    return this.running
  }

  private async prune(): Promise<number> {
    const { store, clock, log, retentionDays } = this.deps
    const cutoff = addDays(utcDay(clock.now()), -retentionDays)
    const through = (await store.state(PRUNED_THROUGH)) ?? '0000-00-00'
    let total = 0
    for (const day of await store.sealedDatesBetween(through, cutoff)) {
      // A body is the transparency log's leaf: not pruned before the log has it in its tiles.
      const last = await store.lastSeqOfDay(day)
      if (this.deps.integratedThrough && last !== null && last > (await this.deps.integratedThrough())) {
        log.warn('audit receipt bodies kept: the transparency log has not integrated them yet', { day, last_position: last })
        break
      }
      let pruned = 0
      for (let after = 0; ; ) {
        const chunk = await store.pruneChunk(day, after, PRUNE_CHUNK)
        if (chunk.lastSeq === null) break
        pruned += chunk.pruned
        after = chunk.lastSeq
        await new Promise((resolve) => setImmediate(resolve))
      }
      await store.setState(PRUNED_THROUGH, day)
      if (pruned) log.info('audit receipt bodies pruned', { day, before: cutoff, rows: pruned, retention_days: retentionDays })
      total += pruned
    }
    return total
  }

  start(): () => void {
    const run = () => void this.tick().catch((error: Error) => this.deps.log.error('audit pruning failed; will retry', { error: error.message }))
    run()
    this.timer = setInterval(run, RETENTION_CHECK_MS)
    return () => {
      if (this.timer) clearInterval(this.timer)
      this.timer = null
    }
  }
}
