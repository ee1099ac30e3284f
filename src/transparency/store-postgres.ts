// The tiled log on PostgreSQL (src/transparency/store.ts says what each method does). One node
// integrates at a time (the `log-integrator` lease); the size check under the state row's lock
// keeps a second integrator (a lease handed over mid-step) from writing over the first.
import type { SQL } from 'bun'
import { stateOf, type TileStore } from './store'

const STATE_COLUMNS = 'base_seq::float8 AS base_seq, size::float8 AS size, root, checkpoint, checkpoint_size::float8 AS checkpoint_size, checkpoint_at::float8 AS checkpoint_at'

export function postgresTileStore(sql: SQL): TileStore {
  return {
    async state() {
      const [row] = await sql.unsafe(`SELECT ${STATE_COLUMNS} FROM log_state WHERE id = 1`)
      return stateOf(row)
    },
    async edge() {
      const rows = (await sql`SELECT level, idx::float8 AS idx, width, data FROM log_edge ORDER BY level`) as { level: number; idx: number; width: number; data: Uint8Array }[]
      return rows.map((row) => ({ level: row.level, index: row.idx, width: row.width, data: new Uint8Array(row.data) }))
    },
    async integrate(fromSize, step) {
      return sql.begin(async (tx) => {
        const [row] = (await tx`SELECT size::float8 AS size FROM log_state WHERE id = 1 FOR UPDATE`) as { size: number }[]
        if (row!.size !== fromSize) return false
        for (const full of step.full)
          await tx`INSERT INTO log_tiles (level, idx, data) VALUES (${full.level}, ${full.index}, ${Buffer.from(full.data)}) ON CONFLICT (level, idx) DO NOTHING`
        await tx`DELETE FROM log_edge`
        for (const partial of step.partials)
          await tx`INSERT INTO log_edge (level, idx, width, data) VALUES (${partial.level}, ${partial.index}, ${partial.width}, ${Buffer.from(partial.data)})`
        await tx`UPDATE log_state SET size = ${step.size}, root = ${step.rootHex} WHERE id = 1`
        return true
      })
    },
    async tile(level, index) {
      const [row] = (await sql`SELECT data FROM log_tiles WHERE level = ${level} AND idx = ${index}`) as { data: Uint8Array }[]
      return row ? new Uint8Array(row.data) : null
    },
    async publishCheckpoint(size, checkpoint, at) {
      const result = await sql`UPDATE log_state SET checkpoint = ${checkpoint}, checkpoint_size = ${size}, checkpoint_at = ${at} WHERE id = 1 AND checkpoint_size <= ${size} AND size >= ${size}`
      return result.count === 1
    },
  }
}
