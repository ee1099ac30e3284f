// The PostgreSQL side of src/store/transaction.ts: a unit of work runs inside one SERIALIZABLE
// transaction on one pooled connection, its operations awaited in turn. SERIALIZABLE gives the
// bodies written for SQLite (one writer at a time: read, decide, write) the same meaning with
// several nodes writing at once; when PostgreSQL detects that two transactions overlapped it
// fails one of them (40001) and the body runs again from the start.
import type { SQL } from 'bun'
import type { Op, Step, Transactor } from './transaction'
import { sqlState } from './postgres'

/** A step of one PostgreSQL operation on the transaction's connection (or the pool outside one). */
export function* postgresStep<T>(run: (sql: SQL) => Promise<T>): Step<T> {
  return (yield run as Op) as T
}

/** Drives a body to its end, awaiting each operation on `sql`. */
export async function runAsync<T>(step: Step<T>, sql: SQL): Promise<T> {
  let next = step.next()
  while (!next.done) {
    let value: unknown
    try {
      value = await (next.value as (handle: SQL) => unknown)(sql)
    } catch (error) {
      next = step.throw(error)
      continue
    }
    next = step.next(value)
  }
  return next.value
}

/** Serialization failure and deadlock: the transaction did nothing and may simply run again. */
const RETRYABLE = new Set(['40001', '40P01'])
export const MAX_ATTEMPTS = 12

export function postgresTransactor(sql: SQL): Transactor {
  return {
    async run(body, options = {}) {
      for (let attempt = 1; ; attempt++) {
        try {
          return await sql.begin(`isolation level ${options.isolation ?? 'serializable'}`, (tx) => runAsync(body(), tx as unknown as SQL))
        } catch (error) {
          const state = sqlState(error)
          if (!state || !RETRYABLE.has(state) || attempt >= MAX_ATTEMPTS) {
            if (state && RETRYABLE.has(state)) (error as Error).message += ` (transaction ${options.name ?? ''} gave up after ${attempt} attempts)`
            throw error
          }
          // Back off a little, more each time, with jitter so that the same two do not collide again.
          await Bun.sleep(Math.random() * Math.min(50, 2 ** attempt))
        }
      }
    },
  }
}
