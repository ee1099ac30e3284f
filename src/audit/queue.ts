// The audit record of every live receipt, queued on the response path and written in batches
// off it (one transaction per batch is ~40x cheaper than one per receipt on SQLite).
import type { Logger } from '../log'
import type { AuditRow, AuditStore } from './store'

/** The fields of a signed receipt the log indexes; the whole receipt is kept as JSON beside them. */
export type AuditedReceipt = Omit<AuditRow, 'key_hash' | 'receipt_json'>

export class ReceiptAuditQueue {
  private pending: { receipt: AuditedReceipt; keyHash: string }[] = []
  private timer: ReturnType<typeof setInterval> | null = null
  private flushing: Promise<number> | null = null
  dropped = 0
  written = 0

  constructor(
    private readonly store: AuditStore,
    private readonly log: Logger,
    private readonly options: { flushMs?: number; batchSize?: number; maxPending?: number } = {},
  ) {}

  get size(): number {
    return this.pending.length
  }

  enqueue(receipt: AuditedReceipt, keyHash: string): void {
    if (this.pending.length >= (this.options.maxPending ?? 100_000)) {
      // The store is not keeping up; bound memory and say so rather than fall over.
      if (this.dropped++ % 1000 === 0) this.log.error('audit queue full: dropping receipt records', { dropped: this.dropped })
      return
    }
    this.pending.push({ receipt, keyHash })
    if (this.pending.length >= (this.options.batchSize ?? 500)) void this.flush()
  }

  /** Writes everything queued so far; concurrent calls share one write. */
  flush(): Promise<number> {
    if (this.flushing) return this.flushing
    if (!this.pending.length) return Promise.resolve(0)
    const batch = this.pending
    this.pending = []
    const rows: AuditRow[] = batch.map(({ receipt, keyHash }) => ({
      receipt_id: receipt.receipt_id,
      mic: receipt.mic,
      status: receipt.status,
      source: receipt.source,
      issued_at: receipt.issued_at,
      schema_version: receipt.schema_version,
      key_hash: keyHash,
      receipt_json: JSON.stringify(receipt),
    }))
    this.flushing = this.store
      .insertBatch(rows)
      .then(() => {
        this.written += rows.length
        return rows.length
      })
      .catch((error: Error) => {
        // Put the batch back in front so a passing lock does not lose records.
        this.pending = [...batch, ...this.pending]
        this.log.error('audit batch write failed; will retry', { rows: rows.length, error: error.message })
        return 0
      })
      .finally(() => {
        this.flushing = null
      })
    return this.flushing
  }

  start(): () => Promise<void> {
    this.timer = setInterval(() => void this.flush(), this.options.flushMs ?? 250)
    return async () => {
      if (this.timer) clearInterval(this.timer)
      this.timer = null
      await this.flushing
      await this.flush()
    }
  }
}
