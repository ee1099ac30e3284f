// The request-forgery guard, block by block: every address range below must be refused, at the
// guard's public functions (forbiddenReason for an address, checkTarget for a name as subscribing
// and every delivery resolve it) and at the subscribe surface with the address as a URL literal.
// Each block is probed at both of its edges, and IPv4 neighbours just outside a block are
// accepted, so a block that shrank or grew is noticed. No connection is made: refused targets are
// never dialled, and the resolver is the test's own.
import { beforeAll, describe, expect, test } from 'bun:test'
import { docSection } from '../helpers/doc-sections'
import { checkTarget, checkUrl, forbiddenPort, forbiddenReason } from '../../src/delivery/webhooks/ssrf'
import { GUARD_BLOCKS, guardTable } from '../../src/delivery/webhooks/special-addresses'
import { makeTestApp, type TestApp } from '../helpers/app'
import { issueKey } from '../../src/accounts/keys'

/** [block, addresses in it (first and last where it matters)]. */
const REFUSED: [string, string[]][] = [
  ['172.16.0.0/12 (private)', ['172.16.0.0', '172.16.0.1', '172.20.10.5', '172.31.255.255']],
  ['100.64.0.0/10 (shared address space)', ['100.64.0.0', '100.64.0.1', '100.100.100.200', '100.127.255.255']],
  ['198.18.0.0/15 (benchmarking)', ['198.18.0.0', '198.18.0.1', '198.19.255.255']],
  ['224.0.0.0/4 (multicast)', ['224.0.0.0', '224.0.0.251', '239.255.255.250', '239.255.255.255']],
  ['240.0.0.0/4 (reserved, and the limited broadcast)', ['240.0.0.0', '240.0.0.1', '254.255.255.255', '255.255.255.255']],
  ['2002::/16 (6to4) wrapping 169.254.169.254 (cloud metadata)', ['2002:a9fe:a9fe::', '2002:a9fe:a9fe::1', '2002:a9fe:a9fe:ffff:ffff:ffff:ffff:ffff']],
  ['2002::/16 (6to4) wrapping loopback, private and link-local IPv4', ['2002:7f00:1::1', '2002:a00:1::1', '2002:c0a8:101::1', '2002:a9fe:1::1', '2002:ac10:1::1']],
  ['fe80::/10 (link-local)', ['fe80::', 'fe80::1', 'fe80::1%eth0', 'fe9a::1', 'febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff']],
  ['fec0::/10 (site-local)', ['fec0::', 'fec0::1', 'fed0::5', 'feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff']],
  ['ff00::/8 (IPv6 multicast)', ['ff02::1', 'ff05::1:3', 'ff0e::101']],
  // Issue 24 item 3: the rest of both IANA special-purpose registries (src/delivery/webhooks/special-addresses.ts).
  ['2001::/32 (Teredo), refused whole even around a public IPv4', ['2001::', '2001:0:4136:e378:8000:63bf:3fff:fdd2', '2001:0:ffff:ffff:ffff:ffff:ffff:ffff']],
  ['2001::/23 (IETF protocol assignments), to its last address', ['2001:1::1', '2001:1::2', '2001:1::3', '2001:2::1', '2001:3::1', '2001:4:112::1', '2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff']],
  ['2001:10::/28 (deprecated ORCHID)', ['2001:10::', '2001:1f:ffff:ffff:ffff:ffff:ffff:ffff']],
  ['2001:20::/28 (ORCHIDv2) and 2001:30::/28 (drone entity tags)', ['2001:20::', '2001:2f:ffff:ffff:ffff:ffff:ffff:ffff', '2001:30::1', '2001:3f:ffff:ffff:ffff:ffff:ffff:ffff']],
  ['192.88.99.0/24 (deprecated 6to4 relay anycast)', ['192.88.99.0', '192.88.99.1', '192.88.99.2', '192.88.99.255']],
  ['100::/64 (discard-only) and 100:0:0:1::/64 (dummy prefix)', ['100::', '100::ffff:ffff:ffff:ffff', '100:0:0:1::', '100:0:0:1:ffff:ffff:ffff:ffff']],
  ['2002::/16 (6to4), refused whole even around a public IPv4', ['2002:808:808::1', '2002:5db8:d70e::1', '2002:ffff:ffff:ffff:ffff:ffff:ffff:ffff']],
  ['192.0.0.0/24 (IETF protocol assignments, anycast and discovery)', ['192.0.0.0', '192.0.0.8', '192.0.0.9', '192.0.0.10', '192.0.0.170', '192.0.0.171', '192.0.0.255']],
  ['AS112 and AMT (IPv4 and IPv6)', ['192.31.196.0', '192.31.196.255', '192.52.193.1', '192.175.48.0', '192.175.48.255', '2620:4f:8000::', '2620:4f:8000:ffff:ffff:ffff:ffff:ffff']],
  ['NAT64 local-use 64:ff9b:1::/48, and the well-known prefix around a private IPv4', ['64:ff9b:1::', '64:ff9b:1::808:808', '64:ff9b:1:ffff:ffff:ffff:ffff:ffff', '64:ff9b::a00:1', '64:ff9b::7f00:1', '64:ff9b::a9fe:a9fe']],
  ['3fff::/20 (documentation) and 5f00::/16 (SRv6)', ['3fff::', '3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff', '5f00::', '5f00:ffff:ffff:ffff:ffff:ffff:ffff:ffff']],
  ['IPv6 outside 2000::/3 (IPv4-compatible, IPv4-translated, unallocated space)', ['::8.8.8.8', '::ffff:0:808:808', '::2', '1fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', '4000::', '8000::1', 'e000::1']],
  ['0.0.0.0/8 and 255.255.255.255', ['0.0.0.0', '0.255.255.255', '255.255.255.255']],
]

/** Just outside the IPv4 blocks above: ordinary public addresses. */
const ACCEPTED = [
  '172.15.255.255', '172.32.0.0', '100.63.255.255', '100.128.0.0', '198.17.255.255', '198.20.0.0', '223.255.255.254', '2001:4860:4860::8888',
  '192.88.98.255', '192.88.100.0', '192.0.1.0', '192.31.195.255', '192.31.197.0', '192.175.49.0', '1.0.0.0',
  // Just past 2001::/23, 2001:db8::/32, 2620:4f:8000::/48 and 3fff::/20; the first and last of 2000::/3.
  '2001:200::1', '2001:db9::1', '2620:4f:8001::', '3fff:1000::1', '2000::1', '3fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', '2606:4700:4700::1111',
  // The IPv4-mapped and well-known NAT64 forms of a public IPv4 address are that address.
  '::ffff:8.8.8.8', '::ffff:808:808', '64:ff9b::808:808', '64:ff9b::8.8.8.8',
]

const NAME = 'hook.example.test'
const resolvingTo = (address: string) => (async () => [{ address, family: address.includes(':') ? 6 : 4 }]) as never

describe('the guard refuses each block (forbiddenReason, checkTarget)', () => {
  for (const [block, addresses] of REFUSED) {
    test(block, async () => {
      for (const address of addresses) {
        expect([address, forbiddenReason(address)]).toEqual([address, expect.any(String)])
        // A name that resolves to it, as checked at subscribe time and before every delivery.
        const checked = await checkTarget(NAME, false, resolvingTo(address))
        expect([address, checked.ok]).toEqual([address, false])
        // The same target with the guard lifted: the refusal above is the guard's, not the resolver's.
        expect((await checkTarget(NAME, true, resolvingTo(address))).ok).toBe(true)
      }
    })
  }

  test('addresses just outside those blocks are public', async () => {
    for (const address of ACCEPTED) {
      expect([address, forbiddenReason(address)]).toEqual([address, null])
      expect(await checkTarget(NAME, false, resolvingTo(address))).toEqual({ ok: true, addresses: [address] })
    }
  })
})

test('docs/delivery.md carries the guard table as generated from the code', () => {
  expect(docSection('delivery.md', 'guard-table')).toBe(guardTable())
  // Every record of both IANA special-purpose registries is in it (spot check of the newest ones).
  for (const block of ['100:0:0:1::/64', '2001:1::3/128', '3fff::/20', '5f00::/16', '2001:30::/28', '192.88.99.2/32', '192.0.0.171/32']) expect(GUARD_BLOCKS.map((entry) => entry.block)).toContain(block)
})

describe('ports: 443 and 1024–65535 only', () => {
  test('forbiddenPort', () => {
    for (const port of ['', ':443', ':1024', ':8443', ':65535']) expect([port, forbiddenPort(new URL(`https://hook.example.test${port}/x`))]).toEqual([port, null])
    for (const port of [':0', ':1', ':22', ':25', ':80', ':444', ':1023']) expect([port, forbiddenPort(new URL(`https://hook.example.test${port}/x`))]).toEqual([port, expect.stringContaining('not allowed')])
  })

  test('checkUrl refuses the port before resolving, even with the address guard lifted', async () => {
    let lookups = 0
    const counting = (async () => {
      lookups++
      return [{ address: '93.184.215.14', family: 4 }]
    }) as never
    expect(await checkUrl(new URL('https://hook.example.test:25/x'), true, counting)).toEqual({ ok: false, kind: 'port', reason: 'port 25 is not allowed: use 443 or a port from 1024 to 65535' })
    expect(lookups).toBe(0)
    expect(await checkUrl(new URL('https://hook.example.test:8443/x'), false, counting)).toEqual({ ok: true, addresses: ['93.184.215.14'] })
    expect(lookups).toBe(1)
  })
})

describe('the subscribe surface refuses each block as a URL literal', () => {
  let t: TestApp
  let key: string
  beforeAll(async () => {
    t = makeTestApp()
    expect(t.config.delivery.allowPrivateTargets).toBe(false)
    key = (await issueKey(t.deps.accounts, { plan: 'pro', now: new Date(t.clock.now()) })).key
  })

  test('400 WEBHOOK_TARGET_FORBIDDEN for every address, and nothing is stored', async () => {
    for (const [, addresses] of REFUSED) {
      for (const address of addresses.filter((address) => !address.includes('%'))) {
        const url = address.includes(':') ? `https://[${address}]/hook` : `https://${address}/hook`
        const answer = await t.json('/v5/webhooks/subscribe', { method: 'POST', headers: { 'x-oracle-key': key, 'content-type': 'application/json' }, body: JSON.stringify({ url, mics: ['XNYS'] }) })
        expect([url, answer.status, answer.body.error]).toEqual([url, 400, 'WEBHOOK_TARGET_FORBIDDEN'])
      }
    }
    expect(t.db.query('SELECT count(*) AS n FROM webhooks').get()).toEqual({ n: 0 })
  })

  test('a port below 1024 other than 443 is 400 WEBHOOK_TARGET_FORBIDDEN; 443 and 1024–65535 are stored (a resolver the test controls answers a public address)', async () => {
    t.deps.delivery.sender.resolve = (async () => [{ address: '93.184.215.14', family: 4 }]) as never
    const subscribe = (url: string) => t.json('/v5/webhooks/subscribe', { method: 'POST', headers: { 'x-oracle-key': key, 'content-type': 'application/json' }, body: JSON.stringify({ url, mics: ['XNYS'] }) })
    for (const port of [0, 22, 25, 80, 1023]) {
      const answer = await subscribe(`https://hook.example.test:${port}/x`)
      expect([port, answer.status, answer.body.error, answer.body.message]).toEqual([port, 400, 'WEBHOOK_TARGET_FORBIDDEN', `port ${port} is not allowed: use 443 or a port from 1024 to 65535`])
    }
    expect(t.db.query('SELECT count(*) AS n FROM webhooks').get()).toEqual({ n: 0 })
    for (const url of ['https://hook.example.test/x', 'https://hook.example.test:443/x', 'https://hook.example.test:1024/x', 'https://hook.example.test:65535/x']) expect([url, (await subscribe(url)).status]).toEqual([url, 200])
    // A subscription stored with a refused port (before this rule) is refused at delivery, without a connection.
    t.db.query('UPDATE webhooks SET url = ? WHERE url = ?').run('https://hook.example.test:25/x', 'https://hook.example.test:1024/x')
    const attempt = await t.deps.delivery.sender.send({ url: 'https://hook.example.test:25/x', secret: 'whsec_' + Buffer.alloc(32, 1).toString('base64') }, 'msg_port', '{}', t.clock.now())
    expect(attempt).toMatchObject({ delivered: false, statusCode: 0, error: 'target_forbidden', detail: 'target refused: port 25 is not allowed: use 443 or a port from 1024 to 65535' })
  })
})
