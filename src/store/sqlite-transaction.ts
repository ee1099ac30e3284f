// The SQLite side of src/store/transaction.ts: a unit of work runs synchronously inside one
// BEGIN IMMEDIATE transaction, so no other statement of this process can run inside it.
import type { Database } from 'bun:sqlite'
import type { Op, Step, Transactor } from './transaction'

/** A step of one synchronous SQLite operation (stores build their steps from these). */
export function* sqliteStep<T>(run: () => T): Step<T> {
  return (yield run as Op) as T
}

/** Drives a body to its end on this thread: each yielded operation runs at once. */
export function runSync<T>(step: Step<T>): T {
  let next = step.next()
  while (!next.done) {
    let value: unknown
    try {
      value = (next.value as (handle: undefined) => unknown)(undefined)
      if (value instanceof Promise) throw new TypeError('a SQLite step returned a promise: its store is not the SQLite one')
    } catch (error) {
      next = step.throw(error)
      continue
    }
    next = step.next(value)
  }
  return next.value
}

export function sqliteTransactor(db: Database): Transactor {
  const transaction = db.transaction((body: () => Step<unknown>) => runSync(body()))
  return {
    async run(body) {
      return transaction.immediate(body) as ReturnType<typeof body> extends Step<infer T> ? T : never
    },
  }
}
