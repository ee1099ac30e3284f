// The request-forgery guard: a webhook may only reach public addresses on an allowed port. The
// host is resolved at subscribe time and again before every delivery (a name may be re-pointed
// after subscribing), every address it resolves to must be public, and the delivery then connects
// to the checked address itself (see send.ts), so a second lookup cannot swap in a private one.
// Which addresses are not public: the one table in special-addresses.ts (its sources and date).
import { lookup } from 'node:dns/promises'
import { isIP } from 'node:net'
import { GUARD_BLOCKS, type GuardBlock } from './special-addresses'

interface CompiledBlock {
  entry: GuardBlock
  bits: 32 | 128
  length: number
  base: bigint
}

/** An IPv4 address as a 32-bit number, or null. */
function v4Number(address: string): bigint | null {
  if (isIP(address) !== 4) return null
  return address.split('.').reduce((value, part) => (value << 8n) | BigInt(Number(part)), 0n)
}

/** An IPv6 address (zone dropped, a dotted IPv4 tail converted) as a 128-bit number, or null. */
function v6Number(address: string): bigint | null {
  let text = address.toLowerCase().split('%')[0]!
  if (isIP(text) !== 6) return null
  const dotted = text.match(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/)
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number]
    text = text.slice(0, -dotted[0].length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, null]
  const left = head ? head.split(':') : []
  const right = tail ? tail.split(':') : []
  const groups = [...left, ...Array(tail === null ? 0 : 8 - left.length - right.length).fill('0'), ...right]
  return groups.reduce((value, group) => (value << 16n) | BigInt(parseInt(group || '0', 16)), 0n)
}

function compile(entry: GuardBlock): CompiledBlock {
  const [address, length] = entry.block.split('/') as [string, string]
  const v4 = v4Number(address)
  const base = v4 ?? v6Number(address)
  if (base === null) throw new Error(`bad block ${entry.block}`)
  return { entry, bits: v4 === null ? 128 : 32, length: Number(length), base }
}

/** Most specific first, so that the longest matching prefix decides. */
const BLOCKS = GUARD_BLOCKS.map(compile).sort((a, b) => b.length - a.length)

const within = (value: bigint, bits: number, block: CompiledBlock) => block.bits === bits && value >> BigInt(bits - block.length) === block.base >> BigInt(bits - block.length)

/** The most specific listed block holding the address, or null. */
function blockOf(value: bigint, bits: 32 | 128): CompiledBlock | null {
  return BLOCKS.find((block) => within(value, bits, block)) ?? null
}

const describe = (block: CompiledBlock) => `${block.entry.name} (${block.entry.block})`

function forbiddenV4(value: bigint): string | null {
  const block = blockOf(value, 32)
  return block ? describe(block) : null
}

function forbiddenV6(value: bigint): string | null {
  const block = blockOf(value, 128)
  if (!block) return null
  if (block.entry.rule === 'embedded') {
    const inner = forbiddenV4(value & 0xffffffffn)
    return inner ? `${inner} in the ${block.entry.name} form (${block.entry.block})` : null
  }
  return describe(block)
}

/** Why an address is refused, or null when it is public. */
export function forbiddenReason(address: string): string | null {
  const v4 = v4Number(address)
  if (v4 !== null) return forbiddenV4(v4)
  const v6 = v6Number(address)
  if (v6 !== null) return forbiddenV6(v6)
  return 'not an IP address'
}

/** Ports a webhook may use: 443, or 1024 to 65535 (below 1024 are other services: SSH, SMTP, DNS…). */
export function forbiddenPort(url: URL): string | null {
  const port = url.port === '' ? 443 : Number(url.port)
  return port === 443 || (port >= 1024 && port <= 65535) ? null : `port ${port} is not allowed: use 443 or a port from 1024 to 65535`
}

const LOOKUP_TIMEOUT_MS = 5000

/** `reason` is the operator's detail (it names the resolved address); `kind` says what was refused. */
export type TargetCheck = { ok: true; addresses: string[] } | { ok: false; kind: 'port' | 'address'; reason: string }

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
      return { ok: false, kind: 'address', reason: `host ${host} does not resolve (${(error as { code?: string }).code ?? 'lookup failed'})` }
    } finally {
      clearTimeout(timer)
    }
    if (!addresses.length) return { ok: false, kind: 'address', reason: `host ${host} has no address` }
  }
  if (!allowPrivate) {
    for (const address of addresses) {
      const reason = forbiddenReason(address)
      if (reason) return { ok: false, kind: 'address', reason: `${host} resolves to ${address}: ${reason} addresses are not allowed` }
    }
  }
  return { ok: true, addresses }
}

/** The whole check of a webhook URL: its port, then its host as checkTarget makes it. */
export async function checkUrl(url: URL, allowPrivate: boolean, resolve: typeof lookup = lookup): Promise<TargetCheck> {
  const port = forbiddenPort(url)
  if (port) return { ok: false, kind: 'port', reason: port }
  return checkTarget(hostOf(url), allowPrivate, resolve)
}
