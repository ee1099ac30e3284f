// Two real nodes on one PostgreSQL database: one signing key (a node with another is refused,
// naming both key ids), and overrides and halts set on one node (or by the CLI) in force on the
// other within a second. Measured on the receipts themselves: every receipt a node signs more
// than 1 s after the change was made elsewhere must carry it. Both nodes run on a clock set inside
// an XNYS session (halt polling runs only then).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { Pair, PUBLIC_KEY_ID, inSession, keyed, offsetTo, type Node } from '../helpers/two-nodes'
import { freePort, SLOW_SETUP_MS } from '../helpers/process'
import { tempDir, TEST_ADMIN_KEY } from '../helpers/app'
import { startClusterFirst } from '../helpers/postgres'
import { issueKey } from '../../src/accounts/keys'
import { postgresAccountStore } from '../../src/accounts/store-postgres'

startClusterFirst()

const AT = inSession('XNYS', 1)
let pair: Pair
let key: string
let feedState = 'open'
const feed = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => Response.json({ exchanges: { nyse: feedState, nasdaq: 'open' } }) })

beforeAll(async () => {
  pair = await Pair.start({ clockOffsetMs: offsetTo(new Date(AT).toISOString()), env: { HALT_FEED_URL: `http://127.0.0.1:${feed.port}/status`, HALT_FEED_FORMAT: 'json', HALT_FEED_INTERVAL: '5' } })
  key = (await issueKey(postgresAccountStore(pair.database.sql), { plan: 'pro', now: new Date() })).key
}, SLOW_SETUP_MS)
const samplers: { stop(): Promise<unknown> }[] = []
afterAll(async () => {
  await Promise.all(samplers.map((sampling) => sampling.stop()))
  await pair?.stop()
  feed.stop(true)
})

interface Sample {
  node: string
  status: string
  source: string
  issued: number
}

/** Asks each node for XNYS receipts back to back until stopped; what they answered, in order. */
function sampler(nodes: Node[]) {
  const samples: Sample[] = []
  let running = true
  const loops = nodes.map(async (node) => {
    while (running) {
      try {
        const response = await fetch(`${node.base}/v5/status?mic=XNYS`, { headers: keyed(key) })
        const body = (await response.json()) as { status: string; source: string; issued_at: string }
        if (response.status === 200) samples.push({ node: node.id, status: body.status, source: body.source, issued: Date.parse(body.issued_at) })
      } catch (error) {
        if (running) throw error
      }
    }
  })
  const sampling = {
    samples,
    /** Waits until every node has signed a receipt at least `ms` after `instant` (node clock). */
    async until(instant: number, ms = 1500) {
      const deadline = Date.now() + 20_000
      while (!nodes.every((node) => samples.some((sample) => sample.node === node.id && sample.issued >= instant + ms))) {
        if (Date.now() > deadline) throw new Error('the nodes stopped answering')
        await Bun.sleep(20)
      }
    },
    async stop() {
      running = false
      await Promise.all(loops)
      return samples
    },
  }
  samplers.push(sampling)
  return sampling
}

/**
 * Checks that every receipt of `node` signed more than 1 s after `since` (and before the next
 * change was asked for, `nextChange`) says `status`, and
 * returns how long after `since` its first one saying it was signed (the propagation measured).
 */
function applied(samples: Sample[], node: Node, since: number, status: string, nextChange = Infinity): number {
  const after = samples.filter((sample) => sample.node === node.id && sample.issued > since && sample.issued < nextChange)
  const late = after.filter((sample) => sample.issued > since + 1000 && sample.status !== status)
  expect(late).toEqual([])
  const first = after.find((sample) => sample.status === status)
  expect(first).toBeDefined()
  return first!.issued - since
}

/** A third node of the pair with `env`, expected to refuse to start (killed after 45 s if it does start). */
async function startRefused(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const child = Bun.spawn(['bun', join(import.meta.dir, '../../src/main.ts')], { env: { ...process.env, ...pair.env('node-c', { PORT: String(freePort()), HOST: '127.0.0.1', HALT_FEED_URL: 'off', ...env }) }, stdout: 'ignore', stderr: 'pipe' })
  const timer = setTimeout(() => child.kill('SIGKILL'), 45_000)
  const [code, stderr] = await Promise.all([child.exited, new Response(child.stderr).text()])
  clearTimeout(timer)
  return { code, stderr }
}

describe('signing and shared state on two nodes', () => {
  test('both nodes run on PostgreSQL with one signing key: /v5/keys is the same on each', async () => {
    const storage = await Promise.all(pair.nodes.map((node) => pair.storage(node)))
    expect(storage.map((s) => [s.backend, s.node_id, s.status])).toEqual([
      ['postgres', 'node-a', 'ok'],
      ['postgres', 'node-b', 'ok'],
    ])
    const [keysA, keysB] = await Promise.all(pair.nodes.map(async (node) => (await fetch(`${node.base}/v5/keys`)).text()))
    expect(keysA).toBe(keysB!)
    expect(JSON.parse(keysA!).keys.map((k: { key_id: string }) => k.key_id)).toEqual([PUBLIC_KEY_ID])
    const [receiptA, receiptB] = await Promise.all(pair.nodes.map(async (node) => (await fetch(`${node.base}/v5/status?mic=XNYS`, { headers: keyed(key) })).json()))
    for (const receipt of [receiptA, receiptB]) {
      const verified = await (await pair.fetch('/v5/verify', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ receipt }) })).json()
      expect(verified).toMatchObject({ valid: true })
    }
  })

  test('a node with another signing key refuses to start naming both key ids; so does one with the same key under another id', async () => {
    const otherKey = join(tempDir('openbell-test-otherkey-'), 'signing-key.hex')
    writeFileSync(otherKey, randomBytes(32).toString('hex'), { mode: 0o600 })
    // Both at once: a start takes several seconds on a busy machine.
    const [other, renamed] = await Promise.all([startRefused({ SIGNING_KEY_FILE: otherKey, PUBLIC_KEY_ID: 'key_other_v1' }), startRefused({ PUBLIC_KEY_ID: 'key_renamed_v1' })])
    expect(other.code).toBe(2)
    expect(other.stderr).toContain('cannot start')
    expect(other.stderr).toContain('this node signs with key key_other_v1')
    expect(other.stderr).toContain(`the database records key ${PUBLIC_KEY_ID}`)
    // The same seed under another id: receipts and /v5/keys would name another key id.
    expect(renamed.code).toBe(2)
    expect(renamed.stderr).toContain('this node signs with key key_renamed_v1')
    expect(renamed.stderr).toContain(`the database records key ${PUBLIC_KEY_ID}`)
  }, 60_000)

  test('an override set on one node is in force on the other within 1 s, and so is its clearing', async () => {
    const sampling = sampler([pair.b])
    await sampling.until(0, 0)
    const set = await fetch(`${pair.a.base}/v5/admin/overrides`, { method: 'POST', headers: { 'x-oracle-key': TEST_ADMIN_KEY, 'content-type': 'application/json' }, body: JSON.stringify({ mic: 'XNYS', status: 'HALTED', reason: 'two-node test', expires_at: new Date(AT + 86_400_000).toISOString() }) })
    expect(set.status).toBe(201)
    const since = Date.parse(((await set.json()) as { override: { created_at: string } }).override.created_at)
    await sampling.until(since)
    const clearAsked = Date.now() + pair.a.clockOffsetMs!
    const cleared = await fetch(`${pair.a.base}/v5/admin/overrides/XNYS`, { method: 'DELETE', headers: { 'x-oracle-key': TEST_ADMIN_KEY } })
    expect(cleared.status).toBe(204)
    // The clearing was committed before its answer: at the latest at this instant of the nodes' clock.
    const clearedBy = Date.now() + pair.a.clockOffsetMs!
    await sampling.until(clearedBy)
    const samples = await sampling.stop()
    const setMs = applied(samples, pair.b, since, 'HALTED', clearAsked)
    const clearMs = applied(samples, pair.b, clearedBy, 'OPEN')
    console.log(`override propagation to the other node: set ${setMs} ms, clear ≤ ${clearMs} ms after its answer`)
  }, 60_000)

  test('an override set by the CLI is in force on both nodes within 1 s', async () => {
    const sampling = sampler(pair.nodes)
    await sampling.until(0, 0)
    const set = await pair.cli(['overrides', 'set', 'XNYS', 'CLOSED', '--reason', 'cli on two nodes', '--for', '1h', '--actor', 'nodes-test'])
    expect(set).toMatchObject({ code: 0 })
    const [row] = await pair.database.sql`SELECT created_at FROM overrides WHERE mic = 'XNYS'`
    const since = Date.parse((row as { created_at: string }).created_at)
    await sampling.until(since)
    const clearAsked = Date.now() + pair.a.clockOffsetMs!
    expect((await pair.cli(['overrides', 'clear', 'XNYS', '--actor', 'nodes-test'])).code).toBe(0)
    const clearedBy = Date.now() + pair.a.clockOffsetMs!
    await sampling.until(clearedBy)
    const samples = await sampling.stop()
    for (const node of pair.nodes) {
      const setMs = applied(samples, node, since, 'CLOSED', clearAsked)
      const clearMs = applied(samples, node, clearedBy, 'OPEN')
      console.log(`CLI override on ${node.id}: set ${setMs} ms, clear ≤ ${clearMs} ms`)
    }
  }, 60_000)

  test('a halt seen by the polling node is in force on the other within 1 s', async () => {
    const storage = await Promise.all(pair.nodes.map((node) => pair.storage(node)))
    const pollers = storage.filter((s) => s.leader_of.includes('halt-poller'))
    expect(pollers).toHaveLength(1)
    const follower = pair.nodes.find((node) => node.id !== pollers[0]!.node_id)!
    const sampling = sampler(pair.nodes)
    await sampling.until(0, 0)
    feedState = 'halted'
    // The poller polls every 5 s; `since` of the halt is the instant of the poll that saw it.
    let since = 0
    const deadline = Date.now() + 20_000
    while (!since) {
      const [row] = await pair.database.sql`SELECT snapshot FROM halt_state WHERE id = 1`
      const halt = row ? (JSON.parse((row as { snapshot: string }).snapshot) as { halts: Record<string, { since: string }> }).halts.XNYS : undefined
      if (halt) since = Date.parse(halt.since)
      else if (Date.now() > deadline) throw new Error('the halt was not published')
      else await Bun.sleep(50)
    }
    await sampling.until(since)
    feedState = 'open'
    const samples = await sampling.stop()
    expect(samples.filter((sample) => sample.status === 'HALTED').every((sample) => sample.source === 'REALTIME')).toBe(true)
    const ms = applied(samples, follower, since, 'HALTED')
    console.log(`halt propagation from the polling node to ${follower.id}: ${ms} ms after the poll`)
  }, 60_000)
})
