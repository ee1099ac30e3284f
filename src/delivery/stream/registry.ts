// Every open /v5/stream of every node, one row each, so that a key's stream limit holds across
// nodes: opening a stream registers it and, in the same unit of work, removes the key's oldest
// streams beyond the limit (the stream-replacement rule: a new stream at the limit replaces the
// oldest, never is refused), which their nodes then end with `replaced`. Each node marks its rows
// alive every second; a node that stops doing so (it died) has its rows ignored and removed after
// STALE_MS. The interface and its SQLite implementation (PostgreSQL: registry-postgres.ts, which
// also tells the owning node at once with a notification).
import type { Database } from 'bun:sqlite'
import type { Step } from '../../store/transaction'
import { sqliteStep } from '../../store/sqlite-transaction'
import { positional } from '../../store/sql-text'

/** How often a node marks its streams alive (and learns which of them were replaced elsewhere). */
export const REFRESH_MS = 1000
/** A stream not marked alive for this long belongs to a node that died: ignored and removed. */
export const STALE_MS = 10_000

export interface OpenStream {
  id: string
  key_hash: string
  mic: string
  /** The lease holder name of the node serving it. */
  node: string
  opened_at: number
}

export interface ReplacedStream {
  id: string
  node: string
}

export interface StreamRegistry {
  /**
   * Registers `stream` and removes the key's oldest other streams beyond `limit` (other nodes'
   * streams not marked alive since `staleBefore` first, uncounted); returns the removed ones, which their
   * nodes end. A step: run it in a unit of work (exact across nodes).
   */
  open(stream: OpenStream, limit: number, staleBefore: number): Step<ReplacedStream[]>
  /** Removes a stream that ended. */
  close(id: string): Promise<void>
  /**
   * Marks `node`'s streams alive at `now` and removes the other nodes' streams not marked since
   * `staleBefore`; returns the ids of `node`'s streams still registered (the others were replaced).
   */
  refresh(node: string, now: number, staleBefore: number): Promise<string[]>
  /** Calls `ended(id)` when another node replaces one of `node`'s streams (PostgreSQL); absent on SQLite (refresh finds it within a second). */
  watch?(node: string, ended: (id: string) => void): Promise<() => Promise<void>>
}

// The statements both backends run ($n parameters; SQLite binds them as ?n).
export const STREAM_SQL = {
  // A node's own rows are never stale to it (its clock may have been set forward in between).
  dropStaleOfKey: 'DELETE FROM open_streams WHERE key_hash = $1 AND seen_at < $2 AND node <> $3',
  insert: 'INSERT INTO open_streams (id, key_hash, mic, node, opened_at, seen_at) VALUES ($1, $2, $3, $4, $5, $5)',
  ofKey: 'SELECT id, node FROM open_streams WHERE key_hash = $1 ORDER BY opened_at, id',
  remove: 'DELETE FROM open_streams WHERE id = $1',
  dropStale: 'DELETE FROM open_streams WHERE seen_at < $1 AND node <> $2',
  touch: 'UPDATE open_streams SET seen_at = $2 WHERE node = $1 RETURNING id',
} as const

/** The key's streams that make room for `newId`: the oldest beyond the limit, never the new one. */
export function beyondLimit(rows: readonly ReplacedStream[], newId: string, limit: number): ReplacedStream[] {
  const excess = rows.length - Math.max(1, limit)
  return excess > 0 ? rows.filter((row) => row.id !== newId).slice(0, excess) : []
}

export function sqliteStreamRegistry(db: Database): StreamRegistry {
  const q = Object.fromEntries(Object.entries(STREAM_SQL).map(([name, text]) => [name, db.query(positional(text))])) as Record<keyof typeof STREAM_SQL, ReturnType<Database['query']>>
  return {
    open: (stream, limit, staleBefore) =>
      sqliteStep(() => {
        q.dropStaleOfKey.run(stream.key_hash, staleBefore, stream.node)
        q.insert.run(stream.id, stream.key_hash, stream.mic, stream.node, stream.opened_at)
        const replaced = beyondLimit(q.ofKey.all(stream.key_hash) as ReplacedStream[], stream.id, limit)
        for (const row of replaced) q.remove.run(row.id)
        return replaced
      }),
    async close(id) {
      q.remove.run(id)
    },
    async refresh(node, now, staleBefore) {
      const alive = (q.touch.all(node, now) as { id: string }[]).map((row) => row.id)
      q.dropStale.run(staleBefore, node)
      return alive
    },
  }
}
