// DURABILITY=power (synchronous=FULL) against the default (NORMAL), for `bun run bench`: single-row
// transactions on a WAL file database (each its own commit: the worst case, one fsync per row
// with FULL) and the audit log's group commit (one commit per batch of rows, as /v5/status
// writes them). Both settings are measured in this process, alternated, in one run.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase, type Durability } from '../../src/store/database'

export interface DurabilityFigures {
  /** Single-row transactions per second. */
  singleRow: Record<Durability, number>
  /** Rows per second committed 32 at a time. */
  batched: Record<Durability, number>
}

function transactionsPerSecond(durability: Durability, dir: string, rowsPerCommit: number, commits: number): number {
  const db = openDatabase(join(dir, `${durability}-${rowsPerCommit}.sqlite`), durability)
  db.run('CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, body TEXT NOT NULL)')
  const insert = db.query('INSERT INTO t (body) VALUES (?)')
  const body = 'x'.repeat(400)
  const commit = db.transaction(() => {
    for (let i = 0; i < rowsPerCommit; i++) insert.run(body)
  })
  for (let i = 0; i < 50; i++) commit()
  const start = performance.now()
  for (let i = 0; i < commits; i++) commit()
  const seconds = (performance.now() - start) / 1000
  db.close()
  return (commits * rowsPerCommit) / seconds
}

export function durabilityBench(): DurabilityFigures {
  const dir = mkdtempSync(join(tmpdir(), 'openbell-bench-durability-'))
  try {
    const figures: DurabilityFigures = { singleRow: { process: 0, power: 0 }, batched: { process: 0, power: 0 } }
    // Alternated twice (process, power, process, power) so that the machine's noise falls on both.
    for (let round = 0; round < 2; round++) {
      for (const durability of ['process', 'power'] as const) {
        figures.singleRow[durability] += transactionsPerSecond(durability, dir, 1, 2000) / 2
        figures.batched[durability] += transactionsPerSecond(durability, dir, 32, 500) / 2
      }
    }
    return figures
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

if (import.meta.main) console.log(durabilityBench())
