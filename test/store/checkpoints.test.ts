import { describe, expect, test } from 'bun:test'
import { statSync } from 'node:fs'
import { join } from 'node:path'
import { openDatabase } from '../../src/store/database'
import { LOOP_CHECKPOINT_PAGES, startCheckpoints } from '../../src/store/checkpoints'
import { memoryLogger } from '../../src/log'
import { tempDir } from '../helpers/app'

const autocheckpoint = (db: ReturnType<typeof openDatabase>) => (db.query('PRAGMA wal_autocheckpoint').get() as { wal_autocheckpoint: number }).wal_autocheckpoint

async function until(check: () => boolean, ms = 3000): Promise<boolean> {
  const end = Date.now() + ms
  while (Date.now() < end) {
    if (check()) return true
    await Bun.sleep(10)
  }
  return check()
}

describe('WAL checkpoints on a worker thread', () => {
  test('committed pages reach the database file without the writer checkpointing, and stop ends the worker', async () => {
    const path = join(tempDir(), 'db.sqlite')
    const db = openDatabase(path)
    db.run('CREATE TABLE t (x TEXT)')
    const log = memoryLogger('warn')
    const stop = startCheckpoints(db, path, log, 20)
    // The writer's own automatic checkpoint moves out of the way once the worker runs.
    expect(await until(() => autocheckpoint(db) === LOOP_CHECKPOINT_PAGES)).toBe(true)
    const before = statSync(path).size
    const insert = db.query('INSERT INTO t (x) VALUES (?)')
    // About 250 pages: far below the writer's threshold, so only the worker can copy them.
    db.transaction(() => {
      for (let i = 0; i < 1000; i++) insert.run('x'.repeat(1000))
    })()
    expect(await until(() => statSync(path).size > before + 200 * 4096)).toBe(true)
    await stop()
    expect(log.lines).toEqual([])
    // Every committed row is readable from a fresh connection.
    db.close()
    const again = openDatabase(path)
    expect((again.query('SELECT count(*) AS n FROM t').get() as { n: number }).n).toBe(1000)
    again.close()
  })

  test('a database in memory starts no worker', async () => {
    const db = openDatabase(':memory:')
    const stop = startCheckpoints(db, ':memory:', memoryLogger('warn'))
    await stop()
    expect(autocheckpoint(db)).toBe(1000)
    db.close()
  })
})
