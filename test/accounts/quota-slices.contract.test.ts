// The bound of quota slices (src/accounts/quota-slices.ts), proved on both backends with two
// nodes that share counting (PostgreSQL: two pools; SQLite: two meters on one database, as
// processes with REUSE_PORT would be):
// - over-admission is zero: whatever the interleaving, admitted requests never pass the limit;
// - early refusal is bounded: a node is refused only while the other holds unused requests of its
//   one slice, at most max(1, ⌊remaining / SLICE_DIVISOR⌋) ≤ MAX_SLICE of them, and those come back
//   once that slice has been idle for SLICE_IDLE_MS (the next give-back round) or at a clean stop;
// - a free key holding credits claims one request at a time, so no credit is spent while any
//   node holds unused free quota.
import { expect, test } from 'bun:test'
import type { SQL } from 'bun'
import type { Database } from 'bun:sqlite'
import { issueKey, type IssueKeyOptions } from '../../src/accounts/keys'
import { sqliteAccountStore, type AccountRow, type AccountStore } from '../../src/accounts/store'
import { postgresAccountStore } from '../../src/accounts/store-postgres'
import { sqliteMeterWrites, sqliteUsageStore, type MeterWrites } from '../../src/accounts/usage-store'
import { postgresMeterWrites, postgresUsageStore } from '../../src/accounts/usage-store-postgres'
import { Meter, type MeterOutcome } from '../../src/accounts/metering'
import { FIRST_SLICE, MAX_SLICE, SLICE_DIVISOR, SLICE_GROW_MS, SLICE_IDLE_MS } from '../../src/accounts/quota-slices'
import { memoryLogger } from '../../src/log'
import { forEachBackend, type TestBackend } from '../helpers/backends'
import { FakeClock } from '../helpers/app'
import { numberOf, twoNodes } from './two-nodes'

const NOW = Date.parse('2026-03-10T15:00:00.000Z')
const LIMIT = 160

/** Meter writes that record the size of every claim that got its requests. */
function recordingClaims(writes: MeterWrites, claims: number[]): MeterWrites {
  return {
    ...writes,
    async claim(accountId, day, limit, want) {
      const stored = await writes.claim(accountId, day, limit, want)
      if (stored !== null) claims.push(want)
      return stored
    },
  }
}

forEachBackend('quota slices', (fresh) => {
  const open = async (daily = LIMIT) => {
    const backend = await fresh()
    const clock = new FakeClock(NOW)
    const claims: number[] = []
    const meterOf = (usage: ConstructorParameters<typeof Meter>[0], writes: MeterWrites) => new Meter(usage, recordingClaims(writes, claims), clock, memoryLogger(), { daily, monthly: 30 * daily }, { maxSlice: MAX_SLICE })
    const [a, b] = twoNodes(backend, {
      sqlite: (db: Database) => [meterOf(sqliteUsageStore(db), sqliteMeterWrites(db)), meterOf(sqliteUsageStore(db), sqliteMeterWrites(db))] as const,
      postgres: (sql: SQL) => [meterOf(postgresUsageStore(sql), postgresMeterWrites(sql)), meterOf(postgresUsageStore(sql), postgresMeterWrites(sql))] as const,
    })
    // SQLite: one connection, two meters; PostgreSQL: one meter on each pool.
    const nodes: [Meter, Meter] = backend.name === 'sqlite' ? [a[0], a[1]] : [a[0], b[0]]
    const accounts = backend.pick<AccountStore>({ sqlite: sqliteAccountStore, postgres: postgresAccountStore })
    const key = async (options: Partial<IssueKeyOptions> = {}) => (await issueKey(accounts, { plan: 'free', now: new Date(NOW), ...options })).account
    return { backend, clock, claims, nodes, key }
  }
  const many = (meter: Meter, account: AccountRow, count: number) => Promise.all(Array.from({ length: count }, () => meter.meter(account, '/v5/status')))
  const admittedBy = (outcomes: MeterOutcome[], via = 'quota') => outcomes.filter((outcome) => outcome.admitted && outcome.via === via).length
  const stored = (backend: TestBackend, accountId: number) => numberOf(backend, 'SELECT coalesce(sum(requests), 0) AS n FROM key_usage WHERE account_id = $1', [accountId])

  test('early refusal: at most the other node\'s one unused slice, given back once it is idle; never more than the limit', async () => {
    const { backend, clock, nodes: [a, b], key } = await open()
    const account = await key()
    expect(admittedBy(await many(a, account, 1))).toBe(1)
    const slice = Math.floor(LIMIT / SLICE_DIVISOR)
    expect(await stored(backend, account.id)).toBe(slice) // node A claimed one slice and holds slice − 1 unused
    const first = await many(b, account, 2 * LIMIT)
    // B is refused while A holds slice − 1 unused: the bound, not more.
    expect(admittedBy(first)).toBe(LIMIT - slice)
    expect(await stored(backend, account.id)).toBe(LIMIT)
    // A's slice idle for SLICE_IDLE_MS: the next round gives it back, and B gets exactly that.
    clock.advance(SLICE_IDLE_MS - 1)
    await a.flush()
    expect(admittedBy(await many(b, account, 5))).toBe(0)
    clock.advance(1)
    await a.flush()
    expect(admittedBy(await many(b, account, 2 * slice))).toBe(slice - 1)
    expect(1 + (LIMIT - slice) + (slice - 1)).toBe(LIMIT)
    await Promise.all([a.start()(), b.start()()])
    expect(await stored(backend, account.id)).toBe(LIMIT)
  })

  test('over-admission is zero whatever the interleaving (bursts on both nodes, give-backs between them)', async () => {
    const { backend, clock, nodes, key } = await open()
    const account = await key()
    let total = 0
    for (let round = 0; round < 8; round++) {
      const outcomes = await Promise.all(Array.from({ length: 30 + round * 7 }, (_, i) => nodes[(i * 7 + round) % 3 === 0 ? 1 : 0]!.meter(account, '/v5/status')))
      total += admittedBy(outcomes)
      expect(total).toBeLessThanOrEqual(LIMIT)
      clock.advance(round % 2 ? SLICE_IDLE_MS : 10)
      await Promise.all(nodes.map((meter) => meter.flush()))
    }
    await Promise.all(nodes.map((meter) => meter.start()()))
    // Everything unused came back, so the demand above (more than the limit) got all of it.
    expect(total).toBe(LIMIT)
    expect(await stored(backend, account.id)).toBe(LIMIT)
  })

  test('slices: a busy key\'s grow from FIRST_SLICE to MAX_SLICE, a slow key\'s stay at FIRST_SLICE; one claim per slice', async () => {
    const { clock, claims, nodes: [a], key } = await open(200_000)
    const account = await key()
    // Every slice used up at once (the clock stands still): each claim twice the last, up to MAX_SLICE.
    const growth: number[] = []
    for (let size = FIRST_SLICE; size < MAX_SLICE; size *= 2) growth.push(size)
    const grown = growth.reduce((sum, size) => sum + size, 0)
    expect(admittedBy(await many(a, account, grown + 2 * MAX_SLICE))).toBe(grown + 2 * MAX_SLICE)
    expect(claims).toEqual([...growth, MAX_SLICE, MAX_SLICE])
    // A slice that lasted longer than SLICE_IDLE_MS: the next starts again at FIRST_SLICE, and a
    // slice used up within SLICE_GROW_MS doubles it, one lasting in between keeps it.
    claims.length = 0
    clock.advance(SLICE_IDLE_MS + 1)
    await many(a, account, 1)
    clock.advance(SLICE_GROW_MS - 1)
    await many(a, account, FIRST_SLICE)
    clock.advance(SLICE_GROW_MS)
    await many(a, account, 2 * FIRST_SLICE)
    expect(claims).toEqual([FIRST_SLICE, 2 * FIRST_SLICE, 2 * FIRST_SLICE])
    claims.length = 0
    const small = await open(100)
    const near = await small.key()
    expect(admittedBy(await many(small.nodes[0], near, 150))).toBe(100)
    expect(small.claims.reduce((sum, size) => sum + size, 0)).toBe(100)
    let remaining = 100
    for (const size of small.claims) {
      expect(size).toBe(Math.max(1, Math.min(FIRST_SLICE, Math.floor(remaining / SLICE_DIVISOR))))
      remaining -= size
    }
    // Once fewer than 2 × SLICE_DIVISOR are left, one at a time.
    expect(small.claims.slice(-(2 * SLICE_DIVISOR - 1)).every((size) => size === 1)).toBe(true)
    expect(small.claims.at(-(2 * SLICE_DIVISOR))).toBe(2)
  })

  test('a free key holding credits claims one request at a time: no credit spent while free quota lies unused', async () => {
    const { backend, nodes: [a, b], key } = await open()
    const account = await key({ creditBalance: 20 })
    expect(admittedBy(await many(a, account, 1))).toBe(1)
    expect(await stored(backend, account.id)).toBe(1)
    const burst = await many(b, account, LIMIT + 40)
    expect(admittedBy(burst)).toBe(LIMIT - 1)
    expect(admittedBy(burst, 'credit')).toBe(20)
    expect(await b.creditBalance(account.id)).toBe(0)
  })

  test('a slice of yesterday is given back at the next round; a clean stop gives back every slice', async () => {
    const { backend, clock, nodes: [a], key } = await open()
    const account = await key()
    clock.set('2026-03-10T23:59:59.900Z')
    expect(admittedBy(await many(a, account, 1))).toBe(1)
    clock.set('2026-03-11T00:00:00.000Z')
    expect(admittedBy(await many(a, account, 3))).toBe(3)
    await a.flush()
    expect(await numberOf(backend, 'SELECT requests AS n FROM key_usage WHERE account_id = $1 AND day = $2', [account.id, '2026-03-10'])).toBe(1)
    expect(await a.usage(account)).toEqual({ today: 3, month: 4 })
    await a.start()()
    expect(await numberOf(backend, 'SELECT requests AS n FROM key_usage WHERE account_id = $1 AND day = $2', [account.id, '2026-03-11'])).toBe(3)
  })
})
