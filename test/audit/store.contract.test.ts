// The audit store on both backends: the log's queries, sealing and pruning (the leaf index:
// leaf-index.contract.test.ts); and
// on PostgreSQL through two pools as two nodes: concurrent batches get gapless positions and a
// reader never sees a hole (the day trees cache full blocks on that), a day sealed by one node
// refuses the other's late rows inside its transaction, and both nodes compute the same tree.
import { SQL } from 'bun'
import { afterAll, expect, test } from 'bun:test'
import { randomUUID } from 'node:crypto'
import { SealedDayError, sqliteAuditStore, type AuditRow, type AuditStore, type DigestRow } from '../../src/audit/store'
import { postgresAuditStore } from '../../src/audit/store-postgres'
import { AuditLog } from '../../src/audit/log'
import { DayTrees } from '../../src/audit/day-tree'
import { memoryLogger } from '../../src/log'
import { DigestSealer, STARTED_ON } from '../../src/audit/sealer'
import { FakeClock, testSigner } from '../helpers/app'
import { forEachBackend, type TestBackend } from '../helpers/backends'

const DAY = '2026-11-24'
const NEXT = '2026-11-25'

function row(day: string, extra: Partial<AuditRow> = {}): AuditRow {
  const id = randomUUID()
  const issued = `${day}T12:00:00.000Z`
  return { receipt_id: id, day, mic: 'XNYS', status: 'OPEN', source: 'SCHEDULE', issued_at: issued, schema_version: '5.0', surface: '/v5/status', key_hash: 'k'.repeat(64), payment_ref: null, client_ref: null, receipt_json: JSON.stringify({ receipt_id: id }), ...extra }
}

const digestOf = (date: string, size: number) => (previous: DigestRow | null): DigestRow => ({
  date,
  total_receipts_issued: size,
  exchanges_attested: '["XNYS"]',
  merkle_root: 'r'.repeat(64),
  previous_day_merkle_root: previous?.merkle_root ?? null,
  chain_length: (previous?.chain_length ?? 0) + 1,
  computed_at: `${date}T23:59:59.000Z`,
  signed_json: '{}',
  log_receipt_json: null,
  resigned_json: null,
})

forEachBackend('audit store', (fresh) => {
  const pools: SQL[] = []
  afterAll(async () => {
    await Promise.all(pools.map((pool) => pool.close()))
  })
  /** A node's store: on PostgreSQL its own pool. */
  const nodeStore = (db: TestBackend): AuditStore => {
    if (db.name === 'sqlite') return sqliteAuditStore(db.db!)
    const sql = new SQL({ url: db.url!, max: 4 })
    pools.push(sql)
    return postgresAuditStore(sql)
  }

  test('the log: positions, day queries, archive pages, a key’s receipts', async () => {
    const store = nodeStore(await fresh())
    const first = [row(DAY), row(DAY, { mic: 'XLON' }), row(DAY, { key_hash: null, client_ref: 'anon:x' })]
    await store.insertBatch(first)
    await store.insertBatch([row(NEXT, { issued_at: `${NEXT}T00:00:01.000Z`, key_hash: 'm'.repeat(64) })])
    const ids = await store.dayIds(DAY, 0, 10)
    expect(ids.map((id) => id.receipt_id)).toEqual(first.map((r) => r.receipt_id))
    expect(ids.map((id) => id.seq)).toEqual([1, 2, 3])
    expect(await store.dayIds(DAY, 1, 1)).toEqual([ids[1]!])
    expect(await store.dayCount(DAY)).toBe(3)
    expect(await store.dayHasMic(DAY, 'XLON')).toBe(true)
    expect(await store.dayHasMic(DAY, 'XPAR')).toBe(false)
    expect([await store.firstLogDay(), await store.lastLogDay()]).toEqual([DAY, NEXT])
    expect(await store.archivePage(DAY, 'XNYS', 0, 10)).toEqual([{ seq: 1, receipt_json: first[0]!.receipt_json }, { seq: 3, receipt_json: first[2]!.receipt_json }])
    expect(await store.archiveCount(DAY, 'XNYS')).toBe(2)
    const mine = await store.keyReceipts({ keyHash: 'k'.repeat(64), limit: 10 })
    expect(mine.map((r) => r.receipt_id)).toEqual([first[0]!.receipt_id, first[1]!.receipt_id])
    expect((await store.keyReceipts({ keyHash: 'k'.repeat(64), limit: 10, mic: 'XLON' })).map((r) => r.receipt_id)).toEqual([first[1]!.receipt_id])
    expect(await store.keyReceipts({ keyHash: 'k'.repeat(64), limit: 10, after: `${DAY}T12:00:00.000Z` })).toEqual([])
    expect((await store.keyReceipts({ keyHash: 'k'.repeat(64), limit: 1, after: `${DAY}T11:00:00.000Z` })).map((r) => r.receipt_id)).toEqual([first[0]!.receipt_id])
    expect(await store.unsealedEntry(first[2]!.receipt_id, DAY)).toEqual({ seq: 3, day: DAY })
    expect(await store.leafIndex(DAY, 3)).toBe(2)
  })

  test('sealing: the count must match, a sealed day refuses its late rows (all or nothing), the next day goes on', async () => {
    const store = nodeStore(await fresh())
    // A full block of 1,024 and two rows after it: the recount counts the rows after the blocks.
    await store.insertBatch(Array.from({ length: 1026 }, () => row(DAY)))
    await expect(store.insertDigest(DAY, 1027, [], digestOf(DAY, 1027))).rejects.toThrow(/has 1026 rows/)
    await expect(store.insertDigest(DAY, 1027, [{ root: 'b'.repeat(64), last_seq: 1024 }], digestOf(DAY, 1027))).rejects.toThrow(/has 1026 rows/)
    const sealed = await store.insertDigest(DAY, 1026, [{ root: 'b'.repeat(64), last_seq: 1024 }], digestOf(DAY, 1026))
    expect(await store.insertDigest(DAY, 1026, [], digestOf(DAY, 99))).toEqual(sealed) // sealed once
    const late = store.insertBatch([row(NEXT), row(DAY)])
    await expect(late).rejects.toBeInstanceOf(SealedDayError)
    expect(await store.dayCount(NEXT)).toBe(0)
    await store.insertBatch([row(NEXT)])
    expect(await store.dayCount(NEXT)).toBe(1)
    expect(await store.blocks(DAY)).toEqual([{ root: 'b'.repeat(64), last_seq: 1024 }])
    expect((await store.lastDigest())!.date).toBe(DAY)
    expect((await store.latestDigests(5)).map((d) => d.date)).toEqual([DAY])
    expect(await store.sealedDatesBetween('2026-01-01', NEXT)).toEqual([DAY])
  })

  test('a digest\'s log receipt is stored with it; a digest that signed log_tree_size is listed until its second signature is recorded, once', async () => {
    const backend = await fresh()
    const store = nodeStore(backend)
    const withLog = (previous: DigestRow | null): DigestRow => ({ ...digestOf(DAY, 0)(previous), log_receipt_json: '{"type":"audit.digest-log/1"}' })
    await store.insertDigest(DAY, 0, [], withLog)
    expect(await store.digest(DAY)).toMatchObject({ signed_json: '{}', log_receipt_json: '{"type":"audit.digest-log/1"}', resigned_json: null })
    expect(await store.digestsToSignAgain()).toEqual([])
    // A digest of the days when the receipt signed log_tree_size: listed, then signed again once.
    const older = (previous: DigestRow | null): DigestRow => ({ ...digestOf(NEXT, 0)(previous), signed_json: '{"log_tree_size":"5","merkle_root":"x"}' })
    await store.insertDigest(NEXT, 0, [], older)
    expect((await store.digestsToSignAgain()).map((digest) => digest.date)).toEqual([NEXT])
    await store.addDigestReceipts(NEXT, '{"log":1}', '{"again":1}')
    await store.addDigestReceipts(NEXT, '{"log":2}', '{"again":2}')
    expect(await store.digest(NEXT)).toMatchObject({ log_receipt_json: '{"log":1}', resigned_json: '{"again":1}' })
    expect((await store.latestDigests(5)).map((digest) => [digest.date, digest.resigned_json])).toEqual([[NEXT, '{"again":1}'], [DAY, null]])
    expect(await store.digestsToSignAgain()).toEqual([])
    // Never changed afterwards.
    const change = backend.sql ? backend.sql`UPDATE audit_digest_receipts SET resigned_json = 'x'` : Promise.resolve().then(() => backend.db!.run("UPDATE audit_digest_receipts SET resigned_json = 'x'"))
    await expect(change).rejects.toThrow(/append-only/)
  })

  test('pruning and state', async () => {
    const store = nodeStore(await fresh())
    const rows = Array.from({ length: 5 }, () => row(DAY))
    await store.insertBatch(rows)
    expect(await store.pruneChunk(DAY, 0, 2)).toEqual({ lastSeq: 2, pruned: 2 })
    expect(await store.pruneChunk(DAY, 2, 10)).toEqual({ lastSeq: 5, pruned: 3 })
    expect((await store.archivePage(DAY, 'XNYS', 0, 10)).every((r) => r.receipt_json === null)).toBe(true)
    await store.setStateIfMissing('x', '1')
    await store.setStateIfMissing('x', '2')
    expect(await store.state('x')).toBe('1')
    await store.setState('x', '3')
    expect(await store.state('x')).toBe('3')
  })

  test('two nodes writing at once: gapless positions in commit order; a reader never sees a hole', async () => {
    const db = await fresh()
    const [a, b, reader] = [nodeStore(db), nodeStore(db), nodeStore(db)]
    let writing = true
    let holes = 0
    let reads = 0
    const watch = (async () => {
      while (writing) {
        const seqs = (await reader.dayIds(DAY, 0, 100_000)).map((id) => id.seq)
        reads++
        if (seqs.some((seq, index) => seq !== index + 1)) holes++
        await Bun.sleep(1)
      }
    })()
    const batches = await Promise.all(Array.from({ length: 40 }, (_, i) => {
      const rows = Array.from({ length: 1 + (i % 7) }, () => row(DAY))
      return (i % 2 ? a : b).insertBatch(rows).then(() => rows)
    }))
    writing = false
    await watch
    const all = await reader.dayIds(DAY, 0, 100_000)
    const total = batches.reduce((sum, rows) => sum + rows.length, 0)
    expect(all.map((id) => id.seq)).toEqual(Array.from({ length: total }, (_, i) => i + 1))
    // Each batch's rows are consecutive, in the order given.
    const position = new Map(all.map((id) => [id.receipt_id, id.seq]))
    for (const rows of batches) expect(rows.map((r) => position.get(r.receipt_id)! - position.get(rows[0]!.receipt_id)!)).toEqual(rows.map((_, i) => i))
    expect(holes).toBe(0)
    expect(reads).toBeGreaterThan(0)
  }, 60_000)

  test('sealing on one node while the other writes the same day: no row ever lands in a sealed day', async () => {
    const db = await fresh()
    const [writer, sealer] = [nodeStore(db), nodeStore(db)]
    let refused = 0
    let written = 0
    let stop = false
    // Each time the sealer's count is overtaken, the writer pauses a little longer between
    // batches, so on a slow machine the race still ends (it hung once on CI: the writer
    // always slipped in between the count and the digest, and nothing stopped it).
    let sealerRefusals = 0
    const writing = (async () => {
      while (!stop) {
        try {
          await writer.insertBatch([row(DAY), row(DAY)])
          written += 2
        } catch (error) {
          if (!(error instanceof SealedDayError)) throw error
          refused++
          stop = true
        }
        // SQLite writes before the call returns: let the sealer's turn come.
        if (sealerRefusals === 0) await new Promise((resolve) => setImmediate(resolve))
        else await Bun.sleep(Math.min(sealerRefusals, 50))
      }
    })()
    await Bun.sleep(20)
    let digest: DigestRow | null = null
    for (let attempt = 0; !digest && attempt < 200; attempt++) {
      const size = await sealer.dayCount(DAY)
      digest = await sealer.insertDigest(DAY, size, [], digestOf(DAY, size)).catch(() => null)
      if (!digest) {
        sealerRefusals++
        await Bun.sleep(1)
      }
    }
    if (!digest) stop = true
    await writing
    expect(digest).not.toBeNull()
    expect(await sealer.dayCount(DAY)).toBe(digest!.total_receipts_issued)
    expect(written).toBe(digest!.total_receipts_issued)
    expect(refused).toBe(1)
  }, 60_000)

  test('a node that keeps writing a day does not hold up its seal: the day is closed first, then counted once', async () => {
    const db = await fresh()
    const [writer, sealer] = [nodeStore(db), nodeStore(db)]
    let written = 0
    let refused: unknown = null
    const writing = (async () => {
      while (!refused) {
        await writer.insertBatch([row(DAY), row(DAY)]).then(() => (written += 2), (error) => (refused = error))
        await new Promise((resolve) => setImmediate(resolve))
      }
    })()
    await Bun.sleep(30)
    await sealer.closeDay(DAY)
    const size = await sealer.dayCount(DAY)
    // Rows of the day are still being sent: without closing, this count would be stale by now.
    await Bun.sleep(30)
    const digest = await sealer.insertDigest(DAY, size, [], digestOf(DAY, size))
    await writing
    expect(refused).toBeInstanceOf(SealedDayError)
    expect(digest.total_receipts_issued).toBe(written)
    expect(await sealer.dayCount(DAY)).toBe(written)
    // The next day is open; closing is idempotent and never moves back.
    await sealer.closeDay('2026-11-01')
    await writer.insertBatch([row(NEXT)])
    await expect(writer.insertBatch([row(DAY)])).rejects.toBeInstanceOf(SealedDayError)
  }, 60_000)

  test('two nodes’ group-committed logs: one day, one tree, the same root and proofs on each node', async () => {
    const db = await fresh()
    const [storeA, storeB] = [nodeStore(db), nodeStore(db)]
    let batches = 0
    const counted = (store: AuditStore): AuditStore => ({ ...store, insertBatch: (rows) => (batches++, store.insertBatch(rows)) })
    const [logA, logB] = [new AuditLog(counted(storeA), memoryLogger()), new AuditLog(counted(storeB), memoryLogger())]
    const rows = Array.from({ length: 3000 }, () => row(DAY))
    await Promise.all(rows.map((r, i) => (i % 2 ? logA : logB).append([r])))
    expect(logA.committed + logB.committed).toBe(3000)
    // Group commit: a multi-row INSERT per batch, not a statement per receipt.
    expect(batches).toBeLessThan(100)
    const [treeA, treeB] = [await new DayTrees(storeA).tree(DAY), await new DayTrees(storeB).tree(DAY)]
    expect(treeA.size).toBe(3000)
    expect(treeA.rootHex).toBe(treeB.rootHex)
    const trees = [new DayTrees(storeA), new DayTrees(storeB)]
    const proofs = await Promise.all(trees.map(async (trees) => {
      const tree = await trees.tree(DAY)
      const index = (await trees.find(DAY, tree, rows[1234]!.receipt_id))!
      return { index, path: await trees.path(DAY, tree, index) }
    }))
    expect(proofs[0]).toEqual(proofs[1]!)
  }, 60_000)

  test('group commit: the next batch is sent before the committed one is answered; an append resolves only once its rows are committed', async () => {
    const db = await fresh()
    const store = nodeStore(db)
    const events: string[] = []
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    let batches = 0
    const log = new AuditLog({
      ...store,
      async insertBatch(rows) {
        const batch = ++batches
        events.push(`write ${batch}`)
        if (batch === 1) await held
        await store.insertBatch(rows)
        events.push(`committed ${batch}`)
      },
    }, memoryLogger())
    const answered = (batch: number) => () => void events.push(`answered ${batch}`)
    const first = log.append([row(DAY)]).then(answered(1))
    await new Promise((resolve) => setImmediate(resolve)) // the end of the turn: batch 1 is in flight
    expect(events).toEqual(['write 1'])
    const second = log.append([row(DAY), row(DAY)]).then(answered(2))
    release()
    await Promise.all([first, second])
    // Answering batch 1 (the responses) would otherwise run before batch 2 is sent. (On SQLite
    // batch 2 is committed by then too: its write is done before the store call returns.)
    const at = (event: string) => events.indexOf(event)
    expect(events.slice(0, 3)).toEqual(['write 1', 'committed 1', 'write 2'])
    expect(at('answered 1')).toBeGreaterThan(at('write 2'))
    expect(at('answered 2')).toBeGreaterThan(at('committed 2'))
    expect(events).toHaveLength(6)
    expect(await store.dayCount(DAY)).toBe(3)
    expect(log.committed).toBe(3)
  })

  test('two nodes sealing the same day at once: one digest, the same on both; their later rows of the day are refused', async () => {
    const db = await fresh()
    const stores = [nodeStore(db), nodeStore(db)]
    await stores[0]!.setStateIfMissing(STARTED_ON, DAY)
    const logs = stores.map((store) => new AuditLog(store, memoryLogger()))
    await Promise.all(Array.from({ length: 2500 }, (_, i) => logs[i % 2]!.append([row(DAY)])))
    const clock = new FakeClock(Date.parse(`${NEXT}T00:01:00.000Z`))
    const sealers = logs.map((audit) => new DigestSealer({ audit, trees: new DayTrees(audit.store), signer: testSigner(), issuer: 'oracle.test', clock, log: memoryLogger() }))
    const sealed = await Promise.all(sealers.map((sealer) => sealer.tick().catch((error: Error) => error.message)))
    // One of them sealed it; the other sealed it too or found it sealed (its own insert saw the digest).
    expect(sealed.some((dates) => Array.isArray(dates) && dates.includes(DAY))).toBe(true)
    const digests = await Promise.all(stores.map((store) => store.digest(DAY)))
    expect(digests[0]).toEqual(digests[1]!)
    expect(digests[0]!.total_receipts_issued).toBe(2500)
    expect((await stores[1]!.latestDigests(5)).length).toBe(1)
    for (const audit of logs) await expect(audit.append([row(DAY)])).rejects.toMatchObject({ status: 503, errorCode: 'AUDIT_LOG_UNAVAILABLE' })
    expect(await stores[0]!.dayCount(DAY)).toBe(2500)
  }, 60_000)
})
