// `openbell db copy --to postgres://…`: a SQLite installation with keys, a sealed day, receipts of
// today, witness rows and an override goes into an empty PostgreSQL database; counts and roots
// verified; an interrupted copy resumes; a non-empty target and a running service are refused;
// progress is shown on a terminal and as plain lines otherwise.
import type { Database } from 'bun:sqlite'
import { describe, expect, test } from 'bun:test'
import { randomUUID } from 'node:crypto'
import { join, resolve } from 'node:path'
import { readFileSync, writeFileSync } from 'node:fs'
import { runDbCommand, type DbCommandIo } from '../../src/cli/db-copy'
import { issueKey } from '../../src/accounts/keys'
import { sqliteAuditStore, type AuditRow } from '../../src/audit/store'
import { postgresAuditStore } from '../../src/audit/store-postgres'
import { DayTrees } from '../../src/audit/day-tree'
import { postgresTileStore } from '../../src/transparency/store-postgres'
import { copyMark } from '../../src/store/copy'
import { openDatabase } from '../../src/store/database'
import { makeTestApp, tempDir } from '../helpers/app'
import { dropAfterAll, emptyDatabase } from '../helpers/postgres'

const track = dropAfterAll()
const TODAY = '2026-03-10'

const row = (day: string): AuditRow => {
  const id = randomUUID()
  return { receipt_id: id, day, mic: 'XNYS', status: 'OPEN', source: 'SCHEDULE', issued_at: `${day}T15:00:00.000Z`, schema_version: '5.0', surface: '/v5/status', key_hash: null, payment_ref: null, client_ref: 'copy-test', receipt_json: JSON.stringify({ receipt_id: id }) }
}

/** A SQLite installation with something in most tables: 3 keys, 5,000 receipts of a sealed day, 2,500 of today. */
async function installation() {
  const harness = makeTestApp({ now: '2026-03-09T12:00:00.000Z', fileDatabase: true })
  await harness.deps.auditTrail.sealer.startedOn()
  for (const plan of ['free', 'pro', 'builder'] as const) await issueKey(harness.deps.accounts, { plan, now: new Date(harness.clock.now()) })
  const store = sqliteAuditStore(harness.db)
  for (let i = 0; i < 5; i++) await store.insertBatch(Array.from({ length: 1000 }, () => row('2026-03-09')))
  harness.clock.set(`${TODAY}T00:01:00.000Z`)
  expect(await harness.deps.auditTrail.sealer.tick()).toEqual(['2026-03-09'])
  for (let i = 0; i < 5; i++) await store.insertBatch(Array.from({ length: 500 }, () => row(TODAY)))
  // The transparency log holds all of it (a few full tiles and bundles, an edge, a checkpoint).
  await harness.deps.transparency.integrator.tick()
  await harness.json('/v5/admin/override', { method: 'POST', headers: { 'content-type': 'application/json', 'x-oracle-key': 'admin-test-key-0123456789abcdef' }, body: JSON.stringify({ mic: 'XLON', status: 'HALTED', reason: 'copy test', expires_at: `${TODAY}T20:00:00Z` }) })
  return harness
}

function io(db: () => Database | null, options: { tty?: boolean; stepMs?: number; failOn?: (line: string) => boolean; environmentUrl?: string } = {}) {
  const lines: string[] = []
  const status: string[] = []
  let now = Date.parse(`${TODAY}T12:00:00.000Z`)
  const value: DbCommandIo = {
    out: (line) => {
      if (options.failOn?.(line)) throw new Error('interrupted (test)')
      lines.push(line)
    },
    err: (line) => lines.push(`ERR ${line}`),
    status: options.tty ? (line) => void status.push(line) : null,
    now: () => (now += options.stepMs ?? 1),
    openSource: db,
    environmentUrl: options.environmentUrl ?? null,
    readText: (path) => readFileSync(path, 'utf8'),
  }
  return { io: value, lines, status }
}

describe('db copy', () => {
  test('copies everything, verifies counts and roots, and the nodes carry on where SQLite stopped', async () => {
    const harness = await installation()
    const target = track(await emptyDatabase('copy'))
    const source = () => openDatabase(harness.config.databasePath)
    const run = io(source, { stepMs: 1500 })
    expect(await runDbCommand(['copy', '--to', target.url], run.io)).toBe(0)
    expect(run.lines.some((line) => line.startsWith('verified: '))).toBe(true)
    // Plain progress lines (not a terminal): table, rows of total, rate, time left.
    expect(run.lines.some((line) => /^audit_log: [\d,]+ of 7,500 rows, [\d,]+ rows\/s, about \d+ s left$/.test(line))).toBe(true)
    expect(run.lines.some((line) => /^audit_log: 7,500 of 7,500 rows, [\d,]+ rows\/s, done$/.test(line))).toBe(true)
    // Run again: verified again, nothing doubled.
    const again = io(source)
    expect(await runDbCommand(['copy', '--to', target.url], again.io)).toBe(0)
    expect(again.lines[1]).toContain('already holds a finished copy')
    const pg = postgresAuditStore(target.sql)
    expect(await pg.dayCount(TODAY)).toBe(2500)
    expect((await new DayTrees(pg).tree(TODAY)).rootHex).toBe((await new DayTrees(sqliteAuditStore(harness.db)).tree(TODAY)).rootHex)
    expect((await pg.digest('2026-03-09'))!.merkle_root).toBe((await harness.deps.audit.store.digest('2026-03-09'))!.merkle_root)
    // The sealed day's leaf index comes along: a receipt of a later block is found at its leaf.
    const sealedIds = await pg.dayIds('2026-03-09', 0, 5000)
    expect(await pg.sealedLeaf(sealedIds[4321]!.receipt_id)).toEqual({ date: '2026-03-09', leaf_index: 4321 })
    // The log goes on at the next position; a row of the sealed day is refused.
    await pg.insertBatch([row(TODAY)])
    expect((await pg.dayIds(TODAY, 0, 3000)).at(-1)!.seq).toBe(7501)
    await expect(pg.insertBatch([row('2026-03-09')])).rejects.toThrow(/sealed/)
    // Identities go on after the copied ids; the first start is the SQLite installation's.
    const [key] = (await target.sql`INSERT INTO api_keys (key_hash, key_prefix, class, plan, created_at) VALUES (${'f'.repeat(64)}, 'svc_free_ffffffff', 'free', 'free', ${`${TODAY}T12:00:00.000Z`}) RETURNING id`) as { id: number }[]
    expect(key!.id).toBe(4)
    const [first] = (await target.sql`SELECT value FROM installation WHERE name = 'first_started_at'`) as { value: string }[]
    expect(first!.value).toBe((harness.db.query(`SELECT value FROM installation`).get() as { value: string }).value)
    expect(await copyMark(target.sql)).toContain(': done at ')
    // The transparency log comes along whole: its state (not the target migration's empty one), tiles and edge.
    const tiles = postgresTileStore(target.sql)
    const before = await harness.deps.transparency.tiles.state()
    expect(before.size).toBe(7500)
    expect(await tiles.state()).toEqual(before)
    expect(Buffer.from((await tiles.tile(0, 3))!).toString('hex')).toBe(Buffer.from((await harness.deps.transparency.tiles.tile(0, 3))!).toString('hex'))
    expect((await tiles.edge()).map((tile) => [tile.level, tile.width])).toEqual((await harness.deps.transparency.tiles.edge()).map((tile) => [tile.level, tile.width]))
  }, 120_000)

  test('an interrupted copy resumes where it stopped; progress on a terminal rewrites one line', async () => {
    const harness = await installation()
    const target = track(await emptyDatabase('resume'))
    const source = () => openDatabase(harness.config.databasePath)
    // Interrupted in the middle of audit_log (its first progress line past 2,000 rows).
    const broken = io(source, { stepMs: 6000, failOn: (line) => /^audit_log: [4-9],/.test(line) })
    await expect(runDbCommand(['copy', '--to', target.url], broken.io)).rejects.toThrow('interrupted')
    const [partial] = (await target.sql`SELECT count(*)::int AS n FROM audit_log`) as { n: number }[]
    expect(partial!.n).toBeGreaterThan(0)
    expect(partial!.n).toBeLessThan(7500)
    const resumed = io(source, { tty: true })
    expect(await runDbCommand(['copy', '--to', target.url], resumed.io)).toBe(0)
    expect(resumed.lines).toContain('resuming an interrupted copy of this installation')
    expect(resumed.status.some((line) => line.startsWith('audit_log: 7,500 of 7,500 rows') && line.endsWith(', done'))).toBe(true)
    expect(resumed.lines.some((line) => line.startsWith('verified: '))).toBe(true)
  }, 120_000)

  test('refused: a target that holds other data, a service still running on the file, a bad --to', async () => {
    const harness = await installation()
    const source = () => openDatabase(harness.config.databasePath)
    const other = track(await emptyDatabase('occupied'))
    await runDbCommand(['copy', '--to', other.url], io(source).io)
    const second = await installation()
    const refused = io(() => openDatabase(second.config.databasePath))
    expect(await runDbCommand(['copy', '--to', other.url], refused.io)).toBe(1)
    expect(refused.lines.some((line) => line.includes('is not empty'))).toBe(true)

    const live = harness.db
    live.run(`INSERT INTO job_leases (name, holder, acquired_at, expires_at) VALUES ('audit-sealer', 'node#${process.pid}.abcdef', 0, ${Number.MAX_SAFE_INTEGER})`)
    const running = io(source)
    expect(await runDbCommand(['copy', '--to', track(await emptyDatabase('running')).url], running.io)).toBe(1)
    expect(running.lines.some((line) => line.includes('the service is running on this database'))).toBe(true)

    const bad = io(source)
    expect(await runDbCommand(['copy', '--to', 'postgres://u:hunter2@host'], bad.io)).toBe(2)
    expect(bad.lines.join('\n')).toContain('--to: must name one database')
    expect(bad.lines.join('\n')).not.toContain('hunter2')
  }, 120_000)

  test('the target from DATABASE_URL or --to-file (a URL, or an environment file\'s DATABASE_URL= line), so no password is on the command line', async () => {
    const harness = await installation()
    const source = () => openDatabase(harness.config.databasePath)
    const dir = tempDir()
    // From the environment.
    const fromEnv = track(await emptyDatabase('from_env'))
    const env = io(source, { environmentUrl: fromEnv.url })
    expect(await runDbCommand(['copy'], env.io)).toBe(0)
    expect(env.lines.some((line) => line.startsWith('verified: '))).toBe(true)
    // From an environment file, as the nodes' cluster.env (quoted value, comments, other variables).
    const fromFile = track(await emptyDatabase('from_file'))
    const clusterEnv = join(dir, 'cluster.env')
    writeFileSync(clusterEnv, `# nodes\nSIGNING_KEY_FILE=/etc/openbell/signing-key.hex\nDATABASE_URL="${fromFile.url}"\nISSUER=oracle.example.com\n`, { mode: 0o600 })
    const file = io(source)
    expect(await runDbCommand(['copy', '--to-file', clusterEnv], file.io)).toBe(0)
    expect(file.lines.some((line) => line.startsWith('verified: '))).toBe(true)
    expect(file.lines.join('\n')).not.toContain('warning')
    // A file with the URL alone is taken as is (here the copy is already done there: verified again).
    const urlFile = join(dir, 'target.url')
    writeFileSync(urlFile, `${fromFile.url}\n`, { mode: 0o600 })
    const again = io(source)
    expect(await runDbCommand(['copy', '--to-file', urlFile], again.io)).toBe(0)
    expect(again.lines).toContain('this database already holds a finished copy of this installation; verifying it again')
    // Refusals: no target at all, an unreadable file, a file with neither form.
    const none = io(source)
    expect(await runDbCommand(['copy'], none.io)).toBe(2)
    expect(none.lines[0]).toContain('no target: set DATABASE_URL, or give --to-file')
    const missing = io(source)
    expect(await runDbCommand(['copy', '--to-file', join(dir, 'absent')], missing.io)).toBe(2)
    expect(missing.lines[0]).toContain('ENOENT')
    writeFileSync(join(dir, 'other.env'), 'A=1\nB=2\n')
    const neither = io(source)
    expect(await runDbCommand(['copy', '--to-file', join(dir, 'other.env')], neither.io)).toBe(2)
    expect(neither.lines[0]).toContain('holds neither one URL nor a DATABASE_URL= line')
    // --to still works, with a warning when the URL carries a password (never the password itself).
    const withPassword = new URL(track(await emptyDatabase('with_password')).url)
    withPassword.password = 'hunter2'
    const typed = io(source)
    await runDbCommand(['copy', '--to', withPassword.toString()], typed.io)
    expect(typed.lines[0]).toContain('warning: the password in --to is visible')
    expect(typed.lines.join('\n')).not.toContain('hunter2')
  }, 180_000)

  test('the command line: wrong arguments print the usage', async () => {
    const main = resolve(import.meta.dir, '../../src/main.ts')
    const { DATABASE_URL: _url, ...env } = process.env
    for (const args of [['db', 'copy', '--to'], ['db', 'copy', '--from', 'x'], ['db', 'copy']]) {
      const child = Bun.spawn(['bun', main, ...args], { stdout: 'pipe', stderr: 'pipe', env: { ...env, DATA_DIR: tempDir() } })
      expect(await child.exited).toBe(2)
      expect(await new Response(child.stderr).text()).toContain('usage: openbell db copy [--to-file <file> | --to postgres://')
    }
  }, 60_000)
})
