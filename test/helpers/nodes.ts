// Several "nodes" over one contract-test database: on PostgreSQL each node has its own pool (as
// two service processes would); on a SQLite file (the `2 workers` variant) each node after the
// first opens its own connection, as each worker process of WORKERS=2 does; in memory they share
// the one connection. Concurrency claims (spent once, claimed once, exact limits) are tested by
// spreading calls over two such nodes.
import type { Database } from 'bun:sqlite'
import { SQL } from 'bun'
import { afterAll } from 'bun:test'
import { openDatabase } from '../../src/store/database'
import type { Transactor } from '../../src/store/transaction'
import { sqliteTransactor } from '../../src/store/sqlite-transaction'
import { postgresTransactor } from '../../src/store/postgres-transaction'
import { positional } from '../../src/store/sql-text'
import type { TestBackend } from './backends'

export interface TestNode {
  backend: TestBackend['name']
  transactor: Transactor
  /** The pool of this node (PostgreSQL) or null. */
  sql: SQL | null
  /** The backend's implementation of a store, over this node's connection. */
  pick<T>(implementations: { sqlite: (db: Database) => T; postgres: (sql: SQL) => T }): T
  /** Rows of one statement written with $1, $2… (casts such as `::int`, needed for PostgreSQL's counts, are dropped on SQLite). */
  query<T = Record<string, unknown>>(text: string, values?: unknown[]): Promise<T[]>
}

/** Call inside a describe: `nodeOf(backend)` makes nodes whose pools close after the suite. */
export function testNodes(): (backend: TestBackend) => TestNode {
  const pools: SQL[] = []
  const connections: Database[] = []
  const firstNode = new Set<TestBackend>()
  afterAll(async () => {
    for (const db of connections.splice(0)) db.close()
    await Promise.all(pools.splice(0).map((pool) => pool.close()))
  })
  return (backend) => {
    if (backend.name === 'sqlite') {
      let db = backend.db!
      if (backend.path && firstNode.has(backend)) {
        db = openDatabase(backend.path)
        connections.push(db)
      }
      firstNode.add(backend)
      return {
        backend: 'sqlite',
        transactor: sqliteTransactor(db),
        sql: null,
        pick: (implementations) => implementations.sqlite(db),
        query: async (text, values = []) => db.query(positional(text).replace(/::[a-z0-9]+/g, '')).all(...(values as never[])) as never,
      }
    }
    const sql = new SQL({ url: backend.url!, max: 4 })
    pools.push(sql)
    return {
      backend: 'postgres',
      transactor: postgresTransactor(sql),
      sql,
      pick: (implementations) => implementations.postgres(sql),
      query: async (text, values = []) => (await sql.unsafe(text, values)) as never,
    }
  }
}
