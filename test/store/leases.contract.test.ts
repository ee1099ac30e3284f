// Job leases on both backends: one holder at a time, renewed by it, taken by another node once
// it has ended; and Leadership running a job on exactly one of two nodes, handing it over when
// the holder stops (cleanly: at once; dead: when the lease ends).
import { expect, test } from 'bun:test'
import { sqliteLeaseStore, type LeaseStore } from '../../src/store/lease-store'
import { postgresLeaseStore } from '../../src/store/lease-store-postgres'
import { Leadership, LEASE_TTL_MS } from '../../src/store/leadership'
import { leaseHolder, localHolderIsDead } from '../../src/store/node'
import { memoryLogger } from '../../src/log'
import { forEachBackend } from '../helpers/backends'
import { FakeClock } from '../helpers/app'

forEachBackend('job leases', (fresh, backend) => {
  const open = async () => (await fresh()).pick<LeaseStore>({ sqlite: sqliteLeaseStore, postgres: postgresLeaseStore })

  test('one holder; renewals by it; another only after the end', async () => {
    const store = await open()
    expect(await store.acquire('sealer', 'a', 1_000, 16_000)).toBe(true)
    expect(await store.acquire('sealer', 'b', 2_000, 17_000)).toBe(false)
    expect(await store.acquire('sealer', 'a', 5_000, 20_000)).toBe(true) // renewed to 20 000
    expect(await store.acquire('sealer', 'b', 19_999, 34_999)).toBe(false)
    expect(await store.acquire('sealer', 'b', 20_000, 35_000)).toBe(true)
    expect(await store.acquire('sealer', 'a', 21_000, 36_000)).toBe(false)
    const [row] = await store.all()
    expect(row).toEqual({ name: 'sealer', holder: 'b', acquired_at: 20_000, expires_at: 35_000 })
    // Leases of other jobs are independent.
    expect(await store.acquire('retention', 'a', 21_000, 36_000)).toBe(true)
  })

  test('release frees the lease at once; a take-over needs the holder named', async () => {
    const store = await open()
    await store.acquire('mail', 'a', 0, 15_000)
    await store.release('mail', 'b') // not b's: nothing happens
    expect(await store.acquire('mail', 'b', 1, 15_001)).toBe(false)
    await store.release('mail', 'a')
    expect(await store.acquire('mail', 'b', 2, 15_002)).toBe(true)
    expect(await store.takeOver('mail', 'a', 'c', 3, 15_003)).toBe(false)
    expect(await store.takeOver('mail', 'b', 'c', 3, 15_003)).toBe(true)
    expect((await store.all())[0]!.holder).toBe('c')
  })

  test('concurrent tries: exactly one of ten nodes gets the lease', async () => {
    const store = await open()
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => store.acquire('dispatcher', `node-${i}`, 100, 15_100)))
    expect(results.filter(Boolean)).toHaveLength(1)
  })

  test('two nodes: the job runs on one; a clean stop hands it over at the next round; a dead holder when its lease ends', async () => {
    const store = await open()
    const clock = new FakeClock(1_000_000)
    const running: string[] = []
    const node = (name: string) => {
      const leadership = new Leadership(store, name, clock, memoryLogger(), { renewMs: 60_000 })
      const stop = leadership.run('audit-sealer', () => {
        running.push(name)
        return () => void running.splice(running.indexOf(name), 1)
      })
      return { leadership, stop }
    }
    const a = node('a')
    await a.leadership.tick()
    const b = node('b')
    await b.leadership.tick()
    expect(running).toEqual(['a'])
    expect(a.leadership.held()).toEqual(['audit-sealer'])
    expect(b.leadership.held()).toEqual([])
    // a stops cleanly: b takes the job at its next round, without waiting for the lease to end.
    await a.stop()
    await b.leadership.tick()
    expect(running).toEqual(['b'])
    // b dies (no release, no more rounds): c takes the job only once b's lease has ended.
    const c = node('c')
    clock.advance(LEASE_TTL_MS - 1)
    await c.leadership.tick()
    expect(running).toEqual(['b'])
    clock.advance(1)
    await c.leadership.tick()
    expect(running).toEqual(['b', 'c']) // b is dead in this story; its stop never ran
    await b.stop()
    await c.stop()
  })

  test('a holder that lost its lease while it was not renewing (paused, not dead) stops the job at its next round, and does not take it back', async () => {
    const store = await open()
    const clock = new FakeClock(2_000_000)
    const running: string[] = []
    const stops: string[] = []
    // As main.ts builds it: on SQLite a holder known to be gone is taken from at once; both nodes here are alive.
    const node = (name: string) => {
      const holder = leaseHolder(name)
      const leadership = new Leadership(store, holder, clock, memoryLogger(), { renewMs: 60_000, isDeadHolder: backend === 'sqlite' ? localHolderIsDead : undefined })
      const stop = leadership.run('webhook-dispatcher', () => {
        running.push(name)
        return () => {
          stops.push(name)
          running.splice(running.indexOf(name), 1)
        }
      })
      return { leadership, stop }
    }
    const a = node('a')
    await a.leadership.tick()
    const b = node('b')
    await b.leadership.tick()
    expect(running).toEqual(['a'])
    // a is paused past its lease (a long GC, a frozen VM, a partition that heals): no rounds, no renewal.
    clock.advance(LEASE_TTL_MS)
    await b.leadership.tick()
    expect(running).toEqual(['a', 'b']) // a has not run a round since: it cannot know yet
    // a wakes up and runs its round: the lease is b's, so a stops the job at once.
    await a.leadership.tick()
    expect(running).toEqual(['b'])
    expect(stops).toEqual(['a'])
    expect(a.leadership.held()).toEqual([])
    expect(b.leadership.held()).toEqual(['webhook-dispatcher'])
    // Later rounds of both, b renewing: a never takes the job back, and is not stopped twice.
    for (let round = 0; round < 3; round++) {
      clock.advance(5_000)
      await b.leadership.tick()
      await a.leadership.tick()
      expect(running).toEqual(['b'])
    }
    expect(stops).toEqual(['a'])
    expect((await store.all()).map((lease) => lease.holder)).toEqual([b.leadership.holder])
    await a.stop()
    await b.stop()
  })

  if (backend === 'sqlite') {
    test('SQLite: the lease of a process that is gone is taken at once', async () => {
      const store = await open()
      const gone = Bun.spawnSync(['true']).pid
      const deadHolder = `old-node#${gone}.abcdef`
      expect(localHolderIsDead(deadHolder)).toBe(true)
      expect(localHolderIsDead(leaseHolder('me'))).toBe(false)
      expect(localHolderIsDead(`parent#${process.ppid}.abcdef`)).toBe(false)
      await store.acquire('audit-sealer', deadHolder, 0, Number.MAX_SAFE_INTEGER)
      const started: string[] = []
      const leadership = new Leadership(store, leaseHolder('new'), new FakeClock(1), memoryLogger(), { isDeadHolder: localHolderIsDead })
      const stop = leadership.run('audit-sealer', () => {
        started.push('sealer')
        return () => {}
      })
      await leadership.tick()
      expect(started).toEqual(['sealer'])
      await stop()
    })
  }
})
