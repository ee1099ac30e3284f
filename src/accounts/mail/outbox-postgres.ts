// The mail outbox on PostgreSQL (outbox.ts says what it is). Several nodes may claim at once:
// `FOR UPDATE SKIP LOCKED` hands each due message to one claimer, so no message is sent twice
// while the claimers are up; a claimer that dies leaves its claim to end as a lease does.
import type { SQL } from 'bun'
import { postgresStep } from '../../store/postgres-transaction'
import { countsOf, ENQUEUE_SQL, enqueueValues, eraseKeys, FINISH_SQL, MAIL_CHANNEL, RETRY_SQL, type MailOutbox, type OutboxCounts, type OutboxRow } from './outbox'

export function postgresMailOutbox(sql: SQL): MailOutbox {
  const finishErasing = (id: number, state: 'sent' | 'failed', error: string | null, now: number) =>
    sql.begin(async (tx) => {
      const [row] = (await tx`SELECT body FROM mail_outbox WHERE id = ${id} FOR UPDATE`) as { body: string }[]
      if (row) await tx.unsafe(FINISH_SQL, [id, state, eraseKeys(row.body), error, new Date(now).toISOString()])
    })
  return {
    enqueue: (mail, now) =>
      postgresStep(async (tx) => {
        const id = ((await tx.unsafe(ENQUEUE_SQL, enqueueValues(mail, now))) as { id: number }[])[0]!.id
        // Wakes the node that runs the mail job when this transaction commits.
        await tx`SELECT pg_notify(${MAIL_CHANNEL}, ${String(id)})`
        return id
      }),
    async claim(now, leaseUntil, limit) {
      const rows = (await sql`
        UPDATE mail_outbox SET next_attempt_at = ${leaseUntil}, attempts = attempts + 1
        WHERE id IN (SELECT id FROM mail_outbox WHERE state = 'queued' AND next_attempt_at <= ${now} ORDER BY next_attempt_at, id LIMIT ${limit} FOR UPDATE SKIP LOCKED)
        RETURNING id, recipient, subject, body, attempts`) as OutboxRow[]
      // RETURNING comes in no particular order: the oldest due first, as on SQLite.
      return [...rows].sort((a, b) => a.id - b.id)
    },
    async sent(id, now) {
      await finishErasing(id, 'sent', null, now)
    },
    async failed(id, error, now) {
      await finishErasing(id, 'failed', error, now)
    },
    async retryAt(id, at, error) {
      await sql.unsafe(RETRY_SQL, [id, at, error])
    },
    async counts() {
      return countsOf((await sql`SELECT state, count(*)::int AS n FROM mail_outbox GROUP BY state`) as { state: keyof OutboxCounts; n: number }[])
    },
    async oldestQueuedAt() {
      const [row] = (await sql`SELECT min(created_at) AS at FROM mail_outbox WHERE state = 'queued'`) as { at: string | null }[]
      return row?.at ?? null
    },
    async watch(queued) {
      const listening = await sql.listen(MAIL_CHANNEL, () => queued())
      return async () => {
        await listening.unlisten()
      }
    },
  }
}
