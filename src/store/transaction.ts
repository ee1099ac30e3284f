// One transaction over several stores, on either backend, without the domain knowing which.
//
// bun:sqlite runs statements synchronously and its transactions must not span an await: any
// other request resumed in between would run its statements inside ours. PostgreSQL's client is
// asynchronous. A unit of work is therefore written once as a generator of steps: each store
// method that may join a transaction returns a `Step<T>` (a generator yielding database
// operations), and the domain composes them with `yield*`:
//
//   const issued = await deps.transactor.run(function* () {
//     if (!(yield* stores.payments.spend(claim))) return null      // one statement
//     return yield* stores.accountWrites.issueKey({ … })            // more statements, same transaction
//   })
//
// SQLite drives the generator synchronously inside BEGIN IMMEDIATE … COMMIT (nothing else can
// run in between); PostgreSQL drives it with awaits inside BEGIN ISOLATION LEVEL SERIALIZABLE …
// COMMIT and runs the whole body again when the server reports a serialization failure. So:
// - a body does nothing but yield steps and compute: no I/O, no timers, no awaits (it may run
//   more than once on PostgreSQL; effects outside the database belong after `run` resolves);
// - a body never catches a database error to carry on (PostgreSQL aborts the transaction on
//   the first failed statement); write conflicts as `ON CONFLICT … DO NOTHING RETURNING …`.

/** One database operation: a function of the backend's connection (or transaction) handle. */
export type Op = (handle: never) => unknown

/** A store operation that can join a transaction; `yield*` it inside `Transactor.run`. */
export type Step<T> = Generator<Op, T, unknown>

export interface TransactionOptions {
  /** Named in the error when PostgreSQL gives up retrying. */
  name?: string
  /**
   * PostgreSQL's isolation for this body (SQLite always runs one writer at a time). The default,
   * 'serializable', keeps any read-decide-write body exact. 'read committed' is for bodies whose
   * every decision is made by one conditional statement (`… WHERE count < $limit RETURNING`,
   * `ON CONFLICT DO NOTHING RETURNING`): those are exact at that level too, and a hot row (one
   * client address's allowance) then makes concurrent bodies wait for its lock in turn instead of
   * failing with serialization errors and running again.
   */
  isolation?: 'serializable' | 'read committed'
}

export interface Transactor {
  /** Runs the body as one transaction; resolves after the commit with what the body returned. */
  run<T>(body: () => Step<T>, options?: TransactionOptions): Promise<T>
}

/** A step that does not touch the database (a value computed inside a unit of work). */
// eslint-disable-next-line require-yield
export function* pure<T>(value: T): Step<T> {
  return value
}
