// `openbell db copy [--to-file <file> | --to postgres://…]` (else DATABASE_URL): moves a stopped
// SQLite installation into an empty PostgreSQL database (the upgrade path to several nodes;
// docs/scale-out.md); the target comes from the environment or a file so that its password is
// in no process listing. Shows progress
// (table, rows copied of total, rate, time left: one rewritten line on a terminal, a plain line
// every few seconds otherwise), can be run again after an interruption, and verifies the row
// count of every table and today's audit root (and the last sealed day's) on both sides.
import type { Database } from 'bun:sqlite'
import type { SQL } from 'bun'
import { checkPostgresUrl, ConfigError, maskUrlPassword, type Config } from '../config'
import { openPostgres, DatabaseUnavailable } from '../store/postgres'
import { applyPostgresMigrations } from '../store/postgres-migrate'
import { MIGRATIONS } from '../wiring/migrations'
import { copyMark, copyPlan, copyTable, finishCopy, setCopyMark, targetCounts, type TablePlan } from '../store/copy'
import { localHolderIsDead } from '../store/node'
import { sqliteAuditStore, type AuditStore } from '../audit/store'
import { postgresAuditStore } from '../audit/store-postgres'
import { DayTrees } from '../audit/day-tree'
import { utcDay } from '../audit/dates'

export const DB_USAGE = [
  'usage: openbell db copy [--to-file <file> | --to postgres://user:password@host:port/database]',
  '  the target: DATABASE_URL in the environment, or --to-file: a file holding the URL or a DATABASE_URL= line',
  '  (an environment file such as the nodes\' cluster.env), or --to on the command line (other users see it in ps)',
].join('\n')
const PLAIN_EVERY_MS = 5_000

export interface DbCommandIo {
  out: (line: string) => void
  err: (line: string) => void
  /** Rewrites the current terminal line (progress); null when output is not a terminal. */
  status: ((line: string) => void) | null
  now: () => number
  /** Opens (and migrates) the SQLite database the service uses; null when there is none. */
  openSource: () => Database | null
  /** DATABASE_URL of the environment, or null. */
  environmentUrl: string | null
  /** Reads a file named by --to-file (throws when it cannot). */
  readText: (path: string) => string
}

/**
 * The target URL from `--to-file`: the file's one line, or the value of its DATABASE_URL= line
 * (an environment file, quotes as systemd allows them). Null when it holds neither.
 */
export function urlFromFile(text: string): string | null {
  const lines = text.split(/\r?\n/).map((line) => line.trim()).filter((line) => line && !line.startsWith('#'))
  const assignment = lines.find((line) => line.startsWith('DATABASE_URL='))
  const value = assignment ? assignment.slice('DATABASE_URL='.length) : lines.length === 1 ? lines[0]! : null
  if (value === null) return null
  const quoted = /^(["'])(.*)\1$/.exec(value)
  return quoted ? quoted[2]! : value
}

/** Where the target URL comes from, and the URL as given (unchecked); an error line when the arguments are wrong. */
function targetOf(args: string[], io: DbCommandIo): { raw: string; source: string } | { error: string; code: number } {
  const [verb, flag, value, ...rest] = args
  if (verb !== 'copy' || rest.length) return { error: DB_USAGE, code: 2 }
  if (flag === undefined) {
    if (io.environmentUrl) return { raw: io.environmentUrl, source: 'DATABASE_URL' }
    return { error: `error: no target: set DATABASE_URL, or give --to-file <file>\n${DB_USAGE}`, code: 2 }
  }
  if (value === undefined) return { error: DB_USAGE, code: 2 }
  if (flag === '--to') return { raw: value, source: '--to' }
  if (flag !== '--to-file') return { error: DB_USAGE, code: 2 }
  let text: string
  try {
    text = io.readText(value)
  } catch (error) {
    return { error: `error: --to-file: cannot read ${value}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, code: 2 }
  }
  const raw = urlFromFile(text)
  return raw === null ? { error: `error: --to-file: ${value} holds neither one URL nor a DATABASE_URL= line`, code: 2 } : { raw, source: '--to-file' }
}

/** Leases of processes still running on this machine: the service is up on this database. */
function runningHolders(db: Database, now: number): string[] {
  return (db.query('SELECT holder, expires_at FROM job_leases').all() as { holder: string; expires_at: number }[]).filter((lease) => lease.expires_at > now && !localHolderIsDead(lease.holder)).map((lease) => lease.holder)
}

function reporter(io: DbCommandIo) {
  let table = ''
  let started = 0
  let startRows = 0
  let lastShown = 0
  return (plan: TablePlan, copied: number, done = false) => {
    const now = io.now()
    if (plan.name !== table) {
      table = plan.name
      started = now
      startRows = copied
      lastShown = 0
    }
    const seconds = Math.max((now - started) / 1000, 0.001)
    const rate = (copied - startRows) / seconds
    const left = rate > 0 ? Math.ceil((plan.rows - copied) / rate) : null
    const line = `${plan.name}: ${copied.toLocaleString('en')} of ${plan.rows.toLocaleString('en')} rows, ${Math.round(rate).toLocaleString('en')} rows/s${done ? ', done' : left === null ? '' : `, about ${left} s left`}`
    if (io.status) {
      if (done || now - lastShown >= 100) io.status(line)
      if (done) io.out('')
    } else if (done || now - lastShown >= PLAIN_EVERY_MS) io.out(line)
    if (done || now - lastShown >= (io.status ? 100 : PLAIN_EVERY_MS)) lastShown = now
  }
}

/** Roots of today and of the last sealed day, from both databases' rows. */
async function verifyRoots(source: AuditStore, target: AuditStore, today: string): Promise<string[]> {
  const problems: string[] = []
  const [mine, theirs] = [await new DayTrees(source).tree(today), await new DayTrees(target).tree(today)]
  if (mine.rootHex !== theirs.rootHex || mine.size !== theirs.size) problems.push(`today's audit root differs: SQLite ${mine.rootHex} (${mine.size}), PostgreSQL ${theirs.rootHex} (${theirs.size})`)
  const sealed = await target.lastDigest()
  if (sealed) {
    // The stored block roots of a sealed day are copied rows too: rebuild the day from its ids instead.
    const rebuilt = await new DayTrees({ ...target, blocks: async () => [] }).tree(sealed.date)
    if (rebuilt.rootHex !== sealed.merkle_root) problems.push(`the sealed root of ${sealed.date} does not match its rows on PostgreSQL`)
  }
  return problems
}

async function copyInto(db: Database, sql: SQL, io: DbCommandIo, target: string): Promise<number> {
  const applied = await applyPostgresMigrations(sql, MIGRATIONS)
  if (applied.length) io.err(`migrated the PostgreSQL database (${applied.length} migrations)`)
  const plan = copyPlan(db)
  const source = (db.query(`SELECT value FROM installation WHERE name = 'first_started_at'`).get() as { value: string } | null)?.value ?? 'unknown'
  const mark = `openbell db copy of the SQLite installation first started at ${source}`
  const present = await copyMark(sql)
  const counts = await targetCounts(sql, plan)
  // Rows every migrated database has (its first start; the empty transparency log's state).
  const occupied = [...counts].filter(([name, rows]) => rows > 0 && name !== 'installation' && name !== 'log_state').map(([name]) => name)
  if (present?.startsWith(`${mark}: done`)) io.out('this database already holds a finished copy of this installation; verifying it again')
  else if (present?.startsWith(mark)) io.out('resuming an interrupted copy of this installation')
  else if (occupied.length) {
    io.err(`error: ${target} is not empty (${occupied.slice(0, 5).join(', ')}${occupied.length > 5 ? ', …' : ''} hold rows) and holds no copy of this installation; copy into an empty database`)
    return 1
  }
  await setCopyMark(sql, `${mark}: in progress`)
  const show = reporter(io)
  for (const table of plan) {
    await copyTable(db, sql, table, (copied) => show(table, copied))
    show(table, table.rows, true)
  }
  await finishCopy(sql)
  const after = await targetCounts(sql, plan)
  const problems = plan.filter((table) => after.get(table.name) !== table.rows).map((table) => `${table.name}: SQLite ${table.rows} rows, PostgreSQL ${after.get(table.name)}`)
  problems.push(...(await verifyRoots(sqliteAuditStore(db), postgresAuditStore(sql), utcDay(io.now()))))
  if (problems.length) {
    for (const problem of problems) io.err(`verification failed: ${problem}`)
    return 1
  }
  await setCopyMark(sql, `${mark}: done at ${new Date(io.now()).toISOString()}`)
  const rows = plan.reduce((sum, table) => sum + table.rows, 0)
  io.out(`verified: ${plan.length} tables, ${rows.toLocaleString('en')} rows, the same row count in each; today's audit root is the same on both`)
  io.out(`done: start the nodes with DATABASE_URL=${target} and the same signing key (docs/scale-out.md)`)
  return 0
}

export async function runDbCommand(args: string[], io: DbCommandIo): Promise<number> {
  const given = targetOf(args, io)
  if ('error' in given) {
    io.err(given.error)
    return given.code
  }
  let url: string
  try {
    url = checkPostgresUrl(given.raw, given.source)
  } catch (error) {
    io.err(`error: ${(error as ConfigError).message}`)
    return 2
  }
  if (given.source === '--to' && new URL(url).password) io.err('warning: the password in --to is visible to every user of this machine (ps, shell history); use DATABASE_URL or --to-file next time')
  const target = maskUrlPassword(url)
  const db = io.openSource()
  if (!db) return 1
  try {
    const running = runningHolders(db, io.now())
    if (running.length) {
      io.err(`error: the service is running on this database (${running.join(', ')}); stop it first, so that nothing is written during the copy`)
      return 1
    }
    let sql: SQL
    try {
      sql = await openPostgres(url, { max: 2 })
    } catch (error) {
      io.err(`error: ${(error as DatabaseUnavailable).message.replace(/^DATABASE_URL/, '--to')}`)
      return 1
    }
    try {
      io.out(`copying into ${target}`)
      return await copyInto(db, sql, io, target)
    } finally {
      await sql.close()
    }
  } finally {
    db.close()
  }
}
