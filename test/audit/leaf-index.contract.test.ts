// The leaf index of sealed days (src/audit/leaf-index.ts) on both backends: every leaf of a
// sealed day of several blocks is found through it and proves; two ids sharing a fingerprint
// each get their own leaf; a seal cut short and run again leaves the same rows as one that was
// not; a day sealed into the released audit_leaves table still proves after migration 11.
import { expect, test } from 'bun:test'
import type { Database } from 'bun:sqlite'
import type { SQL } from 'bun'
import { randomUUID } from 'node:crypto'
import { sqliteAuditStore, type AuditRow, type AuditStore, type DigestRow } from '../../src/audit/store'
import { postgresAuditStore } from '../../src/audit/store-postgres'
import { AuditLog } from '../../src/audit/log'
import { DayTrees, BLOCK_SIZE } from '../../src/audit/day-tree'
import { DigestSealer, STARTED_ON } from '../../src/audit/sealer'
import { inclusionProof } from '../../src/audit/queries'
import { bucketBits, bucketOf, candidatesIn, fingerprint } from '../../src/audit/leaf-buckets'
import { writeLeafIndex } from '../../src/audit/leaf-index'
import { leafHash, rootOf, toHex, verifyInclusion } from '../../src/audit/merkle'
import { memoryLogger } from '../../src/log'
import { openDatabase } from '../../src/store/database'
import { applyMigrations } from '../../src/store/migrate'
import { applyPostgresMigrations } from '../../src/store/postgres-migrate'
import { MIGRATIONS } from '../../src/wiring/migrations'
import { FakeClock, testSigner } from '../helpers/app'
import { forEachBackend, type TestBackend } from '../helpers/backends'
import { dropAfterAll, emptyDatabase } from '../helpers/postgres'

const DAY = '2026-11-24'
const NEXT = '2026-11-25'
const AFTER = '2026-11-26'

function row(day: string, id: string = randomUUID()): AuditRow {
  return { receipt_id: id, day, mic: 'XNYS', status: 'OPEN', source: 'SCHEDULE', issued_at: `${day}T12:00:00.000Z`, schema_version: '5.0', surface: '/v5/status', key_hash: null, payment_ref: null, client_ref: 'c', receipt_json: '{}' }
}

/** Seals every day before `today` as the service does. */
async function sealThrough(store: AuditStore, today: string): Promise<string[]> {
  const audit = new AuditLog(store, memoryLogger())
  const clock = new FakeClock(Date.parse(`${today}T00:01:00.000Z`))
  return new DigestSealer({ audit, trees: new DayTrees(store), signer: testSigner(), issuer: 'oracle.test', clock, log: memoryLogger() }).tick()
}

/** Every id's leaf looked up (a few at a time), and the proofs of `sampled` of them checked against the sealed root. */
async function expectLeaves(store: AuditStore, date: string, ids: readonly string[], sampled: (index: number) => boolean) {
  const found = []
  for (let i = 0; i < ids.length; i += 64) found.push(...(await Promise.all(ids.slice(i, i + 64).map((id) => store.sealedLeaf(id)))))
  expect(found).toEqual(ids.map((_, index) => ({ date, leaf_index: index })))
  const root = (await store.digest(date))!.merkle_root
  const trees = new DayTrees(store)
  for (const [index, id] of ids.entries()) {
    if (!sampled(index)) continue
    const proof = await inclusionProof({ store, trees }, id, AFTER)
    expect(proof).toMatchObject({ date, leaf_index: index, sealed: true, merkle_root: root })
    expect(verifyInclusion(id, index, ids.length, proof.audit_path, root)).toBe(true)
  }
}

/** Rows of a table in key order, blobs as hex: what two databases are compared by. */
async function tableRows(db: TestBackend, table: 'audit_leaf_runs' | 'audit_leaf_buckets'): Promise<unknown[]> {
  const order = table === 'audit_leaf_runs' ? 'date, run' : 'date, run, bucket'
  const rows = db.db ? (db.db.query(`SELECT * FROM ${table} ORDER BY ${order}`).all() as Record<string, unknown>[]) : ((await db.sql!.unsafe(`SELECT * FROM ${table} ORDER BY ${order}`)) as Record<string, unknown>[])
  return rows.map((r) => Object.fromEntries(Object.entries(r).map(([name, value]) => [name, value instanceof Uint8Array ? Buffer.from(value).toString('hex') : Number.isNaN(Number(value)) ? value : Number(value)])))
}

async function count(db: TestBackend, table: string): Promise<number> {
  const text = `SELECT count(*) AS n FROM ${table}`
  return Number(db.db ? (db.db.query(text).get() as { n: number }).n : ((await db.sql!.unsafe(text)) as { n: string }[])[0]!.n)
}

/** Two random ids whose fingerprints fall in the same bucket of a run of `leaves` with the same low half: a collision in the index. */
function collidingIds(leaves: number): [string, string] {
  const bits = bucketBits(leaves)
  const seen = new Map<number, string>()
  for (;;) {
    const id = randomUUID()
    const { hi, lo } = fingerprint(id)
    const key = bucketOf(hi, bits) * 2 ** 32 + lo
    const other = seen.get(key)
    if (other) return [other, id]
    seen.set(key, id)
  }
}

forEachBackend('leaf index', (fresh, backend) => {
  const pick = (db: TestBackend) => db.pick({ sqlite: sqliteAuditStore, postgres: postgresAuditStore })

  test('every leaf of a sealed day of three blocks is found through the index and proves; another day beside it; an unknown id is not found', async () => {
    const db = await fresh()
    const store = pick(db)
    await store.setStateIfMissing(STARTED_ON, DAY)
    const day = Array.from({ length: 2 * BLOCK_SIZE + 552 }, () => row(DAY))
    const next = Array.from({ length: 40 }, () => row(NEXT))
    await store.insertBatch(day)
    await store.insertBatch(next)
    expect(await sealThrough(store, AFTER)).toEqual([DAY, NEXT])
    // Through the new tables, not the released one: one run per day, about 128 entries a bucket.
    expect(await count(db, 'audit_leaves')).toBe(0)
    expect(await tableRows(db, 'audit_leaf_runs')).toEqual([
      { date: DAY, run: 0, bits: bucketBits(day.length), first_leaf: 0, leaves: day.length },
      { date: NEXT, run: 0, bits: 0, first_leaf: 0, leaves: next.length },
    ])
    expect(await count(db, 'audit_leaf_buckets')).toBeLessThanOrEqual(2 ** bucketBits(day.length) + 1)
    await expectLeaves(store, DAY, day.map((r) => r.receipt_id), (index) => index % 97 === 0 || index % BLOCK_SIZE === BLOCK_SIZE - 1 || index === day.length - 1)
    await expectLeaves(store, NEXT, next.map((r) => r.receipt_id), (index) => index === 39)
    expect(await store.sealedLeaf(randomUUID())).toBeNull()
  }, 60_000)

  test('two ids sharing a fingerprint in one bucket: each is confirmed at its own leaf', async () => {
    const db = await fresh()
    const store = pick(db)
    await store.setStateIfMissing(STARTED_ON, DAY)
    const size = BLOCK_SIZE + 76
    const [first, second] = collidingIds(size)
    const rows = Array.from({ length: size }, (_, index) => row(DAY, index === 10 ? first : index === 1050 ? second : undefined))
    await store.insertBatch(rows)
    expect(await sealThrough(store, NEXT)).toEqual([DAY])
    // The collision is in the stored index: one bucket row holds both leaves under one fingerprint half.
    const { hi, lo } = fingerprint(first)
    const bucket = bucketOf(hi, bucketBits(size))
    const stored = (await tableRows(db, 'audit_leaf_buckets')).find((r) => (r as { bucket: number }).bucket === bucket) as { entries: string }
    expect(candidatesIn(Buffer.from(stored.entries, 'hex'), lo)).toEqual([10, 1050])
    expect(await store.sealedLeaf(first)).toEqual({ date: DAY, leaf_index: 10 })
    expect(await store.sealedLeaf(second)).toEqual({ date: DAY, leaf_index: 1050 })
    await expectLeaves(store, DAY, rows.map((r) => r.receipt_id), (index) => index === 10 || index === 1050)
  }, 60_000)

  test('a seal cut short and run again leaves the same rows as one that was not', async () => {
    const [clean, cut] = [await fresh(), await fresh()]
    const rows = Array.from({ length: 1300 }, () => row(DAY))
    const [cleanStore, cutStore] = [pick(clean), pick(cut)]
    for (const store of [cleanStore, cutStore]) await store.insertBatch(rows)
    // Runs of 500 leaves, so that the day has three.
    await writeLeafIndex(cleanStore, DAY, rows.length, 500)
    // Cut short after the second run's buckets, before its own row.
    const failing: AuditStore = { ...cutStore, insertLeafRun: (date, run) => (run.run === 1 ? Promise.reject(new Error('crash')) : cutStore.insertLeafRun(date, run)) }
    // (Caught, not `expect(…).rejects`: that took seconds on PostgreSQL here, for no reason found.)
    const crash = await writeLeafIndex(failing, DAY, rows.length, 500).then(() => null, (error: Error) => error.message)
    expect(crash).toBe('crash')
    expect((await tableRows(cut, 'audit_leaf_runs')).map((r) => (r as { run: number }).run)).toEqual([0])
    expect(new Set((await tableRows(cut, 'audit_leaf_buckets')).map((r) => (r as { run: number }).run))).toEqual(new Set([0, 1]))
    await writeLeafIndex(cutStore, DAY, rows.length, 500)
    await writeLeafIndex(cleanStore, DAY, rows.length, 500) // a second time: nothing changes
    const runs = await tableRows(clean, 'audit_leaf_runs')
    expect(runs).toHaveLength(3)
    expect(await tableRows(cut, 'audit_leaf_runs')).toEqual(runs)
    expect(await tableRows(cut, 'audit_leaf_buckets')).toEqual(await tableRows(clean, 'audit_leaf_buckets'))
    // Not sealed yet: the index does not answer for the day; sealed, the leaves of all three runs are found.
    expect(await cutStore.sealedLeaf(rows[0]!.receipt_id)).toBeNull()
    const tree = await new DayTrees(cutStore).tree(DAY)
    const blocks = tree.full.roots.slice(0, tree.fullCount).map((root, index) => ({ root: toHex(root), last_seq: tree.full.lastSeqs[index]! }))
    // The digest's recount (the full block's rows and the 276 after them) refuses a size that is not the day's.
    const wrong = await cutStore.insertDigest(DAY, tree.size - 1, blocks, (previous) => digestRow(DAY, tree.size - 1, tree.rootHex, previous)).then(() => null, (error: Error) => error.message)
    expect(wrong).toContain('has 1300 rows')
    await cutStore.insertDigest(DAY, tree.size, blocks, (previous) => digestRow(DAY, tree.size, tree.rootHex, previous))
    await expectLeaves(cutStore, DAY, rows.map((r) => r.receipt_id), (index) => index === 499 || index === 500 || index === 1299)
  }, 60_000)

  const drop = backend === 'postgres' ? dropAfterAll() : null
  test('a day sealed into the released audit_leaves table still proves after migration 11, beside a day sealed after it', async () => {
    const released = MIGRATIONS.filter((migration) => migration.id !== 11)
    const ids = Array.from({ length: BLOCK_SIZE + 476 }, () => randomUUID())
    let sqlite: Database | null = null
    let pg: SQL | null = null
    if (backend === 'sqlite') {
      sqlite = openDatabase(':memory:')
      applyMigrations(sqlite, released)
    } else {
      pg = drop!(await emptyDatabase('leaf_released')).sql
      await applyPostgresMigrations(pg, released)
    }
    // As the released service sealed a day: its rows, the leaf index in audit_leaves, the roots of its full blocks, the digest.
    const [insertRows, ...sealing] = sealedUnderReleasedSchema(DAY, ids)
    if (sqlite) for (const [text, params] of [insertRows!, ...sealing]) sqlite.query(text).run(...(params as (string | number | null)[]))
    else {
      await pg!`SELECT openbell_audit_append(${JSON.stringify(ids.map((id) => row(DAY, id)))})`
      for (const [text, params] of sealing) await pg!.unsafe(numbered(text), params as (string | number | null)[])
    }
    if (sqlite) expect(applyMigrations(sqlite, MIGRATIONS)).toEqual([11])
    else expect(await applyPostgresMigrations(pg!, MIGRATIONS)).toEqual([11])
    const store = sqlite ? sqliteAuditStore(sqlite) : postgresAuditStore(pg!)
    await expectLeaves(store, DAY, ids, (index) => index % 101 === 0 || index === ids.length - 1)
    // The next day is sealed into the new index; both days answer.
    const next = Array.from({ length: 300 }, () => row(NEXT))
    await store.insertBatch(next)
    expect(await sealThrough(store, AFTER)).toEqual([NEXT])
    await expectLeaves(store, NEXT, next.map((r) => r.receipt_id), (index) => index === 299)
    expect(await store.sealedLeaf(ids[7]!)).toEqual({ date: DAY, leaf_index: 7 })
    if (sqlite) sqlite.close()
  }, 60_000)
})

function digestRow(date: string, size: number, root: string, previous: DigestRow | null): DigestRow {
  return { date, total_receipts_issued: size, exchanges_attested: '["XNYS"]', merkle_root: root, previous_day_merkle_root: previous?.merkle_root ?? null, chain_length: (previous?.chain_length ?? 0) + 1, computed_at: `${date}T23:59:59.000Z`, signed_json: '{}', log_receipt_json: null, resigned_json: null }
}

/** `?` placeholders as PostgreSQL's $1, $2, … */
const numbered = (text: string) => {
  let n = 0
  return text.replace(/\?/g, () => `$${++n}`)
}

/**
 * The statements that leave `date` sealed as the released service left it (positions 1..n in a
 * fresh database): the first inserts the rows (SQLite only; PostgreSQL takes them through its
 * append function), then the leaf index as the released sealer wrote it, the full blocks' roots and the digest.
 */
function sealedUnderReleasedSchema(date: string, ids: readonly string[]): [string, unknown[]][] {
  const hashes = ids.map(leafHash)
  const statements: [string, unknown[]][] = [
    [`INSERT INTO audit_log (receipt_id, day, mic, status, source, issued_at, schema_version, surface, client_ref, receipt_json) SELECT value, ?, 'XNYS', 'OPEN', 'SCHEDULE', ?, '5.0', '/v5/status', 'c', '{}' FROM json_each(?) ORDER BY key`, [date, `${date}T12:00:00.000Z`, JSON.stringify(ids)]],
    [`INSERT INTO audit_leaves (receipt_id, date, leaf_index) SELECT receipt_id, day, row_number() OVER (ORDER BY seq) - 1 FROM audit_log WHERE day = ?`, [date]],
  ]
  for (let block = 0; (block + 1) * BLOCK_SIZE <= ids.length; block++)
    statements.push([`INSERT INTO audit_blocks (date, block, root, last_seq) VALUES (?, ?, ?, ?)`, [date, block, toHex(rootOf(hashes.slice(block * BLOCK_SIZE, (block + 1) * BLOCK_SIZE))), (block + 1) * BLOCK_SIZE]])
  const { log_receipt_json: _log, resigned_json: _again, ...digest } = digestRow(date, ids.length, toHex(rootOf(hashes)), null)
  statements.push([`INSERT INTO audit_digests (date, total_receipts_issued, exchanges_attested, merkle_root, previous_day_merkle_root, chain_length, computed_at, signed_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, Object.values(digest)])
  return statements
}
