// The tile store on both backends: integration steps move size, root and edge together or not
// at all (a step from a stale size writes nothing, also from a second pool at once on
// PostgreSQL), full tiles are written once and never changed, and a checkpoint is stored only
// for a tree the tiles reach and never replaced by a smaller one.
import { SQL } from 'bun'
import { afterAll, expect, test } from 'bun:test'
import { randomUUID } from 'node:crypto'
import { sqliteTileStore, type TileStore } from '../../src/transparency/store'
import { postgresTileStore } from '../../src/transparency/store-postgres'
import { sqliteAuditStore, type AuditRow } from '../../src/audit/store'
import { postgresAuditStore } from '../../src/audit/store-postgres'
import { appendEntries, emptyEdge } from '../../src/transparency/integrate'
import { ENTRIES_LEVEL } from '../../src/transparency/tiles'
import { forEachBackend, type TestBackend } from '../helpers/backends'

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex')
const entries = (n: number, from = 0) => Array.from({ length: n }, (_, i) => new Uint8Array(Buffer.from(`{"n":${from + i}}`)))

function row(day: string, json: string | null = null): AuditRow {
  const id = randomUUID()
  return { receipt_id: id, day, mic: 'XNYS', status: 'OPEN', source: 'SCHEDULE', issued_at: `${day}T12:00:00.000Z`, schema_version: 'v5.0', surface: '/v5/status', key_hash: 'k'.repeat(64), payment_ref: null, client_ref: null, receipt_json: json ?? JSON.stringify({ receipt_id: id }) }
}

forEachBackend('tile store', (fresh) => {
  const pools: SQL[] = []
  afterAll(async () => {
    await Promise.all(pools.map((pool) => pool.close()))
  })
  const nodeStore = (db: TestBackend): TileStore => {
    if (db.name === 'sqlite') return sqliteTileStore(db.db!)
    const sql = new SQL({ url: db.url!, max: 4 })
    pools.push(sql)
    return postgresTileStore(sql)
  }

  test('a new database: the log begins at position 1, empty, no checkpoint', async () => {
    const store = nodeStore(await fresh())
    expect(await store.state()).toEqual({ baseSeq: 1, size: 0, rootHex: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', checkpoint: null, checkpointSize: 0, checkpointAt: 0 })
    expect(await store.edge()).toEqual([])
  })

  test('integration steps: size, root, full tiles and the edge move together; a stale step writes nothing', async () => {
    const store = nodeStore(await fresh())
    const first = appendEntries(emptyEdge(), entries(300))
    expect(await store.integrate(0, { size: 300, rootHex: hex(first.root), full: first.full, partials: first.partials })).toBe(true)
    const state = await store.state()
    expect([state.size, state.rootHex]).toEqual([300, hex(first.root)])
    expect(hex((await store.tile(0, 0))!)).toBe(hex(first.full.find((t) => t.level === 0)!.data))
    expect((await store.tile(ENTRIES_LEVEL, 0))!.length).toBe(first.full.find((t) => t.level === ENTRIES_LEVEL)!.data.length)
    expect(await store.tile(0, 1)).toBeNull()
    expect((await store.edge()).map((t) => [t.level, t.index, t.width])).toEqual([[-1, 1, 44], [0, 1, 44], [1, 0, 1]])
    // A second integrator that still believes the size is 0 changes nothing.
    const stale = appendEntries(emptyEdge(), entries(5, 1000))
    expect(await store.integrate(0, { size: 5, rootHex: hex(stale.root), full: stale.full, partials: stale.partials })).toBe(false)
    expect((await store.state()).size).toBe(300)
    expect((await store.edge()).length).toBe(3)
    // The next step replaces the edge (level 1 moves to two hashes; nothing left at level -1 past 512).
    const second = appendEntries(first.edge, entries(212, 300))
    expect(await store.integrate(300, { size: 512, rootHex: hex(second.root), full: second.full, partials: second.partials })).toBe(true)
    expect((await store.edge()).map((t) => [t.level, t.index, t.width])).toEqual([[1, 0, 2]])
    expect((await store.tile(0, 1)) !== null && (await store.tile(ENTRIES_LEVEL, 1)) !== null).toBe(true)
  })

  test('full tiles never change: an insert of a stored tile keeps the first; updates are refused', async () => {
    const db = await fresh()
    const store = nodeStore(db)
    const step = appendEntries(emptyEdge(), entries(256))
    await store.integrate(0, { size: 256, rootHex: hex(step.root), full: step.full, partials: step.partials })
    const before = hex((await store.tile(0, 0))!)
    const other = appendEntries(emptyEdge(), entries(256, 9))
    await store.integrate(256, { size: 512, rootHex: hex(other.root), full: other.full.map((t) => ({ ...t })), partials: [] })
    expect(hex((await store.tile(0, 0))!)).toBe(before)
    const update = db.name === 'sqlite' ? async () => db.db!.run('UPDATE log_tiles SET data = x\'00\'') : async () => db.sql!`UPDATE log_tiles SET data = '\\x00'::bytea`
    await expect(update()).rejects.toThrow(/never changes/)
  })

  test('checkpoints: only for a size the tiles reach, never smaller than the stored one, the same size again', async () => {
    const store = nodeStore(await fresh())
    expect(await store.publishCheckpoint(3, 'cp3', 1000)).toBe(false) // nothing integrated
    const step = appendEntries(emptyEdge(), entries(3))
    await store.integrate(0, { size: 3, rootHex: hex(step.root), full: step.full, partials: step.partials })
    expect(await store.publishCheckpoint(3, 'cp3', 1000)).toBe(true)
    expect(await store.publishCheckpoint(2, 'cp2', 2000)).toBe(false)
    expect(await store.publishCheckpoint(3, 'cp3 cosigned', 3000)).toBe(true)
    expect(await store.publishCheckpoint(4, 'cp4', 4000)).toBe(false)
    const state = await store.state()
    expect([state.checkpoint, state.checkpointSize, state.checkpointAt]).toEqual(['cp3 cosigned', 3, 3000])
  })

  test('two integrators at once from the same size: exactly one step lands', async () => {
    const db = await fresh()
    const a = nodeStore(db)
    const b = nodeStore(db)
    const left = appendEntries(emptyEdge(), entries(10))
    const right = appendEntries(emptyEdge(), entries(12, 50))
    const results = await Promise.all([
      a.integrate(0, { size: 10, rootHex: hex(left.root), full: left.full, partials: left.partials }),
      b.integrate(0, { size: 12, rootHex: hex(right.root), full: right.full, partials: right.partials }),
    ])
    expect(results.filter(Boolean).length).toBe(1)
    const state = await a.state()
    const won = results[0] ? left : right
    expect([state.size, state.rootHex]).toEqual([won.edge.size, hex(won.root)])
    expect((await b.edge()).find((t) => t.level === 0)!.width).toBe(won.edge.size)
  })

  test('the audit store hands out entries by position and the last position of a day', async () => {
    const db = await fresh()
    const audit = db.pick({ sqlite: sqliteAuditStore, postgres: postgresAuditStore })
    const rows = [row('2026-11-24'), row('2026-11-25'), row('2026-11-24'), row('2026-11-25')]
    await audit.insertBatch(rows)
    expect((await audit.entries(2, 2)).map((e) => [e.seq, e.receipt_json])).toEqual([[2, rows[1]!.receipt_json], [3, rows[2]!.receipt_json]])
    expect(await audit.entries(5, 10)).toEqual([])
    // Where a backend hands the stored bytes, they are the UTF-8 of the same text (a non-ASCII body too).
    if (audit.entryBytes) {
      const accented = row('2026-11-25', JSON.stringify({ reason: 'Börse geschlossen — 休場' }))
      await audit.insertBatch([accented])
      expect((await audit.entryBytes(2, 4)).map(([seq, body]) => [seq, Buffer.from(body!).toString('hex')])).toEqual(
        [rows[1]!, rows[2]!, rows[3]!, accented].map((r, i) => [i + 2, Buffer.from(r.receipt_json!, 'utf8').toString('hex')]),
      )
    }
    expect(await audit.lastSeqOfDay('2026-11-24')).toBe(3)
    expect(await audit.lastSeqOfDay('2026-11-23')).toBeNull()
  })
})
