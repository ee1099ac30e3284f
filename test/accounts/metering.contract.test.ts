// Metering on both backends, with the limits exact when a concurrent burst is spread over two
// nodes. SQLite: the service's one process (counts in memory, written behind). PostgreSQL: two
// nodes, each its own pool and meter, claiming quota slices from the database. In every case:
// never more admitted than the daily limit, not one credit or sandbox call more than the key had.
import { expect, test } from 'bun:test'
import type { SQL } from 'bun'
import type { Database } from 'bun:sqlite'
import { issueKey, type IssueKeyOptions } from '../../src/accounts/keys'
import { sqliteAccountStore, type AccountRow, type AccountStore } from '../../src/accounts/store'
import { postgresAccountStore } from '../../src/accounts/store-postgres'
import { sqliteMeterWrites, sqliteUsageStore } from '../../src/accounts/usage-store'
import { postgresMeterWrites, postgresUsageStore } from '../../src/accounts/usage-store-postgres'
import { Meter, type MeterOutcome, type SharedCounting } from '../../src/accounts/metering'
import { MAX_SLICE } from '../../src/accounts/quota-slices'
import { PAID_DAILY_LIMITS } from '../../src/catalogue/limits'
import { memoryLogger } from '../../src/log'
import { forEachBackend, type TestBackend } from '../helpers/backends'
import { FakeClock } from '../helpers/app'
import { numberOf, rowsOf, twoNodes } from './two-nodes'

const NOW = Date.parse('2026-03-10T15:00:00.000Z')
const DAY = '2026-03-10'
const FREE = { daily: 40, monthly: 1200 }

/** The service's choice per backend: one SQLite process counts in memory; PostgreSQL nodes share in slices. */
const serviceSharing = (backend: TestBackend): SharedCounting | null => (backend.name === 'postgres' ? { maxSlice: MAX_SLICE } : null)

function meters(backend: TestBackend, clock: FakeClock, sharing: SharedCounting | null) {
  const meterOf = (usage: ConstructorParameters<typeof Meter>[0], writes: ConstructorParameters<typeof Meter>[1]) => new Meter(usage, writes, clock, memoryLogger(), FREE, sharing)
  return twoNodes(backend, {
    sqlite: (db: Database) => meterOf(sqliteUsageStore(db), sqliteMeterWrites(db)),
    postgres: (sql: SQL) => meterOf(postgresUsageStore(sql), postgresMeterWrites(sql)),
  })
}

/** `count` requests at once, alternately on the two meters. */
async function burst(nodes: [Meter, Meter], account: AccountRow, count: number): Promise<MeterOutcome[]> {
  return Promise.all(Array.from({ length: count }, (_, i) => nodes[i % 2]!.meter(account, '/v5/status')))
}

const admitted = (outcomes: MeterOutcome[], via?: string) => outcomes.filter((outcome) => outcome.admitted && (via === undefined || outcome.via === via)).length
const stored = (backend: TestBackend, accountId: number) => numberOf(backend, 'SELECT coalesce(sum(requests), 0) AS n FROM key_usage WHERE account_id = $1', [accountId])

forEachBackend('metering', (fresh) => {
  const open = async (sharing?: SharedCounting | null) => {
    const backend = await fresh()
    const clock = new FakeClock(NOW)
    const accounts = backend.pick<AccountStore>({ sqlite: sqliteAccountStore, postgres: postgresAccountStore })
    const nodes = meters(backend, clock, sharing === undefined ? serviceSharing(backend) : sharing)
    const key = async (options: Partial<IssueKeyOptions> = {}) => (await issueKey(accounts, { plan: 'free', now: new Date(NOW), ...options })).account
    /** Both nodes' clean stop: counts written, slices given back. */
    const stop = async () => Promise.all(nodes.map((meter) => meter.start()()))
    return { backend, clock, nodes, key, stop }
  }

  test('free daily limit: a burst of three times the limit over two nodes admits exactly the limit', async () => {
    const { backend, nodes, key, stop } = await open()
    const account = await key()
    const outcomes = await burst(nodes, account, 3 * FREE.daily)
    expect(admitted(outcomes)).toBe(FREE.daily)
    expect(outcomes.filter((outcome) => !outcome.admitted && outcome.reason === 'free_exhausted')).toHaveLength(2 * FREE.daily)
    await stop()
    expect(await stored(backend, account.id)).toBe(FREE.daily)
    expect(await nodes[0].usage(account)).toEqual({ today: FREE.daily, month: FREE.daily })
    expect(await nodes[1].peek(account)).toMatchObject({ reason: 'free_exhausted' })
  })

  test('a paid key: exactly what is left of its day, then paid_exhausted', async () => {
    const { backend, nodes, key, stop } = await open()
    const account = await key({ plan: 'builder' })
    await rowsOf(backend, 'INSERT INTO key_usage (account_id, day, requests) VALUES ($1, $2, $3)', [account.id, DAY, PAID_DAILY_LIMITS.builder - 25])
    const outcomes = await burst(nodes, account, 80)
    expect(admitted(outcomes, 'quota')).toBe(25)
    expect(outcomes.filter((outcome) => !outcome.admitted && outcome.reason === 'paid_exhausted')).toHaveLength(55)
    await stop()
    expect(await stored(backend, account.id)).toBe(PAID_DAILY_LIMITS.builder)
  })

  test('credits: spent one per request past the free quota, never one more than the balance, each with its ledger row', async () => {
    const { backend, nodes, key, stop } = await open()
    const account = await key({ creditBalance: 15 })
    const outcomes = await burst(nodes, account, 90)
    expect(admitted(outcomes, 'quota')).toBe(FREE.daily)
    expect(admitted(outcomes, 'credit')).toBe(15)
    const balances = outcomes.flatMap((outcome) => (outcome.admitted && outcome.via === 'credit' ? [outcome.creditBalance] : []))
    expect(balances.sort((a, b) => a! - b!)).toEqual(Array.from({ length: 15 }, (_, i) => i))
    expect(await nodes[1].creditBalance(account.id)).toBe(0)
    expect(await numberOf(backend, `SELECT count(*) AS n FROM credit_ledger WHERE account_id = $1 AND kind = 'debit' AND delta = -1 AND reference = '/v5/status'`, [account.id])).toBe(15)
    await stop()
    expect(await stored(backend, account.id)).toBe(FREE.daily + 15)
  })

  test('sandbox calls: a burst over two nodes spends exactly the calls left', async () => {
    const { backend, nodes, key } = await open()
    const account = await key({ plan: 'sandbox', keyClass: 'sandbox', callsRemaining: 30, expiresAt: new Date(NOW + 86_400_000).toISOString() })
    const outcomes = await burst(nodes, account, 80)
    expect(admitted(outcomes, 'sandbox')).toBe(30)
    expect(outcomes.filter((outcome) => !outcome.admitted && outcome.reason === 'sandbox_exhausted')).toHaveLength(50)
    expect(await numberOf(backend, 'SELECT calls_remaining AS n FROM api_keys WHERE id = $1', [account.id])).toBe(0)
    expect(await nodes[0].sandboxCallsLeft(account.id, 200)).toBe(0)
  })

  test('a refund gives back the count, the credit (with a ledger row) and the sandbox call', async () => {
    const { backend, nodes: [a], key, stop } = await open()
    const account = await key({ creditBalance: 1 })
    await rowsOf(backend, 'INSERT INTO key_usage (account_id, day, requests) VALUES ($1, $2, $3)', [account.id, DAY, FREE.daily])
    const paid = await a.meter(account, '/v5/status')
    expect(paid).toMatchObject({ admitted: true, via: 'credit', creditBalance: 0 })
    await a.refund(account, paid as Extract<MeterOutcome, { admitted: true }>, '/v5/status')
    expect(await a.creditBalance(account.id)).toBe(1)
    expect(await rowsOf(backend, `SELECT delta, reference FROM credit_ledger WHERE account_id = $1 AND kind = 'grant'`, [account.id])).toEqual([{ delta: 1, reference: 'refund:/v5/status' }])
    const sandbox = await key({ plan: 'sandbox', keyClass: 'sandbox', callsRemaining: 3 })
    const call = await a.meter(sandbox, '/v5/status')
    await a.refund(sandbox, call as Extract<MeterOutcome, { admitted: true }>, '/v5/status')
    expect(await a.sandboxCallsLeft(sandbox.id, 200)).toBe(3)
    const free = await key()
    const counted = await a.meter(free, '/v5/status')
    await a.refund(free, counted as Extract<MeterOutcome, { admitted: true }>, '/v5/status')
    await stop()
    expect(await stored(backend, free.id)).toBe(0)
    expect(await stored(backend, account.id)).toBe(FREE.daily)
  })

  test('counts: days add up to the month; a new UTC day starts the quota again', async () => {
    const { backend, clock, nodes, key, stop } = await open()
    const account = await key()
    await rowsOf(backend, 'INSERT INTO key_usage (account_id, day, requests) VALUES ($1, $2, 7), ($1, $3, 5)', [account.id, '2026-03-01', '2026-02-28'])
    expect(admitted(await burst(nodes, account, 3))).toBe(3)
    await stop()
    expect(await nodes[0].usage(account)).toEqual({ today: 3, month: 10 })
    clock.set('2026-03-11T00:00:00.000Z')
    const nextDay = await burst(nodes, account, 2 * FREE.daily)
    expect(admitted(nextDay)).toBe(FREE.daily)
    expect(nextDay.every((outcome) => !outcome.admitted || outcome.day === '2026-03-11')).toBe(true)
  })
})
