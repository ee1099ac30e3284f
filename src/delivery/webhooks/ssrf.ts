// The request-forgery guard: a webhook may only reach public addresses. The host is resolved at
// subscribe time and again before every delivery (a name may be re-pointed after subscribing),
// every address it resolves to must be public, and the delivery then connects to the checked
// address itself (see send.ts), so a second lookup cannot swap in a private one.
import { lookup } from 'node:dns/promises'
import { isIP } from 'node:net'

/** Why an address is refused, or null when it is public. */
export function forbiddenReason(address: string): string | null {
  const version = isIP(address)
  if (version === 4) return forbiddenV4(address.split('.').map(Number))
  if (version === 6) return forbiddenV6(address)
  return 'not an IP address'
}

function forbiddenV4([a, b, c]: number[]): string | null {
  if (a === undefined || b === undefined || c === undefined) return 'not an IP address'
  if (a === 0) return 'unspecified (0.0.0.0/8)'
  if (a === 127) return 'loopback'
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return 'private'
  if (a === 100 && b >= 64 && b <= 127) return 'shared address space (100.64.0.0/10)'
  if (a === 169 && b === 254) return c === 169 ? 'cloud metadata (169.254.169.254)' : 'link-local'
  if (a === 192 && b === 0 && (c === 0 || c === 2)) return 'reserved (192.0.0.0/24, 192.0.2.0/24)'
  if (a === 198 && (b === 18 || b === 19)) return 'benchmarking (198.18.0.0/15)'
  if ((a === 198 && b === 51 && c === 100) || (a === 203 && b === 0 && c === 113)) return 'documentation'
  if (a >= 224 && a <= 239) return 'multicast'
  if (a >= 240) return 'reserved (240.0.0.0/4)'
  return null
}

/** The eight 16-bit groups of an IPv6 address (an embedded dotted IPv4 tail is converted). */
function groupsOf(address: string): number[] {
  let text = address.toLowerCase().split('%')[0]!
  const dotted = text.match(/(\d+\.\d+\.\d+\.\d+)$/)
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split('.').map(Number) as [number, number, number, number]
    text = text.slice(0, -dotted[1]!.length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, null]
  const left = head ? head.split(':') : []
  const right = tail ? tail.split(':') : []
  const fill = tail === null ? [] : Array(8 - left.length - right.length).fill('0')
  return [...left, ...fill, ...right].map((group) => parseInt(group || '0', 16))
}

function forbiddenV6(address: string): string | null {
  const g = groupsOf(address)
  const first = g[0]!
  const zeroPrefix = (n: number) => g.slice(0, n).every((group) => group === 0)
  const v4 = () => [g[6]! >> 8, g[6]! & 0xff, g[7]! >> 8, g[7]! & 0xff]
  if (zeroPrefix(8)) return 'unspecified (::)'
  if (zeroPrefix(7) && g[7] === 1) return 'loopback (::1)'
  // IPv4-mapped (::ffff:a.b.c.d), IPv4-translated (::ffff:0:a.b.c.d), IPv4-compatible (::a.b.c.d)
  // and NAT64 (64:ff9b::/96) carry an IPv4 address.
  if ((zeroPrefix(5) && g[5] === 0xffff) || (zeroPrefix(4) && g[4] === 0xffff && g[5] === 0) || zeroPrefix(6)) return forbiddenV4(v4())
  if (first === 0x64 && g[1] === 0xff9b && zeroPrefix(0)) return forbiddenV4(v4())
  if (first === 0x2002) return forbiddenV4([g[1]! >> 8, g[1]! & 0xff, g[2]! >> 8])
  if ((first & 0xffc0) === 0xfe80) return 'link-local (fe80::/10)'
  if ((first & 0xffc0) === 0xfec0) return 'site-local (fec0::/10)'
  if ((first & 0xfe00) === 0xfc00) return 'unique-local (fc00::/7)'
  if ((first & 0xff00) === 0xff00) return 'multicast (ff00::/8)'
  if (first === 0x2001 && g[1] === 0xdb8) return 'documentation (2001:db8::/32)'
  return null
}

const LOOKUP_TIMEOUT_MS = 5000

export type TargetCheck = { ok: true; addresses: string[] } | { ok: false; reason: string }

/** The URL's host without IPv6 brackets. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1')
}

/**
 * Resolves the host and refuses it when any address is not public (unless private targets are
 * allowed). Addresses are returned in resolver order for the caller to connect to.
 */
export async function checkTarget(host: string, allowPrivate: boolean, resolve: typeof lookup = lookup): Promise<TargetCheck> {
  let addresses: string[]
  if (isIP(host)) addresses = [host]
  else {
    let timer: ReturnType<typeof setTimeout> | undefined
    try {
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(Object.assign(new Error('timeout'), { code: 'timed out' })), LOOKUP_TIMEOUT_MS)
      })
      addresses = (await Promise.race([resolve(host, { all: true, verbatim: true }), timeout])).map((entry) => entry.address)
    } catch (error) {
      return { ok: false, reason: `host ${host} does not resolve (${(error as { code?: string }).code ?? 'lookup failed'})` }
    } finally {
      clearTimeout(timer)
    }
    if (!addresses.length) return { ok: false, reason: `host ${host} has no address` }
  }
  if (!allowPrivate) {
    for (const address of addresses) {
      const reason = forbiddenReason(address)
      if (reason) return { ok: false, reason: `${host} resolves to ${address}: ${reason} addresses are not allowed` }
    }
  }
  return { ok: true, addresses }
}
