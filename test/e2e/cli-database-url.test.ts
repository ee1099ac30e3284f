// The operator commands honour DATABASE_URL exactly as the service does: `keys`, `overrides` and
// `mail` work on the PostgreSQL database (named on the first line, password masked), create no
// SQLite file, make no tables in an empty database without --init, and `backup` says how to back
// PostgreSQL up instead of copying anything.
import { afterAll, describe, expect, test } from 'bun:test'
import { existsSync, readdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { emptyDatabase, migratedDatabase, type TestDatabase } from '../helpers/postgres'
import { tempDir } from '../helpers/app'
import { freePort, SLOW_SETUP_MS } from '../helpers/process'

const main = resolve(import.meta.dir, '../../src/main.ts')
const made: TestDatabase[] = []
afterAll(async () => {
  await Promise.all(made.map((database) => database.drop()))
})

/** The URL with a password: the test cluster trusts loopback, so any password is accepted. */
const withPassword = (url: string) => url.replace('postgres://postgres@', 'postgres://postgres:hunter2@')

async function cli(args: string[], databaseUrl: string, dataDir = tempDir()) {
  const child = Bun.spawn(['bun', main, ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/', USER: 'alice', TZ: 'UTC', DATA_DIR: dataDir, DATABASE_URL: databaseUrl },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited])
  return { code, stdout, stderr, lines: stdout.trim().split('\n'), errLines: stderr.trim().split('\n'), dataDir }
}

describe('operator commands with DATABASE_URL', () => {
  test(
    'keys create, list and suspend work on PostgreSQL; no SQLite file is made; the password is never shown',
    async () => {
      const database = await migratedDatabase('cli_keys')
      made.push(database)
      const url = withPassword(database.url)
      const masked = url.replace('hunter2', '***')
      const created = await cli(['keys', 'create', '--plan', 'builder', '--email', 'ops@example.com'], url)
      expect(created.code).toBe(0)
      expect(created.errLines[0]).toBe(`database: ${masked}`)
      const key = created.lines[0]!
      expect(key).toMatch(/^svc_live_[0-9a-f]{64}$/)
      expect(readdirSync(created.dataDir)).toEqual([])
      const [row] = (await database.sql`SELECT plan, email, status FROM api_keys WHERE key_prefix = ${key.slice(0, 17)}`) as { plan: string; email: string; status: string }[]
      expect(row).toEqual({ plan: 'builder', email: 'ops@example.com', status: 'active' })
      const id = ((await database.sql`SELECT id FROM api_keys`) as { id: number }[])[0]!.id
      await database.sql`INSERT INTO key_usage (account_id, day, requests) VALUES (${id}, ${new Date().toISOString().slice(0, 10)}, 12)`

      const listed = await cli(['keys', 'list'], url)
      expect(listed.code).toBe(0)
      const line = listed.lines.find((entry) => entry.startsWith(key.slice(0, 17)))!.split('\t')
      expect([line[2], line[3], line.at(-1)]).toEqual(['builder', 'active', '12'])
      expect(listed.stdout).not.toContain(key)

      const suspended = await cli(['keys', 'suspend', key.slice(0, 17)], url)
      expect(suspended.code).toBe(0)
      expect(((await database.sql`SELECT status FROM api_keys`) as { status: string }[])[0]!.status).toBe('suspended')
      for (const result of [created, listed, suspended]) expect(result.stdout + result.stderr).not.toContain('hunter2')
    },
    SLOW_SETUP_MS,
  )

  test('overrides set on PostgreSQL reach the table every node reads; mail status counts its outbox', async () => {
    const database = await migratedDatabase('cli_overrides')
    made.push(database)
    const set = await cli(['overrides', 'set', 'XNYS', 'HALTED', '--reason', 'drill', '--for', '1h'], database.url)
    expect(set.code).toBe(0)
    expect((await database.sql`SELECT mic, status, created_by FROM overrides`) as unknown[]).toEqual([{ mic: 'XNYS', status: 'HALTED', created_by: 'cli:alice' }])
    const listed = await cli(['overrides', 'list'], database.url)
    expect(listed.stdout).toContain('XNYS')
    await database.sql`INSERT INTO mail_outbox (recipient, subject, body, next_attempt_at, created_at) VALUES ('a@example.com', 's', 'b', 0, '2026-01-01T00:00:00.000Z')`
    const mail = await cli(['mail', 'status'], database.url)
    expect(mail.code).toBe(0)
    expect(mail.lines).toContain('queued: 1')
    expect(mail.stdout).not.toContain('a@example.com')
  })

  test('an empty database gets no tables without --init; with it, the service\'s migrations', async () => {
    const database = await emptyDatabase('cli_empty')
    made.push(database)
    const refused = await cli(['keys', 'list'], database.url)
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain('has no openbell tables')
    expect(refused.stderr).toContain('--init')
    expect(((await database.sql`SELECT to_regclass('api_keys') IS NULL AS none`) as { none: boolean }[])[0]!.none).toBe(true)
    const initialised = await cli(['keys', 'list', '--init'], database.url)
    expect(initialised.code).toBe(0)
    expect(Number(((await database.sql`SELECT count(*) AS n FROM schema_migrations`) as { n: string }[])[0]!.n)).toBeGreaterThan(10)
  })

  test('backup on PostgreSQL copies nothing and says how (pg_dump), with the password masked', async () => {
    const database = await migratedDatabase('cli_backup')
    made.push(database)
    const dir = tempDir()
    const target = join(dir, 'copy.dump')
    const result = await cli(['backup', target], withPassword(database.url))
    expect(result.code).toBe(2)
    expect(result.stdout).toContain('pg_dump --format=custom')
    expect(result.stdout).toContain('copied nothing')
    expect(result.stdout + result.stderr).not.toContain('hunter2')
    expect(existsSync(target)).toBe(false)
  })

  test('an unreachable DATABASE_URL: exit 1, named with its password masked', async () => {
    const result = await cli(['keys', 'list'], `postgres://openbell:hunter2@127.0.0.1:${freePort()}/openbell`)
    expect(result.code).toBe(1)
    expect(result.stderr).toContain('DATABASE_URL postgres://openbell:***@127.0.0.1:')
    expect(result.stderr).not.toContain('hunter2')
  })
})
