// The durable mail outbox (migration 6). A message is stored in the caller's transaction, before
// the API answers; the mail job sends it later with retries. After a successful send (or the last
// failed attempt) every API key in the stored body is cut to its prefix, so the table keeps no
// usable key. Claims are leases: a process that dies mid-send leaves the row to be retried.
// The PostgreSQL outbox is in outbox-postgres.ts.
import type { Database } from 'bun:sqlite'
import type { Step } from '../../store/transaction'
import { sqliteStep } from '../../store/sqlite-transaction'

export interface OutgoingMail {
  to: string
  subject: string
  text: string
}

export interface OutboxRow {
  id: number
  recipient: string
  subject: string
  body: string
  attempts: number
}

export type OutboxCounts = Record<'queued' | 'sent' | 'failed', number>

/** Any API key (spec 5 classes) in a text. */
const KEY_IN_TEXT = /\b(svc_free_|sb_|svc_crd_|svc_live_)([0-9a-f]{8})[0-9a-f]{56}\b/g

/** The text with every API key cut to its display prefix. */
export function eraseKeys(text: string): string {
  return text.replace(KEY_IN_TEXT, '$1$2… (removed from the outbox after sending)')
}

export interface MailOutbox {
  /**
   * Stores one message for sending: a step, so that it joins the caller's unit of work and the
   * message commits together with what it announces (a key) or not at all. Returns the row id.
   * The mail job sends it on its next round; call its wake() after the commit to send at once.
   */
  enqueue(mail: OutgoingMail, now: number): Step<number>
  /**
   * Leases up to `limit` due messages until `leaseUntil`, counting the attempt. A message is
   * claimed by one caller only, however many nodes claim at once.
   */
  claim(now: number, leaseUntil: number, limit: number): Promise<OutboxRow[]>
  /** Sent: finished, its keys erased from the stored body. */
  sent(id: number, now: number): Promise<void>
  /** Given up: finished as failed, its keys erased. */
  failed(id: number, error: string, now: number): Promise<void>
  /** Tried again at `at` (epoch ms). */
  retryAt(id: number, at: number, error: string): Promise<void>
  counts(): Promise<OutboxCounts>
  oldestQueuedAt(): Promise<string | null>
  /**
   * Calls `queued` when any node commits a message (PostgreSQL: LISTEN on MAIL_CHANNEL), so the
   * node running the mail job sends it at once; the stop ends the watch. Absent on SQLite.
   */
  watch?(queued: () => void): Promise<() => Promise<void>>
}

/** Notified in the transaction that stores a message (delivered at its commit). */
export const MAIL_CHANNEL = 'openbell_mail'

export const ENQUEUE_SQL = 'INSERT INTO mail_outbox (recipient, subject, body, next_attempt_at, created_at) VALUES ($1, $2, $3, $4, $5) RETURNING id'
export const enqueueValues = (mail: OutgoingMail, now: number) => [mail.to, mail.subject, mail.text, now, new Date(now).toISOString()]
export const RETRY_SQL = `UPDATE mail_outbox SET next_attempt_at = $2, last_error = $3 WHERE id = $1 AND state = 'queued'`
export const FINISH_SQL = 'UPDATE mail_outbox SET state = $2, body = $3, last_error = $4, finished_at = $5 WHERE id = $1'

export function sqliteMailOutbox(db: Database): MailOutbox {
  const enqueue = db.query(ENQUEUE_SQL.replace(/\$(\d)/g, '?$1'))
  // One writer at a time: the claim needs no row locks here (PostgreSQL's skips locked rows).
  const claim = db.query(
    `UPDATE mail_outbox SET next_attempt_at = $lease_until, attempts = attempts + 1
     WHERE id IN (SELECT id FROM mail_outbox WHERE state = 'queued' AND next_attempt_at <= $now ORDER BY next_attempt_at, id LIMIT $limit)
     RETURNING id, recipient, subject, body, attempts`,
  )
  const bodyOf = db.query('SELECT body FROM mail_outbox WHERE id = ?')
  const finish = db.query(FINISH_SQL.replace(/\$(\d)/g, '?$1'))
  const retry = db.query(RETRY_SQL.replace(/\$(\d)/g, '?$1'))
  const counts = db.query('SELECT state, count(*) AS n FROM mail_outbox GROUP BY state')
  const oldestQueued = db.query(`SELECT min(created_at) AS at FROM mail_outbox WHERE state = 'queued'`)
  const finishErasing = db.transaction((id: number, state: 'sent' | 'failed', error: string | null, now: number) => {
    const row = bodyOf.get(id) as { body: string } | null
    if (row) finish.run(id, state, eraseKeys(row.body), error, new Date(now).toISOString())
  })
  return {
    enqueue: (mail, now) => sqliteStep(() => (enqueue.get(...enqueueValues(mail, now)) as { id: number }).id),
    async claim(now, leaseUntil, limit) {
      return claim.all({ now, lease_until: leaseUntil, limit }) as OutboxRow[]
    },
    async sent(id, now) {
      finishErasing.immediate(id, 'sent', null, now)
    },
    async failed(id, error, now) {
      finishErasing.immediate(id, 'failed', error, now)
    },
    async retryAt(id, at, error) {
      retry.run(id, at, error)
    },
    async counts() {
      return countsOf(counts.all() as { state: keyof OutboxCounts; n: number }[])
    },
    async oldestQueuedAt() {
      return (oldestQueued.get() as { at: string | null }).at
    },
  }
}

/** The outbox counts from `state, n` rows (states without rows count 0). */
export function countsOf(rows: readonly { state: keyof OutboxCounts; n: number }[]): OutboxCounts {
  const out: OutboxCounts = { queued: 0, sent: 0, failed: 0 }
  for (const row of rows) out[row.state] = row.n
  return out
}
