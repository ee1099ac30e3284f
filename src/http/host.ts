// The Host header (RFC 9112 3.2, RFC 3986 3.2.2). Bun builds request.url from Host and the
// request line; when Host is empty or not a host it gives a relative URL ("/path"), and with no
// Host at all an HTTP/1.0 request also arrives with a relative URL. Elysia then cuts the path out
// of that URL at a fixed offset (docs/operations.md, "The Host header"), so a bad Host could move
// the routed path. Such requests are refused before routing.
import { isIP } from 'node:net'

/** host [":" port]: a bracketed IPv6 literal, or a name/IPv4 of unreserved characters. */
const HOST_FORM = /^(?:\[([0-9A-Fa-f:.]{2,45})\]|[A-Za-z0-9._~-]{1,253})(?::(\d{1,5}))?$/

/** Why the Host of this request is not usable, or null when it is. */
export function hostProblem(host: string | null, url: string): string | null {
  if (host === null) {
    // No Host header: a Request made in-process (app.handle) carries its host in an absolute
    // URL; a server request without Host (HTTP/1.0) arrives with a relative one.
    return url.charCodeAt(0) === 47 ? 'a Host header is required' : null
  }
  const match = HOST_FORM.exec(host)
  if (!match) return host === '' ? 'the Host header is empty' : 'the Host header is not a host name, IPv4 address or bracketed IPv6 address with an optional port'
  if (match[1] !== undefined && isIP(match[1]) !== 6) return 'the bracketed Host is not an IPv6 address'
  if (match[2] !== undefined && Number(match[2]) > 65535) return 'the port in the Host header is over 65535'
  // Bun could not make an absolute URL of it (belt and braces: the form above should rule that out).
  if (url.charCodeAt(0) === 47) return 'the Host header is not usable'
  return null
}

/** The path of the request line when Bun gave a relative URL (only for requests refused here). */
export function relativePath(url: string): string | null {
  if (url.charCodeAt(0) !== 47) return null
  const query = url.indexOf('?')
  return query < 0 ? url : url.slice(0, query)
}
