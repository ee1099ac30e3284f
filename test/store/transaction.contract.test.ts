// One unit of work over several statements, on both backends: all of it commits or none of it,
// and concurrent read-modify-write bodies never lose an update (SQLite: one writer at a time;
// PostgreSQL: SERIALIZABLE, the loser runs again).
import type { Database } from 'bun:sqlite'
import type { SQL } from 'bun'
import { expect, test } from 'bun:test'
import type { Step, Transactor } from '../../src/store/transaction'
import { sqliteStep, sqliteTransactor } from '../../src/store/sqlite-transaction'
import { postgresStep, postgresTransactor } from '../../src/store/postgres-transaction'
import { forEachBackend } from '../helpers/backends'

/** A tiny store over audit_state (name → value) with steps, as a domain store would have. */
interface Counter {
  read(name: string): Step<number | null>
  write(name: string, value: number): Step<void>
}

const sqliteCounter = (db: Database): Counter => {
  const read = db.query('SELECT value FROM audit_state WHERE name = ?')
  const write = db.query('INSERT INTO audit_state (name, value) VALUES (?1, ?2) ON CONFLICT (name) DO UPDATE SET value = ?2')
  return {
    read: (name) => sqliteStep(() => {
      const row = read.get(name) as { value: string } | null
      return row ? Number(row.value) : null
    }),
    write: (name, value) => sqliteStep(() => void write.run(name, String(value))),
  }
}

const postgresCounter = (): Counter => ({
  read: (name) => postgresStep(async (sql) => {
    const [row] = await sql`SELECT value FROM audit_state WHERE name = ${name}`
    return row ? Number((row as { value: string }).value) : null
  }),
  write: (name, value) => postgresStep(async (sql) => void (await sql`INSERT INTO audit_state (name, value) VALUES (${name}, ${String(value)}) ON CONFLICT (name) DO UPDATE SET value = excluded.value`)),
})

forEachBackend('transactor', (fresh) => {
  const open = async () => {
    const backend = await fresh()
    const transactor = backend.pick<Transactor>({ sqlite: sqliteTransactor, postgres: postgresTransactor })
    const counter = backend.pick<Counter>({ sqlite: sqliteCounter, postgres: () => postgresCounter() })
    return { transactor, counter }
  }

  test('every step of a body commits, and the body returns its value', async () => {
    const { transactor, counter } = await open()
    const result = await transactor.run(function* () {
      yield* counter.write('a', 1)
      yield* counter.write('b', (yield* counter.read('a'))! + 1)
      return 'done'
    })
    expect(result).toBe('done')
    expect(await transactor.run(function* () {
      return [yield* counter.read('a'), yield* counter.read('b')]
    })).toEqual([1, 2])
  })

  test('a body that throws leaves nothing behind', async () => {
    const { transactor, counter } = await open()
    const failed = transactor.run(function* () {
      yield* counter.write('c', 5)
      throw new Error('refused midway')
    })
    await expect(failed).rejects.toThrow('refused midway')
    expect(await transactor.run(() => counter.read('c'))).toBeNull()
  })

  test('a failing statement fails the whole body, the steps before it included', async () => {
    const backend = await fresh()
    const transactor = backend.pick<Transactor>({ sqlite: sqliteTransactor, postgres: postgresTransactor })
    const counter = backend.pick<Counter>({ sqlite: sqliteCounter, postgres: () => postgresCounter() })
    const failing = backend.pick<() => Step<unknown>>({
      sqlite: (db) => () => sqliteStep(() => db.run('INSERT INTO no_such_table VALUES (1)')),
      postgres: () => () => postgresStep(async (sql: SQL) => sql`INSERT INTO no_such_table VALUES (1)`),
    })
    await expect(transactor.run(function* () {
      yield* counter.write('d', 1)
      yield* failing()
      yield* counter.write('d', 2)
    })).rejects.toThrow(/no_such_table/)
    expect(await transactor.run(() => counter.read('d'))).toBeNull()
  })

  test('40 concurrent increments of one counter lose none', async () => {
    const { transactor, counter } = await open()
    await transactor.run(() => counter.write('n', 0))
    await Promise.all(Array.from({ length: 40 }, () => transactor.run(function* () {
      const value = yield* counter.read('n')
      yield* counter.write('n', value! + 1)
    })))
    expect(await transactor.run(() => counter.read('n'))).toBe(40)
  }, 30_000)
})
