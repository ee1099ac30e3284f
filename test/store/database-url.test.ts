// DATABASE_URL: validated once at start, its password never shown; a database that cannot be
// reached stops the start with a message naming DATABASE_URL.
import { describe, expect, test } from 'bun:test'
import { resolve } from 'node:path'
import { ConfigError, loadConfig, maskUrlPassword } from '../../src/config'
import { freePort } from '../helpers/process'
import { tempDir } from '../helpers/app'

const refusal = (env: Record<string, string>) => {
  try {
    loadConfig(env)
  } catch (error) {
    return error as ConfigError
  }
  throw new Error('accepted')
}

describe('DATABASE_URL', () => {
  test('unset: SQLite, as before', () => {
    const config = loadConfig({})
    expect(config.databaseUrl).toBeNull()
    expect(config.databasePath.endsWith('/openbell.sqlite')).toBe(true)
  })

  test('a PostgreSQL URL is taken as given', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://app:pw@db.internal:5432/openbell' }).databaseUrl).toBe('postgres://app:pw@db.internal:5432/openbell')
    expect(loadConfig({ DATABASE_URL: 'postgresql://app@127.0.0.1/openbell?sslmode=require' }).databaseUrl).toBe('postgresql://app@127.0.0.1/openbell?sslmode=require')
  })

  const bad = ['mysql://u:hunter2@host/db', 'postgres://u:hunter2@/db', 'postgres://u:hunter2@host', 'postgres://u:hunter2@host/', 'postgres://u:hunter2@host/a/b', 'postgres://u:hunter2@host:99999/db']
  for (const url of bad) {
    test(`refused, naming DATABASE_URL and hiding the password: ${url.replace('hunter2', '…')}`, () => {
      const error = refusal({ DATABASE_URL: url })
      expect(error).toBeInstanceOf(ConfigError)
      expect(error.variable).toBe('DATABASE_URL')
      expect(error.message).toStartWith('DATABASE_URL: ')
      expect(error.message).not.toContain('hunter2')
    })
  }

  test('DATABASE_PATH and DATABASE_URL together are refused', () => {
    expect(refusal({ DATABASE_URL: 'postgres://u@h/db', DATABASE_PATH: '/x.sqlite' }).variable).toBe('DATABASE_PATH')
  })

  test('masking keeps everything but the password', () => {
    expect(maskUrlPassword('postgres://app:s3cr%40t@db:5432/openbell?sslmode=require')).toBe('postgres://app:***@db:5432/openbell?sslmode=require')
    expect(maskUrlPassword('postgres://app@db/openbell')).toBe('postgres://app@db/openbell')
  })

  test('an unreachable database stops the start: exit 1, DATABASE_URL named, password masked', async () => {
    const dir = tempDir()
    // A loopback port nothing listens on.
    const url = `postgres://openbell:hunter2@127.0.0.1:${freePort()}/openbell`
    const child = Bun.spawn(['bun', resolve(import.meta.dir, '../../src/main.ts')], {
      env: { ...process.env, DATABASE_URL: url, DATA_DIR: dir, PORT: String(freePort()), HOST: '127.0.0.1', HALT_FEED_URL: 'off', LOG_LEVEL: 'warn' },
      stdout: 'pipe',
      stderr: 'pipe',
    })
    const code = await child.exited
    const output = (await new Response(child.stdout).text()) + (await new Response(child.stderr).text())
    expect(code).toBe(1)
    expect(output).toContain('cannot start: DATABASE_URL postgres://openbell:***@127.0.0.1:')
    expect(output).not.toContain('hunter2')
  })

  test('a malformed DATABASE_URL stops the start with exit 2 before anything is opened', async () => {
    const child = Bun.spawn(['bun', resolve(import.meta.dir, '../../src/main.ts')], { env: { ...process.env, DATABASE_URL: 'postgres://u:hunter2@host', DATA_DIR: tempDir() }, stdout: 'pipe', stderr: 'pipe' })
    expect(await child.exited).toBe(2)
    const stderr = await new Response(child.stderr).text()
    expect(stderr).toContain('configuration error: DATABASE_URL')
    expect(stderr).not.toContain('hunter2')
  })
})
