// DURABILITY (issue 24 item 9): `process` (default, synchronous=NORMAL: a commit survives a crash
// of the process) or `power` (synchronous=FULL: a commit also survives a power loss of the
// machine, at a cost measured by `bun run bench`).
import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { ConfigError, loadConfig } from '../../src/config'
import { openDatabase, synchronousMode } from '../../src/store/database'
import { tempDir } from '../helpers/app'
import { SLOW_SETUP_MS, startService } from '../helpers/process'

const pragma = (db: ReturnType<typeof openDatabase>) => (db.query('PRAGMA synchronous').get() as { synchronous: number }).synchronous

describe('DURABILITY', () => {
  test('the variable: process by default, power, nothing else', () => {
    expect(loadConfig({}).durability).toBe('process')
    expect(loadConfig({ DURABILITY: 'power' }).durability).toBe('power')
    expect(() => loadConfig({ DURABILITY: 'disk' })).toThrow(ConfigError)
    expect(() => loadConfig({ DURABILITY: 'disk' })).toThrow('must be one of process, power')
  })

  test('the connection: synchronous NORMAL (1) for process, FULL (2) for power; WAL either way', () => {
    const dir = tempDir()
    const normal = openDatabase(join(dir, 'a.sqlite'))
    const full = openDatabase(join(dir, 'b.sqlite'), 'power')
    expect([pragma(normal), synchronousMode(normal)]).toEqual([1, 'NORMAL'])
    expect([pragma(full), synchronousMode(full)]).toEqual([2, 'FULL'])
    for (const db of [normal, full]) {
      expect((db.query('PRAGMA journal_mode').get() as { journal_mode: string }).journal_mode).toBe('wal')
      db.close()
    }
  })

  test(
    'the service reads it: the start-up log names the durability and the synchronous mode its connection has',
    async () => {
      const service = await startService({ DATA_DIR: tempDir(), LOG_LEVEL: 'info', DURABILITY: 'power' })
      try {
        const listening = service
          .output()
          .split('\n')
          .filter((line) => line.includes('"msg":"listening"'))
          .map((line) => JSON.parse(line))[0]
        expect(listening).toMatchObject({ durability: 'power', synchronous: 'FULL' })
      } finally {
        service.process.kill('SIGTERM')
        await service.process.exited
      }
    },
    SLOW_SETUP_MS,
  )
})
