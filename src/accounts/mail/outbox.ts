// The durable mail outbox (migration 6). A message is stored in the caller's transaction, before
// the API answers; the mail job sends it later with retries. After a successful send (or the last
// failed attempt) every API key in the stored body is cut to its prefix, so the table keeps no
// usable key. Claims are leases: a process that dies mid-send leaves the row to be retried.
import type { Database } from 'bun:sqlite'

export const MAIL_SCHEMA_V6 = `
CREATE TABLE mail_outbox (
  id INTEGER PRIMARY KEY,
  recipient TEXT NOT NULL,
  subject TEXT NOT NULL,
  body TEXT NOT NULL,
  state TEXT NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'sent', 'failed')),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER NOT NULL,
  last_error TEXT,
  created_at TEXT NOT NULL,
  finished_at TEXT
);
CREATE INDEX mail_outbox_due ON mail_outbox (next_attempt_at) WHERE state = 'queued';
`

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

/**
 * Stores one message for sending. Synchronous, so that it joins the caller's transaction: the
 * message commits together with what it announces (a key) or not at all. Returns the row id.
 * The mail job sends it on its next round; call its wake() after the commit to send at once.
 */
export function enqueueMail(db: Database, mail: OutgoingMail, now: number): number {
  const row = db
    .query('INSERT INTO mail_outbox (recipient, subject, body, next_attempt_at, created_at) VALUES (?, ?, ?, ?, ?) RETURNING id')
    .get(mail.to, mail.subject, mail.text, now, new Date(now).toISOString()) as { id: number }
  return row.id
}

export function mailOutbox(db: Database) {
  const claim = db.query(
    `UPDATE mail_outbox SET next_attempt_at = $lease_until, attempts = attempts + 1
     WHERE id IN (SELECT id FROM mail_outbox WHERE state = 'queued' AND next_attempt_at <= $now ORDER BY next_attempt_at, id LIMIT $limit)
     RETURNING id, recipient, subject, body, attempts`,
  )
  const bodyOf = db.query('SELECT body FROM mail_outbox WHERE id = ?')
  const finish = db.query(`UPDATE mail_outbox SET state = ?, body = ?, last_error = ?, finished_at = ? WHERE id = ?`)
  const retry = db.query(`UPDATE mail_outbox SET next_attempt_at = ?, last_error = ? WHERE id = ? AND state = 'queued'`)
  const counts = db.query('SELECT state, count(*) AS n FROM mail_outbox GROUP BY state')
  const oldestQueued = db.query(`SELECT min(created_at) AS at FROM mail_outbox WHERE state = 'queued'`)
  const finishErasing = (id: number, state: 'sent' | 'failed', error: string | null, now: number) =>
    db.transaction(() => {
      const row = bodyOf.get(id) as { body: string } | null
      if (row) finish.run(state, eraseKeys(row.body), error, new Date(now).toISOString(), id)
    })()
  return {
    /** Leases up to `limit` due messages until `leaseUntil`, counting the attempt. */
    claim(now: number, leaseUntil: number, limit: number): OutboxRow[] {
      return claim.all({ now, lease_until: leaseUntil, limit }) as OutboxRow[]
    },
    sent(id: number, now: number): void {
      finishErasing(id, 'sent', null, now)
    },
    failed(id: number, error: string, now: number): void {
      finishErasing(id, 'failed', error, now)
    },
    retryAt(id: number, at: number, error: string): void {
      retry.run(at, error, id)
    },
    counts(): OutboxCounts {
      const out: OutboxCounts = { queued: 0, sent: 0, failed: 0 }
      for (const row of counts.all() as { state: keyof OutboxCounts; n: number }[]) out[row.state] = row.n
      return out
    },
    oldestQueuedAt(): string | null {
      return (oldestQueued.get() as { at: string | null }).at
    },
  }
}

export type MailOutbox = ReturnType<typeof mailOutbox>
