// The registry of open streams on PostgreSQL (registry.ts says what it holds). Opening runs in the
// caller's SERIALIZABLE unit of work, so two streams of one key opened at once on two nodes are
// counted one after the other; a replaced stream's node is told by a notification sent at commit
// (payload: the stream id), and ends it within milliseconds.
import type { SQL } from 'bun'
import { postgresStep } from '../../store/postgres-transaction'
import { beyondLimit, STREAM_SQL, type ReplacedStream, type StreamRegistry } from './registry'

export const STREAMS_CHANNEL = 'openbell_streams'

export function postgresStreamRegistry(sql: SQL): StreamRegistry {
  return {
    open: (stream, limit, staleBefore) =>
      postgresStep(async (tx) => {
        await tx.unsafe(STREAM_SQL.dropStaleOfKey, [stream.key_hash, staleBefore, stream.node])
        await tx.unsafe(STREAM_SQL.insert, [stream.id, stream.key_hash, stream.mic, stream.node, stream.opened_at])
        const replaced = beyondLimit((await tx.unsafe(STREAM_SQL.ofKey, [stream.key_hash])) as ReplacedStream[], stream.id, limit)
        for (const row of replaced) {
          await tx.unsafe(STREAM_SQL.remove, [row.id])
          if (row.node !== stream.node) await tx`SELECT pg_notify(${STREAMS_CHANNEL}, ${row.id})`
        }
        return replaced
      }),
    async close(id) {
      await sql.unsafe(STREAM_SQL.remove, [id])
    },
    async refresh(node, now, staleBefore) {
      const alive = ((await sql.unsafe(STREAM_SQL.touch, [node, now])) as { id: string }[]).map((row) => row.id)
      await sql.unsafe(STREAM_SQL.dropStale, [staleBefore, node])
      return alive
    },
    async watch(_node, ended) {
      const listening = await sql.listen(STREAMS_CHANNEL, (id: string) => ended(id))
      return async () => {
        await listening.unlisten()
      }
    },
  }
}
