// Sends queued deliveries: at most `concurrency` at once, each attempt signed afresh (its own
// webhook-timestamp, the delivery's webhook-id), retried on the backoff schedule, dead-lettered
// after the last attempt (which pauses the subscription). Sleeps until the next row is due. Rows
// are claimed for this node (`claimer`), so workers on several nodes never send one row at once.
import type { Clock } from '../../clock'
import type { Logger } from '../../log'
import type { DeliveryQueue, DeliveryRow } from './queue'
import type { WebhookStore } from './store'
import type { WebhookSender } from './send'
import { MAX_ATTEMPTS, retryDelayMs } from './backoff'
import { Coalescing } from './coalescing'

export interface WorkerDeps {
  clock: Clock
  log: Logger
  queue: DeliveryQueue
  webhooks: WebhookStore
  sender: WebhookSender
  /** This node's name on the rows it claims. */
  claimer: string
  intervalSeconds: () => number
  concurrency: number
}

export class DeliveryWorker {
  private inFlight = new Set<Promise<void>>()
  private timer: ReturnType<typeof setTimeout> | null = null
  private running = false
  /** Claim rounds one at a time (claiming is a database round trip); one asked for meanwhile runs after. */
  private readonly pumps = new Coalescing(() => this.claimAndSleep())
  attempts = 0

  constructor(private readonly deps: WorkerDeps) {}

  start(): void {
    this.running = true
    this.pump()
  }

  /** Stops taking new rows; resolves when the attempts in flight are finished. */
  async stop(): Promise<void> {
    this.running = false
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    await this.pumps.current
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    await Promise.all([...this.inFlight])
  }

  get busy(): number {
    return this.inFlight.size
  }

  /** Claims what is due (up to the free slots) and starts it; then sleeps until the next due row. */
  pump(): Promise<void> {
    return this.pumps.run()
  }

  private async claimAndSleep(): Promise<void> {
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    const free = this.deps.concurrency - this.inFlight.size
    if (free > 0) {
      let rows: DeliveryRow[] = []
      try {
        rows = await this.deps.queue.claim(this.deps.clock.now(), free, this.deps.claimer)
      } catch (error) {
        this.deps.log.error('webhook queue unreadable', { error: (error as Error).message })
      }
      for (const row of rows) this.launch(row)
    }
    if (!this.running) return
    if (this.inFlight.size >= this.deps.concurrency) return // a finishing attempt pumps again
    let next: number | null = null
    try {
      next = await this.deps.queue.nextDueAt()
    } catch {
      next = null
    }
    const ceiling = this.deps.intervalSeconds() * 1000
    const delay = next === null ? ceiling : Math.min(ceiling, Math.max(10, next - this.deps.clock.now()))
    if (this.timer) clearTimeout(this.timer)
    this.timer = setTimeout(() => void this.pump(), delay)
  }

  /** Sends everything due now and what becomes due while sending (tests and benchmarks). */
  async drain(): Promise<void> {
    await this.pump()
    while (this.inFlight.size) {
      await Promise.race([...this.inFlight])
      await this.pump()
    }
  }

  private launch(row: DeliveryRow): void {
    const task = this.attempt(row)
      .catch((error) => this.deps.log.error('webhook attempt bookkeeping failed', { delivery: row.id, error: (error as Error).message }))
      .finally(() => {
        this.inFlight.delete(task)
        if (this.running) void this.pump()
      })
    this.inFlight.add(task)
  }

  private async attempt(row: DeliveryRow): Promise<void> {
    const webhook = await this.deps.webhooks.get(row.webhook_id)
    if (!webhook) return // deleted meanwhile: its rows went with it
    this.attempts++
    const result = await this.deps.sender.send(webhook, row.id, row.body, this.deps.clock.now())
    const now = this.deps.clock.now()
    if (result.delivered) {
      await this.deps.queue.delivered(row.id, result.statusCode, now, this.deps.claimer)
      return
    }
    const error = result.detail ?? result.error ?? `HTTP ${result.statusCode}`
    const delay = row.attempts >= MAX_ATTEMPTS ? null : retryDelayMs(row.attempts, this.deps.intervalSeconds())
    if (delay === null) {
      await this.deps.queue.deadLetter(row.id, row.webhook_id, result.statusCode, error, now, this.deps.claimer)
      this.deps.log.warn('webhook delivery dead-lettered; subscription paused', { webhook_id: row.webhook_id, delivery: row.id, attempts: row.attempts, host: new URL(webhook.url).host, error })
      return
    }
    await this.deps.queue.retry(row.id, now + delay, result.statusCode, error, now, this.deps.claimer)
    this.deps.log.info('webhook delivery failed; will retry', { webhook_id: row.webhook_id, delivery: row.id, attempt: row.attempts, retry_in_ms: delay, error })
  }
}
