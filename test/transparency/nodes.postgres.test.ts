// One log across nodes on PostgreSQL: two nodes (two pools) append receipts at once through their
// own group-committed audit logs; the integrator of one node builds the tiles and publishes a
// checkpoint cosigned by the witness; the other node serves the same tiles and proofs, and the
// tree equals the one recomputed from every logged body in log order. A receipt committed on one
// node before another was appended on the other has the lower leaf.
import { SQL } from 'bun'
import { afterAll, describe, expect, test } from 'bun:test'
import { randomUUID } from 'node:crypto'
import { AuditLog } from '../../src/audit/log'
import { postgresAuditStore } from '../../src/audit/store-postgres'
import type { AuditRow } from '../../src/audit/store'
import { leafHash, rootFromPath, rootOf } from '../../src/audit/merkle'
import { loadConfig } from '../../src/config'
import { memoryLogger } from '../../src/log'
import { postgresTransactor } from '../../src/store/postgres-transaction'
import { postgresTileStore } from '../../src/transparency/store-postgres'
import { postgresTlogWitnessStore } from '../../src/witness/tlog/store-postgres'
import { transparencyServices } from '../../src/wiring/transparency'
import { parseNote } from '../../src/transparency/note'
import { parseCheckpoint } from '../../src/transparency/checkpoint'
import { consistencyProof, inclusionProof, verifyConsistency } from '../../src/transparency/proofs'
import { verifyCosignature } from '../../src/transparency/cosignature'
import { migratedDatabase, startClusterFirst, type TestDatabase } from '../helpers/postgres'
import { FakeClock, testSigner } from '../helpers/app'

const DAY = '2026-11-25'
function row(): AuditRow {
  const id = randomUUID()
  return { receipt_id: id, day: DAY, mic: 'XNYS', status: 'OPEN', source: 'SCHEDULE', issued_at: `${DAY}T12:00:00.000Z`, schema_version: 'v5.0', surface: '/v5/status', key_hash: 'k'.repeat(64), payment_ref: null, client_ref: null, receipt_json: JSON.stringify({ receipt_id: id, n: Math.random() }) }
}

describe('the receipt log on PostgreSQL, two nodes', () => {
  startClusterFirst()
  let database: TestDatabase
  const pools: SQL[] = []
  afterAll(async () => {
    await Promise.all(pools.map((pool) => pool.close()))
    await database?.drop()
  })

  test('concurrent appends on two nodes, integrated on one, served alike by both', async () => {
    database = await migratedDatabase('log-nodes')
    const node = () => {
      const sql = new SQL({ url: database.url, max: 4 })
      pools.push(sql)
      const log = memoryLogger('error')
      const config = loadConfig({ ISSUER: 'pg.test', DATA_DIR: '/nonexistent' })
      const audit = new AuditLog(postgresAuditStore(sql), log)
      const parts = transparencyServices({ config, clock: new FakeClock(Date.parse(`${DAY}T12:00:00.000Z`)), log, signer: testSigner(), transactor: postgresTransactor(sql), audit: audit.store, tiles: postgresTileStore(sql), tlogWitness: postgresTlogWitnessStore(sql) })
      return { audit, ...parts }
    }
    const [a, b] = [node(), node()]
    // 600 receipts, appended on both nodes at once in small groups.
    await Promise.all(Array.from({ length: 60 }, (_, i) => (i % 2 ? a : b).audit.append(Array.from({ length: 10 }, row))))
    expect(await a.transparency.integrator.tick()).toBe(600)
    const state = await b.transparency.tiles.state()
    const note = parseNote(state.checkpoint!)!
    const checkpoint = parseCheckpoint(note.text)!
    expect(checkpoint.size).toBe(600)
    expect(verifyCosignature(note, a.transparency.keys!.witness.ed25519)).not.toBeNull()
    // The tree is the one over every body in log order.
    const bodies = (await b.audit.store.entries(1, 1000)).map((entry) => new Uint8Array(Buffer.from(entry.receipt_json!)))
    expect(Buffer.compare(rootOf(bodies.map(leafHash)), checkpoint.root)).toBe(0)
    // Node B's proofs, from the shared tiles, verify.
    const consistency = await consistencyProof(b.transparency.reader.nodes(600), 257, 600)
    expect(verifyConsistency(257, 600, rootOf(bodies.slice(0, 257).map(leafHash)), checkpoint.root, consistency)).toBe(true)
    const path = await inclusionProof(b.transparency.reader.nodes(600), 421, 600)
    expect(Buffer.compare(rootFromPath(leafHash(bodies[421]!), 421, 600, path)!, checkpoint.root)).toBe(0)
    // More on node B, integrated by node A: consistent with the first checkpoint.
    await b.audit.append(Array.from({ length: 5 }, row))
    expect(await a.transparency.integrator.tick()).toBe(5)
    const next = parseCheckpoint(parseNote((await a.transparency.tiles.state()).checkpoint!)!.text)!
    expect(next.size).toBe(605)
    expect(verifyConsistency(600, 605, checkpoint.root, next.root, await consistencyProof(b.transparency.reader.nodes(605), 600, 605))).toBe(true)

    // Order across nodes: a receipt committed (answered) on one node before another was appended
    // on the other node has the lower leaf. Six clients, three per node, one event counter.
    let events = 0
    const seen: { id: string; requested: number; answered: number }[] = []
    await Promise.all(
      Array.from({ length: 6 }, async (_, client) => {
        for (let i = 0; i < 15; i++) {
          const receipt = row()
          const requested = events++
          await (client % 2 ? a : b).audit.append([receipt])
          seen.push({ id: receipt.receipt_id, requested, answered: events++ })
        }
      }),
    )
    expect(await a.transparency.integrator.tick()).toBe(90)
    // Log position = leaf index + 1 (this log began at position 1).
    const leaves = new Map((await b.audit.store.entries(606, 200)).map((entry) => [(JSON.parse(entry.receipt_json!) as { receipt_id: string }).receipt_id, entry.seq]))
    expect(leaves.size).toBe(90)
    const wrong = seen.flatMap((earlier) => seen.filter((later) => earlier.answered < later.requested && leaves.get(earlier.id)! >= leaves.get(later.id)!).map((later) => `${earlier.id} before ${later.id}`))
    expect(wrong).toEqual([])
    expect(seen.filter((earlier) => seen.some((later) => earlier.answered < later.requested)).length).toBeGreaterThan(60)
  }, 60_000)
})
