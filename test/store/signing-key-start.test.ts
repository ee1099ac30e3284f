// A node started on a PostgreSQL database that records another signing key refuses to start,
// naming both key ids (the real binary entry point, on a real database).
import { describe, expect, test } from 'bun:test'
import { resolve } from 'node:path'
import { dropAfterAll, migratedDatabase } from '../helpers/postgres'
import { tempDir } from '../helpers/app'
import { freePort } from '../helpers/process'

const track = dropAfterAll()

describe('signing key across nodes', () => {
  test('a node whose key differs from the recorded one exits 2 naming both key ids', async () => {
    const database = track(await migratedDatabase('key'))
    await database.sql`INSERT INTO signing_key (id, key_id, public_key, valid_from, valid_until, recorded_at, recorded_by)
      VALUES (1, 'key_2026_first', ${'a'.repeat(64)}, '2026-01-01T00:00:00.000Z', NULL, '2026-11-25T00:00:00.000Z', 'node-1')`
    const child = Bun.spawn(['bun', resolve(import.meta.dir, '../../src/main.ts')], {
      env: { ...process.env, DATABASE_URL: database.url, DATA_DIR: tempDir(), SIGNING_KEY: 'b'.repeat(64), PUBLIC_KEY_ID: 'key_2026_second', KEY_VALID_FROM: '2026-01-01T00:00:00Z', PORT: String(freePort()), HOST: '127.0.0.1', HALT_FEED_URL: 'off', LOG_LEVEL: 'warn' },
      stdout: 'pipe',
      stderr: 'pipe',
    })
    const code = await child.exited
    const stderr = await new Response(child.stderr).text()
    expect(code).toBe(2)
    expect(stderr).toContain('cannot start: this node signs with key key_2026_second')
    expect(stderr).toContain('the database records key key_2026_first')
    expect(stderr).toContain('recorded by node node-1')
    // Nothing was changed: the first node's key is still the recorded one.
    expect(((await database.sql`SELECT key_id FROM signing_key`) as { key_id: string }[])[0]!.key_id).toBe('key_2026_first')
  }, 60_000)
})
