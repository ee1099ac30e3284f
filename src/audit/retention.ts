// Pruning old receipt bodies (RECEIPT_RETENTION_DAYS): full signed receipts older than the
// window lose their JSON; the indexed fields, the ids, the leaf index and the sealed digests
// stay, so proofs and digests keep working. Only sealed days are pruned.
import type { Clock } from '../clock'
import type { Logger } from '../log'
import type { AuditStore } from './store'
import { addDays, utcDay } from './dates'

export const RETENTION_CHECK_MS = 3_600_000

export class RetentionJob {
  private timer: ReturnType<typeof setInterval> | null = null

  constructor(private readonly deps: { store: AuditStore; clock: Clock; log: Logger; retentionDays: number }) {}

  async tick(): Promise<number> {
    const { store, clock, log, retentionDays } = this.deps
    const last = await store.lastDigest()
    if (!last) return 0
    const cutoff = addDays(utcDay(clock.now()), -retentionDays)
    const pruned = await store.pruneBodies(cutoff, last.date)
    if (pruned) log.info('audit receipt bodies pruned', { before: cutoff, rows: pruned, retention_days: retentionDays })
    return pruned
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
