// The client address used for rate limits and allocations, as one canonical key per client:
// IPv4 in dotted decimal, IPv4-mapped IPv6 as its IPv4, other IPv6 as its /64 (one host usually
// holds a whole /64). By default it is the TCP peer; behind a proxy the operator names the one
// header the proxy sets (CLIENT_IP_HEADER), and no other forwarding header is trusted. A header
// value that is not an IP literal does not make a key of its own: the peer is used instead.
import { isIP } from 'node:net'

export const NO_ADDRESS = 'none'

/** The eight 16-bit groups of a valid IPv6 literal (embedded IPv4 tail allowed). */
function ipv6Groups(address: string): number[] | null {
  const [head, tail, extra] = address.split('::')
  if (extra !== undefined) return null
  const parse = (part: string | undefined): number[] | null => {
    if (!part) return []
    const groups: number[] = []
    for (const piece of part.split(':')) {
      if (piece.includes('.')) {
        const octets = piece.split('.').map(Number)
        groups.push((octets[0]! << 8) | octets[1]!, (octets[2]! << 8) | octets[3]!)
      } else groups.push(parseInt(piece, 16))
    }
    return groups
  }
  const front = parse(head)
  const back = parse(tail)
  if (!front || !back) return null
  const missing = 8 - front.length - back.length
  if (tail === undefined ? missing !== 0 : missing < 1) return null
  return [...front, ...Array<number>(tail === undefined ? 0 : missing).fill(0), ...back]
}

/** Folds an IPv6 literal to its /64 prefix, e.g. `2001:db8:1:2::/64`. */
export function foldIpv6(address: string): string | null {
  const groups = ipv6Groups(address)
  return groups ? groups.slice(0, 4).map((group) => group.toString(16)).join(':') + '::/64' : null
}

/** The canonical key of one textual IP address, or null when the text is not an IP literal. */
export function canonicalAddress(raw: string | null | undefined): string | null {
  const value = raw?.trim().toLowerCase()
  if (!value) return null
  const unbracketed = value.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '')
  const kind = isIP(unbracketed)
  if (kind === 4) return unbracketed
  if (kind !== 6) return null
  const groups = ipv6Groups(unbracketed)
  if (!groups) return null
  // ::ffff:a.b.c.d (in either notation) is an IPv4 client seen through a dual-stack socket.
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255].join('.')
  }
  return foldIpv6(unbracketed)
}

/** canonicalAddress, with `none` for anything that is not an address (kept for callers that need a key). */
export function normaliseAddress(raw: string | null | undefined): string {
  return canonicalAddress(raw) ?? NO_ADDRESS
}

export interface PeerSource {
  requestIP(request: Request): { address: string } | null
}

/**
 * With a header configured, its first value (a repeated header arrives joined with commas)
 * when that is an IP literal, else the TCP peer; with none configured, the TCP peer.
 */
export function clientAddress(request: Request, header: string | null, server: PeerSource | null): string {
  if (header) {
    const fromHeader = canonicalAddress(request.headers.get(header)?.split(',')[0])
    if (fromHeader) return fromHeader
  }
  return canonicalAddress(server?.requestIP(request)?.address) ?? NO_ADDRESS
}
