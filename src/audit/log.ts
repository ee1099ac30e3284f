// The durable receipt log with group commit: a live receipt is answered only after its row is
// committed. Appends wait on one shared transaction, run at the end of the event-loop turn that
// appended them (every request the loop took up in that turn shares it) or as soon as a batch is
// full, so durability costs each request a little latency, not the server throughput. A fixed
// wait (the 2 ms this log had before) left the server idle while 64 connections all waited on
// the timer: GET /v5/status served about 5 % fewer requests than with the end-of-turn commit,
// and with a 4 ms wait 40 % fewer (docs/performance.md).
// One write is in flight at a time: on PostgreSQL a batch takes a round trip and a WAL flush, and
// the rows appended meanwhile form the next batch, sent as soon as the first is committed and
// before the first one's appends are answered (answering them first delayed every batch by the
// responses' work: PostgreSQL ÷ SQLite on the scale-out bench 0.79 -> 0.88, docs/performance.md).
// On SQLite the write is done before the store call returns, so nothing waits behind it.
// Nothing is dropped: when the write fails every waiter gets AUDIT_LOG_UNAVAILABLE (503).
import type { Logger } from '../log'
import { ApiError } from '../http/errors'
import { SealedDayError, type AuditRow, type AuditStore } from './store'
import { isStorageFull } from '../store/errors'

export const auditUnavailable = (message = 'the audit log cannot be written; no receipt is answered that is not logged. Retry shortly', extra: Record<string, unknown> = {}) =>
  new ApiError(503, 'AUDIT_LOG_UNAVAILABLE', message, extra)

/** A full disk keeps the code (no receipt is answered unlogged) and says so in `cause`. */
const auditStorageFull = () => auditUnavailable('the audit log cannot be written: the storage is full; no receipt is answered that is not logged. Retry later', { cause: 'STORAGE_FULL' })

const FAILURE_LOG_INTERVAL_MS = 60_000

interface Waiter {
  rows: readonly AuditRow[]
  resolve: () => void
  reject: (error: Error) => void
}

export interface AuditLogOptions {
  /** Wait before a partial batch is committed; unset: at the end of the current event-loop turn. */
  flushMs?: number
  /** Rows that make a batch commit at once. */
  batchSize?: number
  /** How long after its last failed write the log reports itself failing (readiness); default OUTAGE_HOLD_MS. */
  outageHoldMs?: number
}

/**
 * A failed write makes the log report `failing` (GET /v5/ready answers 503) until a write
 * succeeds or this long has passed without another failure: a node taken out of rotation gets no
 * traffic to prove it has recovered, so after this hold it offers itself again and the next
 * writes decide (a circuit breaker's half-open state). A database that cannot be reached at all
 * is seen by the storage probe instead, every second.
 */
export const OUTAGE_HOLD_MS = 10_000

export type AuditLogHealth = 'ok' | 'failing' | 'stopped'

export class AuditLog {
  private waiters: Waiter[] = []
  private pendingRows = 0
  private timer: ReturnType<typeof setTimeout> | null = null
  private endOfTurn: ReturnType<typeof setImmediate> | null = null
  private writing: Promise<void> | null = null
  private closed = false
  /** Last sealed UTC day: a row dated on or before it would be missing from a signed root, so it is refused. */
  sealedThrough: string | null = null
  committed = 0
  failures = 0
  /** While writes fail: when the outage began, failures since then, when it was last logged, the last failure. */
  private outage: { since: number; failures: number; loggedAt: number; lastAt: number } | null = null

  constructor(
    readonly store: AuditStore,
    private readonly log: Logger,
    private readonly options: AuditLogOptions = {},
  ) {}

  /** Whether the log takes rows now: `stopped` once shut down, `failing` within the hold after a failed write. */
  health(now = Date.now()): AuditLogHealth {
    if (this.closed) return 'stopped'
    if (this.outage && now - this.outage.lastAt < (this.options.outageHoldMs ?? OUTAGE_HOLD_MS)) return 'failing'
    return 'ok'
  }

  /** Rows appended and not yet committed. */
  get pending(): number {
    return this.pendingRows
  }

  /** Resolves once the rows are committed; rejects with a 503 ApiError when they cannot be. */
  append(rows: readonly AuditRow[]): Promise<void> {
    if (this.closed) return Promise.reject(auditUnavailable('the service is shutting down'))
    if (!rows.length) return Promise.resolve()
    return new Promise<void>((resolve, reject) => {
      this.waiters.push({ rows, resolve, reject })
      this.pendingRows += rows.length
      // A write in flight takes these rows up when it is done.
      if (this.writing) return
      if (this.pendingRows >= (this.options.batchSize ?? 256)) void this.commit()
      else if (this.options.flushMs !== undefined) this.timer ??= setTimeout(() => void this.commit(), this.options.flushMs)
      else this.endOfTurn ??= setImmediate(() => void this.commit())
    })
  }

  /**
   * Commits everything appended so far, now; resolves once it is committed (or refused). On
   * SQLite the rows are on disk when this returns; behind a write in flight they follow it.
   */
  commit(): Promise<void> {
    if (this.timer) clearTimeout(this.timer)
    if (this.endOfTurn) clearImmediate(this.endOfTurn)
    this.timer = null
    this.endOfTurn = null
    if (this.writing) return this.writing.then(() => this.commit())
    const waiters = this.waiters
    if (!waiters.length) return Promise.resolve()
    this.waiters = []
    this.pendingRows = 0
    const writing: Promise<void> = this.write(waiters).finally(() => this.handOff(writing))
    this.writing = writing
    return writing
  }

  /** The write is done: rows that came during it have waited already, so the next batch goes at once. */
  private handOff(done: Promise<void>): void {
    if (this.writing !== done) return
    this.writing = null
    if (this.waiters.length) void this.commit()
  }

  /** Refuses the waiters whose rows fall on a sealed day, commits the others' rows in one transaction. */
  private async write(waiters: Waiter[], retry = true): Promise<void> {
    const accepted: Waiter[] = []
    for (const waiter of waiters) {
      const late = this.sealedThrough !== null && waiter.rows.some((row) => row.day <= this.sealedThrough!)
      if (late) {
        this.log.error('audit row dated on a sealed day refused', { day: waiter.rows[0]!.day, sealed_through: this.sealedThrough })
        waiter.reject(auditUnavailable('the receipt is dated on a day whose digest is already sealed; retry'))
      } else accepted.push(waiter)
    }
    const rows = accepted.flatMap((waiter) => waiter.rows)
    try {
      if (rows.length) await this.store.insertBatch(rows)
    } catch (error) {
      // Another node (or process) sealed a day this one had not seen sealed: learn it and write the rest.
      if (error instanceof SealedDayError && retry) {
        this.sealedThrough = error.sealedThrough
        return this.write(accepted, false)
      }
      this.failures++
      this.noteFailure(rows.length, (error as Error).message)
      const refusal = isStorageFull(error) ? auditStorageFull : auditUnavailable
      for (const waiter of accepted) waiter.reject(refusal())
      return
    }
    if (this.outage) {
      this.log.info('audit log writes recovered', { failed_writes: this.outage.failures, outage_ms: Date.now() - this.outage.since })
      this.outage = null
    }
    this.committed += rows.length
    // The next batch is sent before these waiters are answered: answering them (their responses)
    // would otherwise run first and delay it (PostgreSQL; on SQLite nothing waits behind a write).
    if (this.writing) this.handOff(this.writing)
    for (const waiter of accepted) waiter.resolve()
  }

  /** One error line when writes start failing, then one summary a minute while they still fail (not one per batch). */
  private noteFailure(rows: number, message: string): void {
    const now = Date.now()
    if (!this.outage) {
      this.outage = { since: now, failures: 1, loggedAt: now, lastAt: now }
      this.log.error('audit log write failed; live receipts answer 503 until it recovers', { rows, error: message })
      return
    }
    this.outage.failures++
    this.outage.lastAt = now
    if (now - this.outage.loggedAt >= FAILURE_LOG_INTERVAL_MS) {
      this.outage.loggedAt = now
      this.log.error('audit log writes still failing', { failed_writes: this.outage.failures, outage_ms: now - this.outage.since, error: message })
    }
  }

  /** Resolves once everything appended before the call is committed (or refused). */
  async flush(): Promise<void> {
    while (this.writing || this.waiters.length) await this.commit()
  }

  /** Nothing runs in the background; the returned stop commits what is pending and refuses new rows. */
  start(): () => Promise<void> {
    this.closed = false
    return async () => {
      this.closed = true
      await this.flush()
    }
  }
}
