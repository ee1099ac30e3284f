// Overrides and real-time halts set on one node apply on every node within a second: on
// PostgreSQL pushed (LISTEN/NOTIFY: the other node's cache is dropped and its listeners woken
// even with its clock frozen), on SQLite through the one-second cache and the shared halt row.
import { SQL } from 'bun'
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { OverrideService } from '../../src/market/overrides/service'
import { sqliteOverrideStore, type OverrideStore } from '../../src/market/overrides/store'
import { postgresOverrideStore } from '../../src/market/overrides/store-postgres'
import { HaltMonitor } from '../../src/market/halts/monitor'
import { sqliteHaltStore, type HaltStore } from '../../src/market/halts/store'
import { postgresHaltStore } from '../../src/market/halts/store-postgres'
import { FOLLOW_MS } from '../../src/market/halts/shared'
import { memoryLogger } from '../../src/log'
import { forEachBackend, type TestBackend } from '../helpers/backends'
import { FakeClock, sharedCalendars } from '../helpers/app'
import { waitFor } from '../helpers/process'

const OPEN_INSTANT = '2026-03-10T15:00:00.000Z' // 11:00 EDT, Tuesday: XNYS in session

let feedBody = '{"exchanges":{"nyse":"open","nasdaq":"open"}}'
let feed: ReturnType<typeof Bun.serve>
beforeAll(() => {
  feed = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response(feedBody, { headers: { 'content-type': 'application/json' } }) })
})
afterAll(() => feed.stop(true))

forEachBackend('overrides and halts across nodes', (fresh, backend) => {
  const pools: SQL[] = []
  afterAll(async () => {
    await Promise.all(pools.map((pool) => pool.close()))
  })
  /** One node's stores; on PostgreSQL each node has its own pool. */
  const nodeStores = (db: TestBackend) => {
    if (db.name === 'sqlite') return { overrides: sqliteOverrideStore(db.db!), halts: sqliteHaltStore(db.db!) }
    const sql = new SQL({ url: db.url!, max: 3 })
    pools.push(sql)
    return { overrides: postgresOverrideStore(sql) as OverrideStore, halts: postgresHaltStore(sql) as HaltStore }
  }

  test('an override set on node A applies on node B within a second, and wakes B’s listeners', async () => {
    const db = await fresh()
    const clock = new FakeClock(Date.parse(OPEN_INSTANT))
    const a = new OverrideService(nodeStores(db).overrides, clock, memoryLogger())
    const b = new OverrideService(nodeStores(db).overrides, clock, memoryLogger())
    const stopB = await b.start()
    const woken: string[] = []
    b.changed.add((mic) => woken.push(mic))
    expect(await b.forMic('XNYS')).toBeNull() // B has read (and cached) the overrides now
    const setAt = performance.now()
    await a.set({ mic: 'XNYS', status: 'HALTED', reason: 'test', expires_at: new Date(clock.now() + 3_600_000).toISOString() }, 'test')
    if (backend === 'postgres') {
      // Pushed: B's clock has not moved, yet B sees it.
      await waitFor(() => woken.includes('XNYS'), 1000, 'the notification on node B')
      expect((await b.forMic('XNYS'))?.status).toBe('HALTED')
      expect(performance.now() - setAt).toBeLessThan(1000)
    } else {
      expect(await b.forMic('XNYS')).toBeNull() // cached for up to a second
      clock.advance(1000)
      expect((await b.forMic('XNYS'))?.status).toBe('HALTED')
    }
    await a.clear('XNYS', 'test')
    if (backend === 'postgres') await waitFor(() => woken.filter((mic) => mic === 'XNYS').length === 2, 1000, 'the clear on node B')
    else clock.advance(1000)
    expect(await b.forMic('XNYS')).toBeNull()
    await stopB()
  })

  test('a halt seen by the polling node applies on a following node within a second', async () => {
    const db = await fresh()
    const clock = new FakeClock(Date.parse(OPEN_INSTANT))
    const config = { url: `http://127.0.0.1:${feed.port}/status`, format: 'json' as const, intervalMs: 60_000 }
    const poller = new HaltMonitor(config, { clock, log: memoryLogger(), calendars: sharedCalendars(), shared: { store: nodeStores(db).halts, publisher: 'node-a' } })
    const follower = new HaltMonitor(config, { clock, log: memoryLogger(), calendars: sharedCalendars(), shared: { store: nodeStores(db).halts, publisher: 'node-b' } })
    const woken: string[] = []
    follower.changed.add((mic) => woken.push(mic))
    const stopFollowing = follower.follow()
    feedBody = '{"exchanges":{"nyse":"halted","nasdaq":"open"}}'
    const stopPolling = poller.start()
    const seen = performance.now()
    await waitFor(() => follower.haltFor('XNYS'), FOLLOW_MS + 500, 'the halt on the following node')
    expect(performance.now() - seen).toBeLessThan(FOLLOW_MS + 500)
    expect(woken).toEqual(['XNYS'])
    expect(follower.status()).toMatchObject({ status: 'ok', halted: ['XNYS'], consecutive_failures: 0 })
    // The follower never polled: what it knows came from the poller.
    expect(follower.status().last_poll_at).toBe(poller.status().last_poll_at)
    stopPolling()
    await stopFollowing()
    feedBody = '{"exchanges":{"nyse":"open","nasdaq":"open"}}'
  })

  test('a poller that stops publishing: its view ages into degraded on the other nodes', async () => {
    const db = await fresh()
    const clock = new FakeClock(Date.parse(OPEN_INSTANT))
    const config = { url: `http://127.0.0.1:${feed.port}/status`, format: 'json' as const, intervalMs: 30_000 }
    const poller = new HaltMonitor(config, { clock, log: memoryLogger(), calendars: sharedCalendars(), shared: { store: nodeStores(db).halts, publisher: 'node-a' } })
    const follower = new HaltMonitor(config, { clock, log: memoryLogger(), calendars: sharedCalendars(), shared: { store: nodeStores(db).halts, publisher: 'node-b' } })
    const stopPolling = poller.start()
    const stopFollowing = follower.follow()
    await waitFor(() => follower.status().last_poll_at !== null, FOLLOW_MS + 500, 'the first view')
    expect(follower.state()).toBe('ok')
    stopPolling() // the poller dies
    clock.advance(2 * config.intervalMs + 1)
    expect(follower.state()).toBe('degraded')
    expect(follower.detectionActive('XNYS')).toBe(false)
    await stopFollowing()
  })
})
