// The C2SP witness's store on both backends: admin-added logs, and the head of each log moved by
// a compare-and-swap on the old size; on PostgreSQL two pools (two nodes) racing the same
// add-checkpoint from the same old size: exactly one advances, the other is told the new size.
import { SQL } from 'bun'
import { afterAll, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { sqliteTlogWitnessStore, type TlogWitnessStore } from '../../src/witness/tlog/store'
import { postgresTlogWitnessStore } from '../../src/witness/tlog/store-postgres'
import { addCheckpoint, type AddCheckpointOutcome } from '../../src/witness/tlog/add-checkpoint'
import { sqliteTransactor } from '../../src/store/sqlite-transaction'
import { postgresTransactor } from '../../src/store/postgres-transaction'
import { parseVkey } from '../../src/transparency/note'
import type { Transactor } from '../../src/store/transaction'
import { forEachBackend, type TestBackend } from '../helpers/backends'
import { witnessCosignersOf } from '../helpers/note-keys'

const vectors = JSON.parse(readFileSync(join(import.meta.dir, '../fixtures/transparency/note-vectors.json'), 'utf8')).witness
const proof58 = (vectors.consistency_5_8_hex as string[]).map((hex) => new Uint8Array(Buffer.from(hex, 'hex')))
const head = (size: number) => ({ size, root: 'ab'.repeat(32), checkpoint: `cp ${size}`, cosigned_at: 1000 + size })

forEachBackend('C2SP witness store', (fresh) => {
  const pools: SQL[] = []
  afterAll(async () => {
    await Promise.all(pools.map((pool) => pool.close()))
  })
  const node = (db: TestBackend): { store: TlogWitnessStore; transactor: Transactor } => {
    if (db.name === 'sqlite') return { store: sqliteTlogWitnessStore(db.db!), transactor: sqliteTransactor(db.db!) }
    const sql = new SQL({ url: db.url!, max: 4 })
    pools.push(sql)
    return { store: postgresTlogWitnessStore(sql), transactor: postgresTransactor(sql) }
  }

  test('added logs: once per (origin, vkey), listed in order', async () => {
    const { store } = node(await fresh())
    expect(await store.addLog({ origin: 'monkeys', vkey: vectors.log_vkey, added_at: '2026-11-25T00:00:00.000Z' })).toBe(true)
    expect(await store.addLog({ origin: 'monkeys', vkey: vectors.log_vkey, added_at: '2026-11-25T00:00:01.000Z' })).toBe(false)
    expect(await store.addLog({ origin: 'bananas', vkey: vectors.other_log_vkey, added_at: '2026-11-25T00:00:02.000Z' })).toBe(true)
    expect((await store.addedLogs()).map((log) => [log.origin, log.added_at])).toEqual([['bananas', '2026-11-25T00:00:02.000Z'], ['monkeys', '2026-11-25T00:00:00.000Z']])
  })

  test('the head moves only from the size it holds', async () => {
    const { store, transactor } = node(await fresh())
    const run = <T>(step: () => Generator<any, T, any>) => transactor.run(step)
    expect(await run(() => store.head('monkeys'))).toBeNull()
    expect(await run(() => store.advance('monkeys', 0, head(5)))).toBe(true)
    expect(await run(() => store.advance('monkeys', 0, head(6)))).toBe(false)
    expect(await run(() => store.advance('monkeys', 4, head(6)))).toBe(false)
    expect(await run(() => store.advance('monkeys', 5, head(8)))).toBe(true)
    expect(await store.latest('monkeys')).toEqual(head(8))
    expect(await store.latest('bananas')).toBeNull()
  })

  test('add-checkpoint racing from one old size on two nodes: one cosignature, one 409 with the new size', async () => {
    const db = await fresh()
    const nodes = [node(db), node(db)]
    const cosigner = witnessCosignersOf(vectors.witness_skey)
    const keysOf = async (origin: string) => (origin === 'monkeys' ? [parseVkey(vectors.log_vkey)!] : [])
    const submit = (which: number, oldSize: number, checkpoint: string, proof: Uint8Array[] = []) =>
      addCheckpoint({ store: nodes[which]!.store, transactor: nodes[which]!.transactor, cosigner, keysOf }, { oldSize, proof, checkpoint }, 1_764_000_000_000)
    expect((await submit(0, 0, vectors.checkpoint_5)).kind).toBe('cosigned')
    for (let round = 0; round < 3; round++) {
      const outcomes: AddCheckpointOutcome[] = await Promise.all([submit(0, 5, vectors.checkpoint_8, proof58), submit(1, 5, vectors.checkpoint_8, proof58)])
      if (round === 0) {
        expect(outcomes.map((o) => o.kind).sort()).toEqual(['conflict', 'cosigned'])
        expect(outcomes.find((o) => o.kind === 'conflict')).toEqual({ kind: 'conflict', size: 8 })
      } else {
        // Both late now: the head is at 8.
        expect(outcomes).toEqual([{ kind: 'conflict', size: 8 }, { kind: 'conflict', size: 8 }])
      }
    }
    expect((await nodes[1]!.store.latest('monkeys'))!.size).toBe(8)
  })
})
