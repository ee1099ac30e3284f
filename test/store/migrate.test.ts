import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { journalMode, openDatabase } from '../../src/store/database'
import { applyMigrations, MigrationError } from '../../src/store/migrate'
import { MIGRATIONS } from '../../src/wiring/migrations'
import { tempDir } from '../helpers/app'

describe('migrations', () => {
  test('a fresh database migrates, and an already-migrated one boots unchanged', () => {
    const path = join(tempDir(), 'db.sqlite')
    const first = openDatabase(path)
    expect(journalMode(first)).toBe('wal')
    expect(applyMigrations(first, MIGRATIONS)).toEqual(MIGRATIONS.map((m) => m.id))
    first.close()
    const second = openDatabase(path)
    expect(applyMigrations(second, MIGRATIONS)).toEqual([])
    expect((second.query('SELECT count(*) AS n FROM schema_migrations').get() as { n: number }).n).toBe(MIGRATIONS.length)
    second.close()
  })

  test('a failing migration stops and changes nothing', () => {
    const db = openDatabase(':memory:')
    const broken = [...MIGRATIONS, { id: 999, name: 'broken', sql: 'CREATE TABLE ok_table (x); CREATE TABLE (', postgres: '' }]
    expect(() => applyMigrations(db, broken)).toThrow(MigrationError)
    const tables = (db.query("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((r) => r.name)
    expect(tables).not.toContain('ok_table')
    expect(tables).not.toContain('api_keys')
    expect((db.query('SELECT count(*) AS n FROM schema_migrations').get() as { n: number }).n).toBe(0)
  })

  test('a database from a newer build is refused', () => {
    const db = openDatabase(':memory:')
    applyMigrations(db, [...MIGRATIONS, { id: 500, name: 'future', sql: 'CREATE TABLE future (x)', postgres: '' }])
    expect(() => applyMigrations(db, MIGRATIONS)).toThrow(/newer version/)
  })

  test('pragmas are set', () => {
    const db = openDatabase(join(tempDir(), 'p.sqlite'))
    expect((db.query('PRAGMA foreign_keys').get() as { foreign_keys: number }).foreign_keys).toBe(1)
    expect((db.query('PRAGMA synchronous').get() as { synchronous: number }).synchronous).toBe(1)
    expect((db.query('PRAGMA busy_timeout').get() as { timeout: number }).timeout).toBeGreaterThan(0)
  })
})
