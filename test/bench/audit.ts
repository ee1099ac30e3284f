// Audit-trail micro-benchmarks for `bun run bench` (one core, this process): appending a day of
// 1,000,000 live receipts through the store, sealing that day (RFC 6962 root, signature, leaf
// index) and the longest it holds up the event loop, a cold proof in that day, and storage per million receipts before and after pruning.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomUUID } from 'node:crypto'
import { openDatabase } from '../../src/store/database'
import { applyMigrations } from '../../src/store/migrate'
import { MIGRATIONS } from '../../src/wiring/migrations'
import { sqliteAuditStore } from '../../src/audit/store'
import { AuditLog } from '../../src/audit/log'
import { auditRowOf } from '../../src/audit/record'
import { auditTrail } from '../../src/audit/trail'
import { DayTrees } from '../../src/audit/day-tree'
import { inclusionProof } from '../../src/audit/queries'
import { Signer } from '../../src/crypto/signer'
import { memoryLogger } from '../../src/log'
import { verifyInclusion } from '../../src/audit/merkle'
import { SUPPORTED_MICS } from '../../src/calendar/mics'
import { timedSeal } from './timed-seal'

// The day's receipts go to the first 28 venues in turn, as in every earlier run, so per-venue
// figures (archive pages) stay comparable as venues are added.
const BENCH_MICS = SUPPORTED_MICS.slice(0, 28)

export interface AuditBenchFigures {
  receipts: number
  insertPerSecond: number
  sealSeconds: number
  sealLongestPauseMs: number
  proofMs: number
  unsealedProofMs: number
  unsealedWarmProofMs: number
  unknownProofMs: number
  bytesPerMillionFull: number
  bytesPerMillionSealed: number
  bytesPerMillionPruned: number
}

/**
 * Appends a day of `receipts` live receipts from `dayStart` through the log in batches of 1,000
 * (realistic rows: a signed-receipt-sized body, the real JSON of a live receipt is ~420 bytes);
 * returns their ids in log order.
 */
export async function appendDay(audit: AuditLog, receipts: number, dayStart: number): Promise<string[]> {
  const signature = 'ab'.repeat(64)
  const ids: string[] = []
  for (let done = 0; done < receipts; ) {
    const rows = []
    for (let i = 0; i < 1000 && done < receipts; i++, done++) {
      const issued = new Date(dayStart + Math.floor((done * 86_000_000) / receipts)).toISOString()
      const receipt = { receipt_id: randomUUID(), issued_at: issued, expires_at: issued, issuer: 'bench.local', mic: BENCH_MICS[done % BENCH_MICS.length]!, status: 'OPEN', source: 'SCHEDULE', halt_detection: 'active', receipt_mode: 'live', schema_version: 'v5.0', public_key_id: 'key_bench_v1', signature }
      ids.push(receipt.receipt_id)
      rows.push(auditRowOf(receipt, { surface: '/v5/status', keyHash: 'f'.repeat(64) }))
    }
    await audit.append(rows)
  }
  return ids
}

export async function auditBench(receipts = Number(process.env.BENCH_AUDIT_RECEIPTS ?? 1_000_000)): Promise<AuditBenchFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'openbell-bench-audit-'))
  try {
    const db = openDatabase(join(dir, 'audit.sqlite'))
    applyMigrations(db, MIGRATIONS)
    const usedBytes = () => {
      const page = db.query('PRAGMA page_size').get() as { page_size: number }
      const count = db.query('PRAGMA page_count').get() as { page_count: number }
      const free = db.query('PRAGMA freelist_count').get() as { freelist_count: number }
      return (count.page_count - free.freelist_count) * page.page_size
    }
    db.run('PRAGMA wal_checkpoint(TRUNCATE)')
    const emptyBytes = usedBytes()
    const clock = { ms: Date.parse('2026-03-09T00:00:00.000Z'), now() { return this.ms } }
    const log = memoryLogger('error')
    const signer = Signer.fromSeed(new Uint8Array(32).fill(7), 'key_bench_v1', '2026-01-01T00:00:00.000Z', null)
    const audit = new AuditLog(sqliteAuditStore(db), log, { batchSize: 1000 })
    const trail = auditTrail({ audit, signer, issuer: 'bench.local', clock, log, retentionDays: 35 })
    await trail.sealer.startedOn()
    const insertStart = performance.now()
    const ids = await appendDay(audit, receipts, clock.ms)
    const insertPerSecond = receipts / ((performance.now() - insertStart) / 1000)
    db.run('PRAGMA wal_checkpoint(TRUNCATE)')
    const fullBytes = usedBytes() - emptyBytes
    // Proofs in a day not sealed yet, found through the day's tree: the first builds the tree
    // (cold), a later one reads the one block holding the id, an unknown id (404) reads none.
    const unsealedTrees = new DayTrees(audit.store)
    const todayStart = performance.now()
    await inclusionProof({ store: audit.store, trees: unsealedTrees }, ids[Math.floor(receipts * 0.9)]!, '2026-03-09')
    const unsealedProofMs = performance.now() - todayStart
    const warmStart = performance.now()
    await inclusionProof({ store: audit.store, trees: unsealedTrees }, ids[Math.floor(receipts * 0.3)]!, '2026-03-09')
    const unsealedWarmProofMs = performance.now() - warmStart
    const unknownStart = performance.now()
    const unknown = await inclusionProof({ store: audit.store, trees: unsealedTrees }, randomUUID(), '2026-03-09').then(() => 'found', () => 'not found')
    const unknownProofMs = performance.now() - unknownStart
    if (unknown !== 'not found') throw new Error('bench: an unknown id was found')
    clock.ms = Date.parse('2026-03-10T00:01:00.000Z')
    const { sealed, sealSeconds, longestPauseMs } = await timedSeal(trail)
    if (sealed.length !== 1) throw new Error(`expected one sealed day, got ${sealed.join(',')}`)
    db.run('PRAGMA wal_checkpoint(TRUNCATE)')
    const sealedBytes = usedBytes() - emptyBytes
    // One proof as after a restart (no cached blocks: the stored block roots and one block), checked.
    const target = ids[Math.floor(receipts * 0.77)]!
    const proofStart = performance.now()
    const leaf = (await audit.store.sealedLeaf(target))!
    const coldTrees = new DayTrees(audit.store)
    const tree = await coldTrees.tree(leaf.date)
    const path = await coldTrees.path(leaf.date, tree, leaf.leaf_index)
    const proofMs = performance.now() - proofStart
    const digest = (await audit.store.digest(leaf.date))!
    if (!verifyInclusion(target, leaf.leaf_index, receipts, path, digest.merkle_root)) throw new Error('bench proof does not verify')
    clock.ms = Date.parse('2026-04-20T00:00:00.000Z')
    await trail.sealer.tick()
    await trail.retention.tick()
    db.run('VACUUM')
    const prunedBytes = usedBytes() - emptyBytes
    db.close()
    const perMillion = (bytes: number) => (bytes * 1_000_000) / receipts
    return { receipts, insertPerSecond, sealSeconds, sealLongestPauseMs: longestPauseMs, proofMs, unsealedProofMs, unsealedWarmProofMs, unknownProofMs, bytesPerMillionFull: perMillion(fullBytes), bytesPerMillionSealed: perMillion(sealedBytes), bytesPerMillionPruned: perMillion(prunedBytes) }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

if (import.meta.main) console.log(await auditBench())
