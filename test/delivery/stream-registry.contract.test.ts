// Per-key stream limits across nodes, on both backends: the registry of open streams keeps a key
// within its limit however many streams open at once on two "nodes" (two pools on PostgreSQL),
// always replacing the oldest and never the new one; streams of a node that stopped marking them
// alive stop counting. Through two StreamHubs: a new stream on node B at the key's limit ends
// the key's stream on node A with `replaced` (PostgreSQL: by notification; SQLite: at A's next
// refresh).
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { randomUUID } from 'node:crypto'
import { sqliteStreamRegistry, REFRESH_MS, STALE_MS, type StreamRegistry } from '../../src/delivery/stream/registry'
import { postgresStreamRegistry } from '../../src/delivery/stream/registry-postgres'
import { StreamHub } from '../../src/delivery/stream/hub'
import { forEachBackend } from '../helpers/backends'
import { testNodes, type TestNode } from '../helpers/nodes'
import { makeTestApp, type TestApp } from '../helpers/app'
import { issueKey } from '../../src/accounts/keys'
import { waitFor } from '../helpers/process'

let t: TestApp
/** The hash of a pro key: streams end when their key is not usable. */
let KEY: string
beforeAll(async () => {
  t = makeTestApp({ now: '2026-03-02T15:00:00.000Z' })
  KEY = (await issueKey(t.deps.accounts, { plan: 'pro', now: new Date(t.clock.now()) })).account.key_hash
})
afterAll(async () => {
  await t.deps.delivery.streams.closeAll()
})

const registryOf = (node: TestNode) => node.pick<StreamRegistry>({ sqlite: sqliteStreamRegistry, postgres: postgresStreamRegistry })

/** A stream's response as the route makes it: the frames it got and whether it ended. */
function client() {
  const frames: string[] = []
  let ended = false
  return {
    frames,
    get ended() {
      return ended
    },
    send(frame: Uint8Array) {
      frames.push(new TextDecoder().decode(frame))
      return !ended
    },
    end() {
      ended = true
    },
  }
}

forEachBackend('open streams registry', (fresh, backend) => {
  const nodeOf = testNodes()
  const hubs: StreamHub[] = []
  afterAll(async () => {
    await Promise.all(hubs.map((hub) => hub.closeAll()))
  })
  const twoNodes = async () => {
    const database = await fresh()
    return [nodeOf(database), nodeOf(database)] as const
  }
  const open = (node: TestNode, registry: StreamRegistry, name: string, limit: number, at = t.clock.now()) => {
    const id = randomUUID()
    return node.transactor.run(() => registry.open({ id, key_hash: KEY, mic: 'XNYS', node: name, opened_at: at }, limit, at - STALE_MS)).then((replaced) => ({ id, replaced }))
  }

  test('streams of one key opened at once on two nodes: the limit holds, each replaced once, never the new one', async () => {
    const [a, b] = await twoNodes()
    const registries = [registryOf(a), registryOf(b)]
    const opened = await Promise.all(Array.from({ length: 10 }, (_, i) => open(i % 2 ? a : b, registries[i % 2 ? 0 : 1]!, i % 2 ? 'node-a' : 'node-b', 3)))
    const replaced = opened.flatMap((result) => result.replaced.map((row) => row.id))
    expect(replaced).toHaveLength(7)
    expect(new Set(replaced).size).toBe(7)
    for (const result of opened) expect(result.replaced.map((row) => row.id)).not.toContain(result.id)
    const left = (await a.query<{ id: string }>(`SELECT id FROM open_streams WHERE key_hash = $1`, [KEY])).map((row) => row.id)
    expect(left).toHaveLength(3)
    expect(new Set([...left, ...replaced])).toEqual(new Set(opened.map((result) => result.id)))
  }, 30_000)

  test('the oldest is replaced; a dead node\'s streams stop counting; refresh tells a node which of its streams are gone', async () => {
    const [a, b] = await twoNodes()
    const [ra, rb] = [registryOf(a), registryOf(b)]
    const now = t.clock.now()
    const first = await open(a, ra, 'node-a', 2, now)
    const second = await open(b, rb, 'node-b', 2, now + 1)
    const third = await open(b, rb, 'node-b', 2, now + 2)
    expect(third.replaced).toEqual([{ id: first.id, node: 'node-a' }])
    expect(await ra.refresh('node-a', now + 3, now + 3 - STALE_MS)).toEqual([])
    expect((await rb.refresh('node-b', now + 3, now + 3 - STALE_MS)).sort()).toEqual([second.id, third.id].sort())
    // Node B dies (stops marking its streams); after STALE_MS they no longer count.
    const later = now + 3 + STALE_MS + 1
    const fourth = await open(a, ra, 'node-a', 2, later)
    expect(fourth.replaced).toEqual([])
    expect(await ra.refresh('node-a', later, later - STALE_MS)).toEqual([fourth.id])
    expect(await a.query(`SELECT count(*)::int AS n FROM open_streams`)).toEqual([{ n: 1 }])
    await ra.close(fourth.id)
    expect(await ra.refresh('node-a', later, later - STALE_MS)).toEqual([])
  })

  test('through two hubs: a new stream on node B at the limit ends the key\'s stream on node A with `replaced`', async () => {
    const [a, b] = await twoNodes()
    const [hubA, hubB] = [a, b].map((node, i) => new StreamHub({ ...t.deps, transactor: node.transactor }, registryOf(node), `node-${i}`))
    hubs.push(hubA!, hubB!)
    const onA = client()
    hubA!.attach(await hubA!.register('XNYS', KEY, 1), 'XNYS', KEY, onA, 1)
    await waitFor(() => onA.frames.some((frame) => frame.includes('event: market_status')), 5000, 'the first receipt on A')
    const onB = client()
    const id = await hubB!.register('XNYS', KEY, 1)
    const started = Date.now() // committed: from here node A is told
    hubB!.attach(id, 'XNYS', KEY, onB, 1)
    await waitFor(() => onA.ended, 3 * REFRESH_MS, 'the stream on A to end')
    const took = Date.now() - started
    // PostgreSQL tells node A at commit; SQLite's node A finds out at its next refresh.
    expect(took).toBeLessThan(backend === 'postgres' ? 250 : REFRESH_MS + 250)
    expect(onA.frames.at(-1)).toContain('event: replaced')
    expect(onA.frames.at(-1)).toContain('"limit":1')
    expect(onB.ended).toBe(false)
    expect(hubA!.openFor(KEY)).toBe(0)
    expect(hubB!.openFor(KEY)).toBe(1)
    // A burst of four more on both nodes at once, limit 2: two streams stay open in all.
    const burst = await Promise.all(Array.from({ length: 4 }, async (_, i) => {
      const hub = i % 2 ? hubA! : hubB!
      const sink = client()
      hub.attach(await hub.register('XNYS', KEY, 2), 'XNYS', KEY, sink, 2)
      return sink
    }))
    await waitFor(() => hubA!.openFor(KEY) + hubB!.openFor(KEY) === 2, 3 * REFRESH_MS, 'two streams left')
    expect([onB, ...burst].filter((sink) => !sink.ended)).toHaveLength(2)
    await Promise.all([hubA!.closeAll(), hubB!.closeAll()])
    expect(await a.query(`SELECT count(*)::int AS n FROM open_streams`)).toEqual([{ n: 0 }])
  }, 30_000)
})
