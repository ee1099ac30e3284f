// The client address used for rate limits and allocations. Behind an edge network the address
// comes from exactly one header (no other forwarding header is trusted); IPv6 addresses are
// folded to their /64, since one host usually holds a whole /64.
import { isIP } from 'node:net'

export const NO_ADDRESS = 'none'

export function foldIpv6(address: string): string | null {
  const [head, tail, extra] = address.split('::')
  if (extra !== undefined) return null
  const headGroups = head ? head.split(':') : []
  const tailGroups = tail ? tail.split(':') : []
  // An embedded IPv4 tail stands for two groups.
  const last = (tail !== undefined ? tailGroups : headGroups).at(-1)
  const embedded = last !== undefined && last.includes('.') ? 1 : 0
  const missing = 8 - headGroups.length - tailGroups.length - embedded
  if (tail === undefined ? missing !== 0 : missing < 1) return null
  const groups = [...headGroups, ...Array<string>(tail === undefined ? 0 : missing).fill('0'), ...tailGroups]
  return groups.slice(0, 4).map((group) => parseInt(group, 16).toString(16)).join(':') + '::/64'
}

/** Normalises one textual address: IPv4 as is, IPv4-mapped IPv6 as IPv4, IPv6 as its /64. */
export function normaliseAddress(raw: string | null | undefined): string {
  const value = raw?.trim().toLowerCase()
  if (!value) return NO_ADDRESS
  const unbracketed = value.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '')
  const kind = isIP(unbracketed)
  if (kind === 4) return unbracketed
  if (kind === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(unbracketed)
    if (mapped) return mapped[1]!
    return foldIpv6(unbracketed) ?? unbracketed
  }
  // Not an address: count it under its own (bounded) text rather than failing.
  return value.slice(0, 64)
}

export interface PeerSource {
  requestIP(request: Request): { address: string } | null
}

/**
 * With a header configured, only that header counts and a missing header is the single key
 * `none`; with none configured (empty CLIENT_IP_HEADER), the TCP peer address.
 */
export function clientAddress(request: Request, header: string | null, server: PeerSource | null): string {
  if (header) return normaliseAddress(request.headers.get(header))
  return normaliseAddress(server?.requestIP(request)?.address)
}
