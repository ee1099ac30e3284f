// Which Host and Origin the tool endpoint answers (the Streamable HTTP transport: servers MUST
// validate Origin against DNS rebinding, 403 for an invalid one). A rebinding page names the
// attacker's host in both Host and Origin, so both are checked: Host must be one of this
// service's configured names or a loopback form, and Origin, when sent, one of the service's own
// origins, an origin of CORS_ALLOWED_ORIGINS, or the request's own loopback origin. docs/mcp.md
// ("Host and Origin") says exactly what is refused.
import { isIP } from 'node:net'
import type { Config } from '../config'

export type RebindingRefusal = { error: 'HOST_NOT_ALLOWED' | 'ORIGIN_NOT_ALLOWED'; message: string }

/** host [":" port] → the host part, lower case, IPv6 without brackets; null when not a host. */
function hostName(host: string): string | null {
  const bracketed = /^\[([0-9a-f:.]+)\](?::\d{1,5})?$/i.exec(host)
  if (bracketed) return bracketed[1]!.toLowerCase()
  const plain = /^([a-z0-9._~-]+)(?::\d{1,5})?$/i.exec(host)
  return plain ? plain[1]!.toLowerCase().replace(/\.$/, '') : null
}

/** localhost, *.localhost (RFC 6761), 127.0.0.0/8 and ::1 (also as ::ffff:127.x): names a browser resolves only to this machine. */
export function isLoopbackName(name: string): boolean {
  if (name === 'localhost' || name.endsWith('.localhost')) return true
  if (isIP(name) === 4) return name.startsWith('127.')
  if (isIP(name) === 6) return name === '::1' || /^::ffff:127\./.test(name) || /^(0{1,4}:){7}0{0,3}1$/.test(name)
  return false
}

const WILDCARD_BINDS = new Set(['0.0.0.0', '::', ''])

/** The host names configured for this service: PUBLIC_BASE_URL, ISSUER, a specific HOST, MCP_ALLOWED_HOSTS. */
export function configuredHosts(config: Pick<Config, 'publicBaseUrl' | 'issuer' | 'host'> & { mcp: Pick<Config['mcp'], 'allowedHosts'> }): Set<string> {
  const names = [new URL(config.publicBaseUrl).hostname, config.issuer, ...config.mcp.allowedHosts]
  if (!WILDCARD_BINDS.has(config.host)) names.push(config.host.includes(':') && !config.host.startsWith('[') ? `[${config.host}]` : config.host)
  return new Set(names.map((name) => hostName(name)).filter((name): name is string => name !== null))
}

export function rebindingGuard(config: Pick<Config, 'publicBaseUrl' | 'issuer' | 'host' | 'corsAllowedOrigins'> & { mcp: Pick<Config['mcp'], 'allowedHosts'> }) {
  const anyHost = config.mcp.allowedHosts.includes('*')
  const hosts = configuredHosts(config)
  const origins = new Set([new URL(config.publicBaseUrl).origin, ...config.corsAllowedOrigins])
  return {
    /** Why this request is refused (403), or null. `url` supplies the host when no Host header came (a request made in-process). */
    check(request: Request): RebindingRefusal | null {
      const hostHeader = request.headers.get('host') ?? new URL(request.url).host
      const name = hostName(hostHeader)
      if (!anyHost && (name === null || !(hosts.has(name) || isLoopbackName(name)))) {
        return { error: 'HOST_NOT_ALLOWED', message: `the tool endpoint answers only this service's configured host names and loopback (Host ${JSON.stringify(hostHeader.slice(0, 100))} is neither); an operator adds names with MCP_ALLOWED_HOSTS` }
      }
      const origin = request.headers.get('origin')
      if (origin === null || origins.has(origin.toLowerCase())) return null
      if (sameLoopbackOrigin(origin, hostHeader)) return null
      return { error: 'ORIGIN_NOT_ALLOWED', message: `the tool endpoint answers pages of this service and of CORS_ALLOWED_ORIGINS only (Origin ${JSON.stringify(origin.slice(0, 100))} is neither)` }
    },
  }
}

/** A page served from this very loopback address and port (same origin as the request). */
function sameLoopbackOrigin(origin: string, hostHeader: string): boolean {
  let url: URL
  try {
    url = new URL(origin)
  } catch {
    return false
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin !== origin.toLowerCase()) return false
  const name = hostName(url.host)
  return name !== null && isLoopbackName(name) && url.host === hostHeader.toLowerCase()
}
