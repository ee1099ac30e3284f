// The witness store on both backends, through the submission transaction: a stored identity is
// answered from the store, forks are flagged, and concurrent submissions through two "nodes"
// (two pools on PostgreSQL) store each identity once and admit exactly the daily cap.
import { SQL } from 'bun'
import { afterAll, expect, test } from 'bun:test'
import { sqliteWitnessStore, type WitnessStore } from '../../src/witness/store'
import { postgresWitnessStore } from '../../src/witness/store-postgres'
import { submitCheckpoint, type Submitter, type WitnessLimits } from '../../src/witness/service'
import { checkSubmission } from '../../src/witness/checks'
import type { Transactor } from '../../src/store/transaction'
import { sqliteTransactor } from '../../src/store/sqlite-transaction'
import { postgresTransactor } from '../../src/store/postgres-transaction'
import { forEachBackend, type TestBackend } from '../helpers/backends'
import { testSigner } from '../helpers/app'
import { clientKey, entryHash, submission, type ClientKey } from '../helpers/checkpoints'

const NOW = Date.parse('2026-11-25T12:00:00.000Z')
const signer = testSigner()

interface Node {
  store: WitnessStore
  transactor: Transactor
}

/** One node over the backend's database; on PostgreSQL each node has its own pool. */
function nodeOf(backend: TestBackend, pools: SQL[]): Node {
  if (backend.name === 'sqlite') return { store: sqliteWitnessStore(backend.db!), transactor: sqliteTransactor(backend.db!) }
  const sql = new SQL({ url: backend.url!, max: 4 })
  pools.push(sql)
  return { store: postgresWitnessStore(sql), transactor: postgresTransactor(sql) }
}

function submit(node: Node, key: ClientKey, fields: Parameters<typeof submission>[1], limits: Partial<WitnessLimits> = {}, submitter: Submitter = { pool: 'anonymous' }) {
  const verified = checkSubmission(submission(key, fields))
  if (!verified.ok) throw new Error(verified.message)
  return submitCheckpoint({ ...node, signer, witness: 'oracle.test', limits: { anonymousDailyCap: 1000, maxRows: 0, maxBytes: 0, ...limits } }, verified.value, submitter, NOW)
}

forEachBackend('witness store', (fresh) => {
  const pools: SQL[] = []
  const twoNodes = async () => {
    const backend = await fresh()
    return [nodeOf(backend, pools), nodeOf(backend, pools)] as const
  }
  afterAll(async () => {
    await Promise.all(pools.map((pool) => pool.close()))
  })

  test('stored once; a repeat is answered with the stored receipt; another hash at the count is a fork', async () => {
    const [a, b] = await twoNodes()
    const key = clientKey()
    const first = await submit(a, key, { count: 3 })
    expect(first.kind).toBe('stored')
    const again = await submit(b, key, { count: 3, ts: '2026-11-25T11:59:59Z' })
    expect(again).toEqual({ kind: 'repeat', receiptJson: (first as { receiptJson: string }).receiptJson })
    const fork = await submit(b, key, { count: 3, last_entry_hash: entryHash(3, 'other') })
    expect(fork.kind).toBe('stored')
    expect(JSON.parse((fork as { receiptJson: string }).receiptJson).fork).toBe('true')
    const page = await a.store.page(key.kid, 'session-1', null, 10)
    expect(page.map((row) => row.count)).toEqual([3, 3])
    expect(await b.store.page(key.kid, 'session-1', { count: page[0]!.count, hash: page[0]!.last_entry_hash }, 10)).toEqual([page[1]!])
  })

  test('the same checkpoint posted to two nodes at once: one stored, the others get the same receipt', async () => {
    const [a, b] = await twoNodes()
    const key = clientKey()
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => submit(i % 2 ? a : b, key, { count: 9, ts: `2026-11-25T11:59:${String(i).padStart(2, '0')}Z` })))
    expect(results.filter((result) => result.kind === 'stored')).toHaveLength(1)
    expect(results.filter((result) => result.kind === 'repeat')).toHaveLength(9)
    expect(new Set(results.map((result) => (result as { receiptJson: string }).receiptJson)).size).toBe(1)
    expect(await a.store.page(key.kid, 'session-1', null, 10)).toHaveLength(1)
  }, 30_000)

  test('the anonymous daily cap is exact under a concurrent burst spread over two nodes', async () => {
    const [a, b] = await twoNodes()
    const key = clientKey()
    const results = await Promise.all(Array.from({ length: 16 }, (_, i) => submit(i % 2 ? a : b, key, { count: i + 1 }, { anonymousDailyCap: 5 })))
    expect(results.filter((result) => result.kind === 'stored')).toHaveLength(5)
    expect(results.filter((result) => result.kind === 'anonymous_cap')).toHaveLength(11)
    expect(await a.transactor.run(() => a.store.rowsOn('2026-11-25', 'anonymous'))).toBe(5)
  }, 30_000)

  test('an account quota is exact too, and counted apart from the anonymous pool', async () => {
    const [a, b] = await twoNodes()
    const key = clientKey()
    const account: Submitter = { pool: 'account', accountId: 7, plan: 'evidence_starter' }
    await a.transactor.run(function* () {
      // 998 of the plan's 1,000 used already today.
      for (let i = 0; i < 998; i++) {
        yield* a.store.insert({ kid: 'x', session_id: 's', count: i + 1, last_entry_hash: 'h', received_at: new Date(NOW).toISOString(), utc_day: '2026-11-25', pool: 'account', account_id: 7, fork: 0, receipt_json: '{}' })
        yield* a.store.countNewRow('2026-11-25', 'account:7', 1000)
      }
    })
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => submit(i % 2 ? a : b, key, { count: i + 1 }, {}, account)))
    expect(results.filter((result) => result.kind === 'stored')).toHaveLength(2)
    expect(results.filter((result) => result.kind === 'quota_exceeded')).toHaveLength(4)
    expect(await b.transactor.run(() => b.store.rowsOn('2026-11-25', 'anonymous'))).toBe(0)
  }, 60_000)

  test('the row ceiling refuses new checkpoints, not repeats', async () => {
    const [a] = await twoNodes()
    const key = clientKey()
    expect((await submit(a, key, { count: 1 }, { maxRows: 2 })).kind).toBe('stored')
    expect((await submit(a, key, { count: 2 }, { maxRows: 2 })).kind).toBe('stored')
    expect((await submit(a, key, { count: 3 }, { maxRows: 2 })).kind).toBe('storage_full')
    expect((await submit(a, key, { count: 2 }, { maxRows: 2 })).kind).toBe('repeat')
    expect(await a.transactor.run(() => a.store.databaseBytes())).toBeGreaterThan(0)
  })
})
