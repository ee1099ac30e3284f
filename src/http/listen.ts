// Listening: one process per port unless the operator asks otherwise, a request-body ceiling
// for the whole server, and a port already in use is a start-up error, not a shared port.
import { lookup } from 'node:dns/promises'
import { isIP } from 'node:net'
import { ConfigError, type Config } from '../config'
import { MAX_REQUEST_BODY_BYTES } from './body'

export class ListenError extends Error {
  override name = 'ListenError'
}

/** Options for Elysia's listen(): Elysia turns reusePort on by default, which lets a second
 * process with a different key silently share the port; here it is only on when asked for. */
export function listenOptions(config: Pick<Config, 'port' | 'host' | 'reusePort'>) {
  return { port: config.port, hostname: config.host, reusePort: config.reusePort, maxRequestBodySize: MAX_REQUEST_BODY_BYTES }
}

/** HOST must be an IP literal or a name that resolves; checked before listening. */
export async function checkHost(host: string): Promise<void> {
  if (isIP(host)) return
  try {
    await lookup(host)
  } catch (error) {
    throw new ConfigError('HOST', `${JSON.stringify(host)} is neither an IP address nor a name that resolves (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`)
  }
}

/**
 * Fails fast, before the database is opened or a key generated, when the port is taken: binds
 * the port once and releases it. The real listen is still checked (the port can be taken in
 * between).
 */
export function probePort(config: Pick<Config, 'port' | 'host' | 'reusePort'>): void {
  if (config.reusePort) return
  const probe = listenOrFail(() => Bun.serve({ port: config.port, hostname: config.host, reusePort: false, fetch: () => new Response(null, { status: 503 }) }), config)
  probe.stop(true)
}

/** Calls listen and turns Bun's bind failure into a message an operator can act on. */
export function listenOrFail<T>(listen: () => T, config: Pick<Config, 'port' | 'host' | 'reusePort'>): T {
  try {
    return listen()
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'EADDRINUSE') throw new ListenError(`port ${config.port} on ${config.host} is already in use (another openbell or another program); stop it or set PORT`)
    if (code === 'EACCES') throw new ListenError(`no permission to listen on port ${config.port} (ports below 1024 need privileges); set PORT`)
    throw new ListenError(`cannot listen on ${config.host}:${config.port}: ${(error as Error).message}`)
  }
}
