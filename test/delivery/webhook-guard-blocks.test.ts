// The request-forgery guard, block by block: every address range below must be refused, at the
// guard's public functions (forbiddenReason for an address, checkTarget for a name as subscribing
// and every delivery resolve it) and at the subscribe surface with the address as a URL literal.
// Each block is probed at both of its edges, and IPv4 neighbours just outside a block are
// accepted, so a block that shrank or grew is noticed. No connection is made: refused targets are
// never dialled, and the resolver is the test's own.
import { beforeAll, describe, expect, test } from 'bun:test'
import { checkTarget, forbiddenReason } from '../../src/delivery/webhooks/ssrf'
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
]

/** Just outside the IPv4 blocks above: ordinary public addresses. */
const ACCEPTED = ['172.15.255.255', '172.32.0.0', '100.63.255.255', '100.128.0.0', '198.17.255.255', '198.20.0.0', '223.255.255.254', '2001:4860:4860::8888']

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
})
