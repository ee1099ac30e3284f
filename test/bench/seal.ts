// Sealing a day on each backend, alone (`bun test/bench/seal.ts`; BENCH_SEAL_RECEIPTS, default
// 1,000,000; BENCH_SEAL_BACKENDS, default sqlite,postgres): a day of N live receipts (~420-byte
// bodies) written into a fresh database, then sealed as the service does, on one core in this
// process: seconds, the longest event-loop pause (1 ms probe timer), the wall time of each store
// call the sealer made, then proofs of receipts of that day as the proof endpoint makes them
// (the first after a restart, the median of 20 more). PostgreSQL runs on a throw-away cluster
// with its shipped durability settings (scale-out.ts's server settings).
import { SQL } from 'bun'
import { mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase } from '../../src/store/database'
import { applyMigrations } from '../../src/store/migrate'
import { applyPostgresMigrations } from '../../src/store/postgres-migrate'
import { MIGRATIONS } from '../../src/wiring/migrations'
import { sqliteAuditStore, type AuditStore } from '../../src/audit/store'
import { postgresAuditStore } from '../../src/audit/store-postgres'
import { AuditLog } from '../../src/audit/log'
import { auditTrail } from '../../src/audit/trail'
import { DayTrees } from '../../src/audit/day-tree'
import { inclusionProof } from '../../src/audit/queries'
import { verifyInclusion } from '../../src/audit/merkle'
import { Signer } from '../../src/crypto/signer'
import { memoryLogger } from '../../src/log'
import { startCluster } from '../helpers/postgres-cluster'
import { fillDay } from './fill-day'
import { timedSeal } from './timed-seal'
import { SERVER_SETTINGS } from './scale-out'

const DAY_START = Date.parse('2026-03-09T00:00:00.000Z')
const DAY = '2026-03-09'

export interface SealFigures {
  backend: string
  receipts: number
  fillSeconds: number
  sealSeconds: number
  longestPauseMs: number
  /** Wall time of each store method the sealer called, in ms, and how many calls. */
  calls: Record<string, { ms: number; count: number }>
  /** Event-loop pauses of 50 ms or more while sealing, each with the store call made last before it (SQLite's calls run synchronously inside it). */
  pauses: string[]
  proofFirstMs: number
  proofMedianMs: number
  load: { before: number[]; after: number[] }
}

/** The store with the wall time of every call added up per method while `timing.on`; `timing.last` names the call made last. */
function timedStore(store: AuditStore, calls: SealFigures['calls'], timing: { on: boolean; last: string }): AuditStore {
  return new Proxy(store, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver)
      if (typeof value !== 'function') return value
      return async (...args: unknown[]) => {
        const start = performance.now()
        timing.last = String(name)
        try {
          return await value.apply(target, args)
        } finally {
          if (timing.on) {
            const entry = (calls[String(name)] ??= { ms: 0, count: 0 })
            entry.ms += performance.now() - start
            entry.count++
          }
        }
      }
    },
  })
}


async function sealOn(backend: string, raw: AuditStore, receipts: number, settle: () => void = () => {}): Promise<SealFigures> {
  const before = loadavg()
  const calls: SealFigures['calls'] = {}
  const timing = { on: false, last: '' }
  const store = timedStore(raw, calls, timing)
  const fillStart = performance.now()
  const sample = await fillDay(raw, { dayStart: DAY_START, receipts, keyHash: 'f'.repeat(64), samples: 21 })
  const fillSeconds = (performance.now() - fillStart) / 1000
  settle()
  const log = memoryLogger('error')
  const signer = Signer.fromSeed(new Uint8Array(32).fill(7), 'key_bench_v1', '2026-01-01T00:00:00.000Z', null)
  const clock = { now: () => DAY_START + 86_400_000 + 60_000 }
  const trail = auditTrail({ audit: new AuditLog(store, log), signer, issuer: 'bench.local', clock, log, retentionDays: 35 })
  await trail.sealer.startedOn()
  timing.on = true
  const pauses: string[] = []
  const sealStart = performance.now()
  let beat = sealStart
  const watch = setInterval(() => {
    const now = performance.now()
    if (now - beat >= 50) pauses.push(`${Math.round(now - beat)} ms at ${((now - sealStart) / 1000).toFixed(1)} s (after ${timing.last})`)
    beat = now
  }, 1)
  const { sealed, sealSeconds, longestPauseMs } = await timedSeal(trail)
  clearInterval(watch)
  timing.on = false
  if (sealed.join() !== DAY) throw new Error(`seal bench: expected ${DAY} sealed, got ${sealed.join(',')}`)
  // Proofs as the endpoint makes them, with the trees of a process that just started.
  const trees = new DayTrees(raw)
  const times: number[] = []
  for (const id of sample) {
    const start = performance.now()
    const proof = await inclusionProof({ store: raw, trees }, id, '2026-03-10')
    times.push(performance.now() - start)
    if (!proof.sealed || !verifyInclusion(id, proof.leaf_index, receipts, proof.audit_path, proof.merkle_root)) throw new Error('seal bench: a proof does not verify')
  }
  const rest = times.slice(1).sort((a, b) => a - b)
  return { backend, receipts, fillSeconds, sealSeconds, longestPauseMs, calls, pauses, proofFirstMs: times[0]!, proofMedianMs: rest[Math.floor(rest.length / 2)]!, load: { before, after: loadavg() } }
}

export async function sqliteSealBench(receipts: number): Promise<SealFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'openbell-bench-seal-'))
  try {
    const db = openDatabase(join(dir, 'openbell.sqlite'))
    applyMigrations(db, MIGRATIONS)
    try {
      // The service's checkpoint worker keeps the WAL short; here it is emptied once after the fill.
      return await sealOn('sqlite', sqliteAuditStore(db), receipts, () => db.run('PRAGMA wal_checkpoint(TRUNCATE)'))
    } finally {
      db.close()
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

export async function postgresSealOnlyBench(receipts: number): Promise<SealFigures> {
  const cluster = startCluster({ serverDefaults: true, settings: SERVER_SETTINGS })
  try {
    const sql = new SQL({ url: cluster.url('postgres'), max: 10 })
    try {
      await applyPostgresMigrations(sql, MIGRATIONS)
      return await sealOn('postgres', postgresAuditStore(sql), receipts)
    } finally {
      await sql.close()
    }
  } finally {
    cluster.destroy()
  }
}

if (import.meta.main) {
  const receipts = Number(process.env.BENCH_SEAL_RECEIPTS ?? 1_000_000)
  for (const backend of (process.env.BENCH_SEAL_BACKENDS ?? 'sqlite,postgres').split(',')) {
    const figures = backend === 'postgres' ? await postgresSealOnlyBench(receipts) : await sqliteSealBench(receipts)
    const calls = Object.entries(figures.calls).map(([name, { ms, count }]) => `${name} ${(ms / 1000).toFixed(2)} s/${count}`).join(', ')
    console.log(`${figures.backend}: ${figures.receipts} receipts, fill ${figures.fillSeconds.toFixed(1)} s; seal ${figures.sealSeconds.toFixed(2)} s, longest pause ${figures.longestPauseMs.toFixed(1)} ms; proofs first ${figures.proofFirstMs.toFixed(1)} ms, median ${figures.proofMedianMs.toFixed(1)} ms; load ${figures.load.before.map((l) => l.toFixed(2)).join(' ')} -> ${figures.load.after.map((l) => l.toFixed(2)).join(' ')}`)
    console.log(`  store calls while sealing: ${calls}`)
    console.log(`  pauses of 50 ms or more: ${figures.pauses.join(', ') || 'none'}`)
  }
}
