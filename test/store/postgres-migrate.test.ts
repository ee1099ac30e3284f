// Migrations on PostgreSQL: the same numbered list as SQLite, applied once even when several
// nodes start at once on an empty database, all or nothing, and refused by an older build.
import { Database } from 'bun:sqlite'
import { describe, expect, test } from 'bun:test'
import { SQL } from 'bun'
import { MigrationError, applyMigrations, type Migration } from '../../src/store/migrate'
import { applyPostgresMigrations } from '../../src/store/postgres-migrate'
import { MIGRATIONS } from '../../src/wiring/migrations'
import { dropAfterAll, emptyDatabase } from '../helpers/postgres'

const track = dropAfterAll()
const count = async (sql: SQL, query: string) => Number(((await sql.unsafe(query)) as { n: string | number }[])[0]!.n)

describe('PostgreSQL migrations', () => {
  test('every migration says what it does on PostgreSQL', () => {
    for (const migration of MIGRATIONS) expect(typeof migration.postgres).toBe('string')
    // Only receipt_log (3), superseded before PostgreSQL support existed, is empty there.
    expect(MIGRATIONS.filter((migration) => !migration.postgres.trim()).map((migration) => migration.id)).toEqual([3])
  })

  test('an empty database migrates, and a migrated one is left alone', async () => {
    const { sql } = track(await emptyDatabase('migrate'))
    expect(await applyPostgresMigrations(sql, MIGRATIONS)).toEqual(MIGRATIONS.map((migration) => migration.id).sort((a, b) => a - b))
    expect(await applyPostgresMigrations(sql, MIGRATIONS)).toEqual([])
    expect(await count(sql, 'SELECT count(*) AS n FROM schema_migrations')).toBe(MIGRATIONS.length)
  }, 30_000)

  test('four nodes starting at once on an empty database migrate it once', async () => {
    const database = track(await emptyDatabase('race'))
    const pools = Array.from({ length: 4 }, () => new SQL({ url: database.url, max: 1 }))
    try {
      const results = await Promise.all(pools.map((pool) => applyPostgresMigrations(pool, MIGRATIONS)))
      expect(results.filter((applied) => applied.length === MIGRATIONS.length)).toHaveLength(1)
      expect(results.filter((applied) => applied.length === 0)).toHaveLength(3)
      expect(await count(database.sql, 'SELECT count(*) AS n FROM schema_migrations')).toBe(MIGRATIONS.length)
    } finally {
      await Promise.all(pools.map((pool) => pool.close()))
    }
  }, 30_000)

  test('a failing migration changes nothing', async () => {
    const { sql } = track(await emptyDatabase('broken'))
    const broken: Migration[] = [...MIGRATIONS, { id: 999, name: 'broken', sql: '', postgres: 'CREATE TABLE ok_table (x int); CREATE TABLE (' }]
    const error = await applyPostgresMigrations(sql, broken).catch((caught) => caught)
    expect(error).toBeInstanceOf(MigrationError)
    expect(error.message).toContain('migration 999 (broken) failed on PostgreSQL')
    expect(await count(sql, `SELECT count(*) AS n FROM information_schema.tables WHERE table_schema = 'public' AND table_name IN ('ok_table', 'api_keys', 'schema_migrations')`)).toBe(0)
  }, 30_000)

  test('a node older than the schema refuses to start, naming what it does not know', async () => {
    const { sql } = track(await emptyDatabase('newer'))
    await applyPostgresMigrations(sql, [...MIGRATIONS, { id: 500, name: 'future: something new', sql: '', postgres: 'CREATE TABLE future (x int)' }])
    const error = await applyPostgresMigrations(sql, MIGRATIONS).catch((caught) => caught)
    expect(error).toBeInstanceOf(MigrationError)
    expect(error.message).toContain('500 future: something new')
    expect(error.message).toContain('newer version')
  }, 30_000)

  test('both backends have the same tables with the same columns', async () => {
    const { sql } = track(await emptyDatabase('parity'))
    await applyPostgresMigrations(sql, MIGRATIONS)
    const db = new Database(':memory:')
    applyMigrations(db, MIGRATIONS)
    const sqlite = new Map<string, string[]>()
    for (const { name } of db.query(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`).all() as { name: string }[]) {
      sqlite.set(name, (db.query(`SELECT name FROM pragma_table_info(?)`).all(name) as { name: string }[]).map((column) => column.name).sort())
    }
    const postgres = new Map<string, string[]>()
    for (const row of (await sql`SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, column_name`) as { table_name: string; column_name: string }[]) {
      postgres.set(row.table_name, [...(postgres.get(row.table_name) ?? []), row.column_name].sort())
    }
    // PostgreSQL only: the row whose lock hands out audit log positions (src/audit/schema.ts).
    postgres.delete('audit_sequence')
    expect([...postgres.keys()].sort()).toEqual([...sqlite.keys()].sort())
    for (const [table, columns] of sqlite) expect({ table, columns: postgres.get(table) }).toEqual({ table, columns })
    db.close()
  }, 30_000)
})
