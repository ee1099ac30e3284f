// The tool endpoint's store on both backends: usage figures added from several nodes, the salt
// made once, and the anonymous allowance exact under a burst spread over two nodes (two pools on
// PostgreSQL), through the store and through AnonymousAllowance as the nodes share it.
import { expect, test } from 'bun:test'
import { sqliteMcpStore, type McpStore } from '../../src/mcp/store'
import { postgresMcpStore } from '../../src/mcp/store-postgres'
import { AnonymousAllowance } from '../../src/mcp/allowance'
import { memoryLogger } from '../../src/log'
import { forEachBackend } from '../helpers/backends'
import { testNodes } from '../helpers/nodes'
import { FakeClock } from '../helpers/app'

const NOW = Date.parse('2026-11-25T12:00:00.000Z')
const DAY = '2026-11-25'

forEachBackend('tool endpoint store', (fresh) => {
  const nodeOf = testNodes()
  const twoStores = async () => {
    const backend = await fresh()
    return [nodeOf(backend), nodeOf(backend)].map((node) => node.pick<McpStore>({ sqlite: sqliteMcpStore, postgres: postgresMcpStore })) as [McpStore, McpStore]
  }

  test('one salt for every node; usage figures from several nodes add up; distinct clients counted once', async () => {
    const [a, b] = await twoStores()
    const [saltA, saltB] = await Promise.all([a.salt(), b.salt()])
    expect(saltA).toMatch(/^[0-9a-f]{64}$/)
    expect(saltB).toBe(saltA)
    await Promise.all([a.addUsage(DAY, 5, ['c1', 'c2']), b.addUsage(DAY, 7, ['c2', 'c3']), b.addUsage('2026-11-24', 1, ['c9'])])
    expect(await a.usage(DAY)).toEqual({ requests: 12, clients: 3 })
    expect(await b.usage('2026-11-23')).toEqual({ requests: 0, clients: 0 })
  })

  test('written-behind counts only ever raise a stored count', async () => {
    const [a, b] = await twoStores()
    await a.saveAnonymousCalls(DAY, new Map([['c1', 3], ['c2', 1]]))
    await b.saveAnonymousCalls(DAY, new Map([['c1', 2]]))
    expect(await a.anonymousCalls(DAY, 'c1')).toBe(3)
    expect(await b.anonymousCalls(DAY, 'c2')).toBe(1)
    expect(await b.anonymousCalls(DAY, 'nobody')).toBe(0)
  })

  test('a burst from one client spread over two nodes is admitted exactly up to the limit; a give-back frees one', async () => {
    const [a, b] = await twoStores()
    const taken = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 ? a : b).takeAnonymousCall(DAY, 'burst', 10)))
    expect(taken.filter(Boolean)).toHaveLength(10)
    expect(await a.anonymousCalls(DAY, 'burst')).toBe(10)
    await b.giveBackAnonymousCall(DAY, 'burst')
    expect(await a.takeAnonymousCall(DAY, 'burst', 10)).toBe(true)
    expect(await b.takeAnonymousCall(DAY, 'burst', 10)).toBe(false)
    await a.giveBackAnonymousCall(DAY, 'never-seen')
    expect(await a.anonymousCalls(DAY, 'never-seen')).toBe(0)
    expect(await a.takeAnonymousCall(DAY, 'other', 0)).toBe(false)
  }, 30_000)

  test('AnonymousAllowance on shared nodes: exact across them; a call that signed nothing is given back', async () => {
    const [a, b] = await twoStores()
    const clock = new FakeClock(NOW)
    const nodes = [new AnonymousAllowance(a, clock, memoryLogger(), true), new AnonymousAllowance(b, clock, memoryLogger(), true)]
    const taken = await Promise.all(Array.from({ length: 12 }, (_, i) => nodes[i % 2]!.take('client', 4)))
    expect(taken.filter(Boolean)).toHaveLength(4)
    await nodes[1]!.giveBack('client')
    expect(await nodes[0]!.take('client', 4)).toBe(true)
    expect(await nodes[1]!.take('client', 4)).toBe(false)
  }, 30_000)
})
