// Whether an error means the database cannot be reached right now (not a bug, not bad input):
// the request is answered 503 and the node carries on; the pool reconnects when the server is
// back. Recognised from the error's shape, so the HTTP layer imports no driver.

/** Bun's SQL client: the connection failed, closed or timed out. */
const CLIENT_CODES = /^ERR_POSTGRES_(CONNECTION_|IDLE_TIMEOUT|LIFETIME_TIMEOUT|UNSUPPORTED_AUTHENTICATION)/

/** SQLSTATE classes of a server that is going away or cannot take more: 08 connection, 57P0x shutdown, 53 resources. */
const SERVER_STATES = /^(08|57P0|53)/

export function isStorageUnavailable(error: unknown): boolean {
  const { code, errno } = (error ?? {}) as { code?: unknown; errno?: unknown }
  if (typeof code === 'string' && CLIENT_CODES.test(code)) return true
  return typeof errno === 'string' && SERVER_STATES.test(errno)
}
