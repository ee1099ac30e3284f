// What a storage error means, recognised from the error's shape so that the HTTP layer imports
// no driver: the database cannot be reached right now, or its disk is full. Neither is a bug or
// bad input: the request is answered 503 and the node carries on (the pool reconnects when the
// server is back; writes work again once space is freed).

/** Bun's SQL client: the connection failed, closed or timed out. */
const CLIENT_CODES = /^ERR_POSTGRES_(CONNECTION_|IDLE_TIMEOUT|LIFETIME_TIMEOUT|UNSUPPORTED_AUTHENTICATION)/

/** SQLSTATE classes of a server that is going away or cannot take more: 08 connection, 57P0x shutdown, 53 resources. */
const SERVER_STATES = /^(08|57P0|53)/

/** SQLite SQLITE_FULL (result code 13), PostgreSQL SQLSTATE 53100 disk_full, or the OS's ENOSPC. */
export function isStorageFull(error: unknown): boolean {
  const { code, errno } = (error ?? {}) as { code?: unknown; errno?: unknown }
  return code === 'SQLITE_FULL' || code === 'ENOSPC' || errno === '53100'
}

/** Unreachable (a full disk is told apart by isStorageFull, which callers check first). */
export function isStorageUnavailable(error: unknown): boolean {
  const { code, errno } = (error ?? {}) as { code?: unknown; errno?: unknown }
  if (typeof code === 'string' && CLIENT_CODES.test(code)) return true
  return typeof errno === 'string' && SERVER_STATES.test(errno)
}
