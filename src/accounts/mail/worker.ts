// The mail job: a Bun timer (and wake()) sends due outbox messages. A failed send is retried with
// exponential backoff (30 s doubling, at most an hour apart); after MAX_ATTEMPTS the message is
// marked failed. Nothing here logs a recipient's key or the message body.
import type { Clock } from '../../clock'
import type { Logger } from '../../log'
import { eraseKeys, type MailOutbox } from './outbox'
import type { MailTransport } from './transport'

export const MAIL_POLL_MS = 5_000
export const MAIL_LEASE_MS = 5 * 60_000
export const MAIL_MAX_ATTEMPTS = 10
const BATCH = 20

/** Delay after the n-th failed attempt (n ≥ 1): 30 s, 60 s, 120 s … capped at one hour. */
export function backoffMs(attempts: number): number {
  return Math.min(60 * 60_000, 30_000 * 2 ** Math.max(0, attempts - 1))
}

export class MailWorker {
  private running: Promise<number> | null = null
  private timer: ReturnType<typeof setInterval> | null = null

  constructor(
    private readonly outbox: MailOutbox,
    /** null when e-mail is not configured: messages wait in the outbox. */
    private readonly transport: MailTransport | null,
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {}

  get configured(): boolean {
    return this.transport !== null
  }

  /** One round: sends every due message once. Returns how many were sent. Rounds never overlap. */
  tick(): Promise<number> {
    this.running ??= this.round()
      .catch((error: Error) => {
        // The outbox could not be read or written (database unreachable): the next round retries.
        this.log.warn('mail round stopped: outbox not reachable', { error: error.message })
        return 0
      })
      .finally(() => {
        this.running = null
      })
    return this.running
  }

  /** Asks for a round soon (after a message was committed). */
  wake(): void {
    if (!this.timer || !this.transport) return
    setTimeout(() => void this.tick(), 0)
  }

  start(): () => Promise<void> {
    if (!this.transport) return async () => {}
    this.timer = setInterval(() => void this.tick(), MAIL_POLL_MS)
    void this.tick()
    // Messages committed on other nodes wake this one too (when the outbox can tell); without
    // that, the poll above finds them within MAIL_POLL_MS.
    const watching = this.outbox.watch?.(() => this.wake()).catch((error: Error) => {
      this.log.warn('mail: cannot watch for new messages; polling only', { error: error.message })
      return null
    })
    return async () => {
      await (await watching)?.()
      if (this.timer) clearInterval(this.timer)
      this.timer = null
      await this.running
      this.transport?.close()
    }
  }

  private async round(): Promise<number> {
    const transport = this.transport
    if (!transport) return 0
    let sent = 0
    for (;;) {
      const now = this.clock.now()
      const batch = await this.outbox.claim(now, now + MAIL_LEASE_MS, BATCH)
      if (!batch.length) return sent
      for (const message of batch) {
        let failure: unknown = null
        try {
          await transport.send({ to: message.recipient, subject: message.subject, text: message.body })
        } catch (error) {
          failure = error
        }
        // Outside the send's try: a database error here is not a failed send (the message stays
        // claimed until its lease ends) and ends the round.
        if (failure === null) {
          await this.outbox.sent(message.id, this.clock.now())
          sent += 1
          this.log.info('mail sent', { mail_id: message.id, attempts: message.attempts })
          continue
        }
        // A server may quote the message in its refusal: the key never reaches the log or the table.
        const reason = eraseKeys(failure instanceof Error ? failure.message : String(failure))
        if (message.attempts >= MAIL_MAX_ATTEMPTS) {
          await this.outbox.failed(message.id, reason, this.clock.now())
          this.log.error('mail failed for good', { mail_id: message.id, attempts: message.attempts, error: reason })
        } else {
          const retryAt = this.clock.now() + backoffMs(message.attempts)
          await this.outbox.retryAt(message.id, retryAt, reason)
          this.log.warn('mail send failed; will retry', { mail_id: message.id, attempts: message.attempts, retry_at: new Date(retryAt).toISOString(), error: reason })
        }
      }
      if (batch.length < BATCH) return sent
    }
  }
}
