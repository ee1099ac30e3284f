// Copying a stopped SQLite database into PostgreSQL (`openbell db copy --to …`, the upgrade path
// to several nodes). Both sides are migrated by this build first, so they have the same tables
// and columns (a test compares the catalogues). Tables are copied parents first, in chunks of
// multi-row INSERTs in primary-key order; a re-run after an interruption skips rows already
// there (ON CONFLICT DO NOTHING) and resumes a table with a one-column key after the last key
// copied. Afterwards the identity sequences and the audit log's next position are set, and the
// caller verifies (verifyCopy).
import type { Database } from 'bun:sqlite'
import type { SQL } from 'bun'

/** Per node or per moment, never copied: leases name processes of the old machine; the halt view is seconds old. */
const SKIPPED = new Set(['schema_migrations', 'job_leases', 'halt_state', 'sqlite_sequence'])
/** Bounded by PostgreSQL's 65,535 parameters per statement. */
const MAX_PARAMETERS = 30_000
const MAX_CHUNK_ROWS = 2_000

export interface TablePlan {
  name: string
  columns: string[]
  key: string[]
  rows: number
}

export interface CopyProgress {
  table: string
  copied: number
  total: number
}

/** The tables to copy, parents before the tables that reference them. */
export function copyPlan(db: Database): TablePlan[] {
  const names = (db.query(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`).all() as { name: string }[]).map((row) => row.name).filter((name) => !SKIPPED.has(name) && !name.startsWith('sqlite_'))
  const parents = new Map(names.map((name) => [name, (db.query('SELECT DISTINCT "table" AS parent FROM pragma_foreign_key_list(?)').all(name) as { parent: string }[]).map((row) => row.parent).filter((parent) => parent !== name)]))
  const ordered: string[] = []
  const visit = (name: string) => {
    if (ordered.includes(name)) return
    for (const parent of parents.get(name) ?? []) visit(parent)
    ordered.push(name)
  }
  names.forEach(visit)
  return ordered.map((name) => {
    const info = db.query('SELECT name, pk FROM pragma_table_info(?) ORDER BY cid').all(name) as { name: string; pk: number }[]
    const key = info.filter((column) => column.pk > 0).sort((a, b) => a.pk - b.pk).map((column) => column.name)
    return { name, columns: info.map((column) => column.name), key, rows: (db.query(`SELECT count(*) AS n FROM "${name}"`).get() as { n: number }).n }
  })
}

const quoted = (names: readonly string[]) => names.map((name) => `"${name}"`).join(', ')

/** Where to resume a table with a one-column key: after the largest key already in PostgreSQL (byte order, as SQLite sorts). */
async function resumeAfter(sql: SQL, table: TablePlan): Promise<unknown> {
  if (table.key.length !== 1) return null
  const [row] = (await sql.unsafe(`SELECT "${table.key[0]}" AS k FROM "${table.name}" ORDER BY "${table.key[0]}"${(await isText(sql, table)) ? ' COLLATE "C"' : ''} DESC LIMIT 1`)) as { k: unknown }[]
  return row?.k ?? null
}

async function isText(sql: SQL, table: TablePlan): Promise<boolean> {
  const [row] = (await sql`SELECT data_type FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ${table.name} AND column_name = ${table.key[0]!}`) as { data_type: string }[]
  return row?.data_type === 'text'
}

/** Copies one table; calls `progress` after every chunk. */
export async function copyTable(db: Database, sql: SQL, table: TablePlan, progress: (copied: number) => void): Promise<number> {
  const chunk = Math.max(1, Math.min(MAX_CHUNK_ROWS, Math.floor(MAX_PARAMETERS / table.columns.length)))
  const key = table.key.length ? table.key : ['rowid']
  const keyList = quoted(key)
  const select = `SELECT ${quoted(table.columns)}${table.key.length ? '' : ', rowid'} FROM "${table.name}"`
  // Pages in key order (row values: any number of key columns).
  const first = db.query(`${select} ORDER BY ${keyList} LIMIT ${chunk}`)
  const next = db.query(`${select} WHERE (${keyList}) > (${key.map(() => '?').join(', ')}) ORDER BY ${keyList} LIMIT ${chunk}`)
  // Filled by the target's own migration (the time of its first start): the copied row replaces it
  // (its trigger refuses updates, not deletes).
  if (table.name === 'installation') await sql`DELETE FROM installation`
  // Likewise the transparency log's state (made by the migration for an empty log): the copied
  // one goes with the copied tiles.
  if (table.name === 'log_state') await sql`DELETE FROM log_state`
  let after: unknown[] | null = null
  let copied = 0
  const resumed = await resumeAfter(sql, table)
  if (resumed !== null) {
    after = [resumed]
    copied = (db.query(`SELECT count(*) AS n FROM "${table.name}" WHERE "${table.key[0]}" <= ?`).get(resumed as string | number) as { n: number }).n
  }
  progress(copied)
  for (;;) {
    const rows = (after ? next.all(...(after as (string | number)[])) : first.all()) as Record<string, unknown>[]
    if (!rows.length) break
    const values: unknown[] = []
    const tuples = rows.map((row) => `(${table.columns.map((column) => (values.push(row[column] ?? null), `$${values.length}`)).join(', ')})`)
    const conflict = table.key.length ? `ON CONFLICT (${keyList}) DO NOTHING` : ''
    await sql.unsafe(`INSERT INTO "${table.name}" (${quoted(table.columns)}) VALUES ${tuples.join(', ')} ${conflict}`, values as never[])
    copied += rows.length
    after = key.map((column) => rows.at(-1)![column])
    progress(copied)
    if (rows.length < chunk) break
  }
  return copied
}

/** After the rows: identity sequences past the copied ids, the audit log's next position and last sealed day. */
export async function finishCopy(sql: SQL): Promise<void> {
  const identities = (await sql`SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema() AND is_identity = 'YES'`) as { table_name: string; column_name: string }[]
  for (const { table_name: table, column_name: column } of identities) {
    await sql.unsafe(`SELECT setval(pg_get_serial_sequence('"${table}"', '${column}'), greatest(coalesce((SELECT max("${column}") FROM "${table}"), 0), 1), (SELECT count(*) > 0 FROM "${table}"))`)
  }
  await sql`UPDATE audit_sequence SET next_seq = coalesce((SELECT max(seq) FROM audit_log), 0) + 1, sealed_through = (SELECT max(date) FROM audit_digests) WHERE id = 1`
}

/** Rows per table of the target (the tables of the plan). */
export async function targetCounts(sql: SQL, plan: readonly TablePlan[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>()
  for (const table of plan) counts.set(table.name, ((await sql.unsafe(`SELECT count(*)::float8 AS n FROM "${table.name}"`)) as { n: number }[])[0]!.n)
  return counts
}

/**
 * The copy's mark on the target (a comment on schema_migrations, so no table gains a row):
 * which SQLite installation it copies, and whether the copy finished.
 */
export async function copyMark(sql: SQL): Promise<string | null> {
  const [row] = (await sql`SELECT obj_description('schema_migrations'::regclass, 'pg_class') AS mark`) as { mark: string | null }[]
  return row?.mark ?? null
}

export async function setCopyMark(sql: SQL, mark: string): Promise<void> {
  await sql.unsafe(`COMMENT ON TABLE schema_migrations IS '${mark.replace(/'/g, "''")}'`)
}
