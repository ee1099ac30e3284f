// For the accounts contract suites: two "nodes" over one test database (on PostgreSQL, two
// connection pools, as two processes would have; on SQLite, one process, so both are the same
// connection) and a plain query on whichever backend it is.
import { SQL } from 'bun'
import type { Database } from 'bun:sqlite'
import { afterAll } from 'bun:test'
import type { TestBackend } from '../helpers/backends'

const pools: SQL[] = []
afterAll(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.close()))
})

/** `build` over the backend twice: node A on the test's pool, node B on a pool of its own (PostgreSQL). */
export function twoNodes<T>(backend: TestBackend, build: { sqlite: (db: Database) => T; postgres: (sql: SQL) => T }): [T, T] {
  if (backend.name === 'sqlite') {
    const node = build.sqlite(backend.db!)
    return [node, node]
  }
  const second = new SQL({ url: backend.url!, max: 4 })
  pools.push(second)
  return [build.postgres(backend.sql!), build.postgres(second)]
}

/** Rows of a query written with $1… parameters, on either backend. */
export async function rowsOf<T = Record<string, unknown>>(backend: TestBackend, text: string, params: unknown[] = []): Promise<T[]> {
  if (backend.name === 'sqlite') return backend.db!.query(text.replace(/\$(\d)/g, '?$1')).all(...(params as never[])) as T[]
  return [...((await backend.sql!.unsafe(text, params)) as T[])]
}

/** A number from a one-row, one-column query (counts, sums: BIGINT arrives as text on PostgreSQL). */
export async function numberOf(backend: TestBackend, text: string, params: unknown[] = []): Promise<number> {
  const [row] = await rowsOf(backend, text, params)
  return Number(Object.values(row ?? { n: 0 })[0] ?? 0)
}
