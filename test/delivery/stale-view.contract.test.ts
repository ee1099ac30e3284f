// The incident of issue 23, replayed with two nodes' full dependencies on one database (SQLite:
// two processes on one file; PostgreSQL: two pools): node A sets HALTED and its dispatcher
// announces CLOSED→HALTED; node B's dispatcher, whose override cache still says "no override",
// resolves CLOSED 0.88 s later. B must not announce HALTED→CLOSED: the transaction that would
// record it reads the overrides and refuses. Once B's cache has caught up there is nothing to
// announce, and after A clears the override the resumption is announced once.
import { expect, test } from 'bun:test'
import { randomUUID } from 'node:crypto'
import type { AppDeps } from '../../src/app'
import { loadConfig } from '../../src/config'
import { memoryLogger } from '../../src/log'
import { sqliteDeps } from '../../src/wiring/sqlite'
import { postgresDeps } from '../../src/wiring/postgres'
import { forEachBackend, type TestBackend } from '../helpers/backends'
import { testNodes } from '../helpers/nodes'
import { FakeClock, REPO_SCHEDULES, sharedCalendars, testSigner, TEST_ISSUER } from '../helpers/app'
import { newWebhookSecret } from '../../src/delivery/webhooks/signing'

// Monday 2026-03-02, 22:00 UTC: XNYS is closed by its calendar.
const NOW = Date.parse('2026-03-02T22:00:00.000Z')
const MIC = 'XNYS'

forEachBackend('no transition from a stale view', (fresh) => {
  const nodeOf = testNodes()

  /** A node's dependencies over the test database, with its own clock and caches. */
  function nodeDeps(backend: TestBackend, name: string) {
    const clock = new FakeClock(NOW)
    const log = memoryLogger()
    const config = loadConfig({ ISSUER: TEST_ISSUER, SCHEDULES_DIR: REPO_SCHEDULES, NODE_ID: name })
    const parts = { config, clock, log, signer: testSigner(), calendars: sharedCalendars() }
    const node = nodeOf(backend)
    const deps: AppDeps = node.sql ? postgresDeps({ ...parts, sql: node.sql }) : sqliteDeps({ ...parts, db: backend.db! })
    return { deps, clock, log }
  }

  test('node B, 0.88 s behind node A\'s HALTED, does not announce HALTED→CLOSED', async () => {
    const backend = await fresh()
    const a = nodeDeps(backend, 'node-a')
    const b = nodeDeps(backend, 'node-b')
    const hook = { id: randomUUID(), key_hash: 'c'.repeat(64), url: 'https://receiver.example/hook', mics: [MIC], events: ['status_change' as const], secret: newWebhookSecret(), status: 'active' as const, paused_reason: null, created_at: new Date(NOW).toISOString() }
    await a.deps.transactor.run(() => a.deps.delivery.webhooks.create(hook, 5))
    await a.deps.delivery.dispatcher.cycle() // first sight: the baseline CLOSED
    await b.deps.delivery.dispatcher.cycle() // B's override cache now holds "no override" (its clock is frozen: it stays)
    expect(await b.deps.transactor.run(() => b.deps.delivery.queue.state(MIC))).toMatchObject({ status: 'CLOSED' })

    await a.deps.overrides.set({ mic: MIC, status: 'HALTED', reason: 'market-wide circuit breaker', expires_at: new Date(NOW + 3_600_000).toISOString() }, 'test')
    await a.deps.delivery.dispatcher.cycle()
    b.clock.advance(880)
    await b.deps.delivery.dispatcher.cycle()
    const queued = async () => (await a.deps.delivery.queue.forWebhook(hook.id)).map((row) => JSON.parse(row.body) as { previous_status: string; current_status: string })
    expect(await queued()).toEqual([expect.objectContaining({ previous_status: 'CLOSED', current_status: 'HALTED' })])
    expect(b.log.lines.find((line) => String(line.msg).includes('not announced'))).toMatchObject({ mic: MIC, seen: 'CLOSED', reason: 'the override HALTED is in force' })

    // B's cache catches up: nothing to announce. A clears: the resumption is announced once, by either node.
    b.clock.advance(1200)
    await b.deps.delivery.dispatcher.cycle()
    expect(await queued()).toHaveLength(1)
    a.clock.advance(3000)
    await a.deps.overrides.clear(MIC, 'test')
    b.clock.advance(1200)
    await Promise.all([a.deps.delivery.dispatcher.cycle(), b.deps.delivery.dispatcher.cycle()])
    expect((await queued()).map((body) => `${body.previous_status}→${body.current_status}`)).toEqual(['CLOSED→HALTED', 'HALTED→CLOSED'])
  }, 30_000)
})
