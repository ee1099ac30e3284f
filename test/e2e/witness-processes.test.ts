// Two processes submitting the same checkpoints to one database file at the same time: each
// identity is stored once, and both processes answer with that one row's receipt.
import { describe, expect, test } from 'bun:test'
import { resolve } from 'node:path'
import { openDatabase } from '../../src/store/database'
import { applyMigrations } from '../../src/store/migrate'
import { MIGRATIONS } from '../../src/wiring/migrations'
import { tempDir } from '../helpers/app'

const root = resolve(import.meta.dir, '../..')

function worker(path: string, bodiesFile: string) {
  const code = `
    import { readFileSync } from 'node:fs'
    import { openDatabase } from '${root}/src/store/database'
    import { sqliteWitnessStore } from '${root}/src/witness/store'
    import { sqliteTransactor } from '${root}/src/store/sqlite-transaction'
    import { submitCheckpoint } from '${root}/src/witness/service'
    import { checkBody, checkSubmission } from '${root}/src/witness/checks'
    import { Signer } from '${root}/src/crypto/signer'
    const db = openDatabase('${path}')
    const store = sqliteWitnessStore(db)
    const transactor = sqliteTransactor(db)
    const signer = Signer.fromSeed(new Uint8Array(32).fill(7), 'key_test_v1', '2026-01-01T00:00:00.000Z', null)
    const out = []
    for (const line of readFileSync('${bodiesFile}', 'utf8').trim().split('\\n')) {
      const body = checkBody(Buffer.from(line))
      const verified = body.ok && checkSubmission(body.value)
      if (!verified || !verified.ok) throw new Error('invalid fixture')
      const outcome = await submitCheckpoint({ store, transactor, signer, witness: 'oracle.test', limits: { anonymousDailyCap: 1e9, maxRows: 0, maxBytes: 0 } }, verified.value, { pool: 'anonymous' }, Date.now())
      out.push(outcome.kind + ' ' + outcome.receiptJson)
    }
    console.log(out.join('\\n'))
  `
  return Bun.spawn(['bun', '-e', code], { stdout: 'pipe', stderr: 'inherit', cwd: root })
}

describe('witness across processes', () => {
  test('each identity is stored once and both processes get that row', async () => {
    const { clientKey, submission } = await import('../helpers/checkpoints')
    const dir = tempDir('openbell-procs-')
    const path = `${dir}/shared.sqlite`
    applyMigrations(openDatabase(path), MIGRATIONS)
    const key = clientKey()
    const bodies = Array.from({ length: 300 }, (_, i) => JSON.stringify(submission(key, { count: i + 1, session_id: 'shared' })))
    const bodiesFile = `${dir}/bodies.txt`
    await Bun.write(bodiesFile, bodies.join('\n'))

    const [a, b] = [worker(path, bodiesFile), worker(path, bodiesFile)]
    const [outA, outB] = await Promise.all([new Response(a.stdout).text(), new Response(b.stdout).text()])
    expect(await a.exited).toBe(0)
    expect(await b.exited).toBe(0)
    const linesA = outA.trim().split('\n')
    const linesB = outB.trim().split('\n')
    expect(linesA).toHaveLength(300)
    let stored = 0
    for (let i = 0; i < 300; i++) {
      const [kindA, ...restA] = linesA[i]!.split(' ')
      const [kindB, ...restB] = linesB[i]!.split(' ')
      expect(restA.join(' ')).toBe(restB.join(' ')) // the same receipt text from both processes
      expect([kindA, kindB].sort()).toEqual(['repeat', 'stored'])
      stored++
    }
    const db = openDatabase(path)
    expect((db.query("SELECT count(*) AS n FROM witness_checkpoints WHERE session_id = 'shared'").get() as { n: number }).n).toBe(300)
    expect(stored).toBe(300)
  }, 60_000)
})
