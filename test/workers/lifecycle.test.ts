// WORKERS=2 on one SQLite file, end to end: the supervisor (`bun src/main.ts`) and its two
// workers on one port. Both answer; /v5/health lists them; a second instance on the same data
// directory is refused; a burst spread over both gives one audit log without a gap; an override
// set through one is in force on every worker within 1 s; kill -9 of a worker in the middle of a
// burst loses no answered receipt and the supervisor starts it again; SIGHUP reaches every worker;
// SIGTERM stops everything, each step logged. Requests go on new connections, so the kernel
// spreads them over the workers as it spreads clients.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { resolve } from 'node:path'
import { Workers } from '../helpers/workers'
import { freePort, SLOW_SETUP_MS } from '../helpers/process'
import { TEST_ADMIN_KEY } from '../helpers/app'
import { issueKey } from '../../src/accounts/keys'

const MAIN = resolve(import.meta.dir, '../../src/main.ts')
let workers: Workers
let key: string

beforeAll(async () => {
  workers = await Workers.start({ count: 2 })
  key = (await issueKey(workers.accounts(), { plan: 'pro', now: new Date() })).key
}, SLOW_SETUP_MS + 60_000)
afterAll(async () => {
  await workers?.stop()
})

const status = (path = '/v5/status?mic=XNYS') => workers.fetch(path, { headers: { 'x-oracle-key': key } })

/** Another `openbell` on the same data directory and another port; expected to exit by itself. */
async function startRefused(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const child = Bun.spawn(['bun', MAIN], { env: { ...process.env, ...workers.env, PORT: String(freePort()), ...env }, stdout: 'ignore', stderr: 'pipe' })
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000)
  const [code, stderr] = await Promise.all([child.exited, new Response(child.stderr).text()])
  clearTimeout(timer)
  return { code, stderr }
}

/** Sends GET /v5/status with `concurrency` requests in flight until stopped; the receipt ids answered 200, and the failures. */
function burst(concurrency: number) {
  const answered: string[] = []
  const failures: string[] = []
  let running = true
  const loops = Array.from({ length: concurrency }, async () => {
    while (running) {
      try {
        const response = await status()
        if (response.status === 200) answered.push(((await response.json()) as { receipt_id: string }).receipt_id)
        else failures.push(`${response.status} ${await response.text()}`)
      } catch (error) {
        failures.push((error as Error).message)
      }
    }
  })
  return {
    answered,
    async stop() {
      running = false
      await Promise.all(loops)
      return { answered, failures }
    },
  }
}

/** The receipt ids of `ids` that are not in the audit log. */
function missingFromLog(ids: readonly string[]): string[] {
  const db = workers.database()
  const find = db.query('SELECT 1 AS hit FROM audit_log WHERE receipt_id = ?')
  return ids.filter((id) => !find.get(id))
}

describe('WORKERS=2 on SQLite', () => {
  test('both workers answer on the one port; /v5/health lists them and names the one answering', async () => {
    const { workers: listed, storage } = await workers.health()
    expect(listed).toHaveLength(2)
    expect(new Set(listed.map((worker) => worker.id)).size).toBe(2)
    expect(new Set(listed.map((worker) => worker.pid)).size).toBe(2)
    expect(listed.every((worker) => worker.pid !== workers.process.pid && Date.parse(worker.started_at) > 0)).toBe(true)
    expect(storage.backend).toBe('sqlite')
    const answering = await workers.answering(30)
    expect([...answering].sort()).toEqual(listed.map((worker) => worker.id).sort())
    const supervisorLines = workers.lines().filter((line) => typeof line.worker !== 'number')
    expect(supervisorLines.find((line) => line.msg === 'listening')?.workers).toHaveLength(2)
  })

  test('a second instance on the same DATA_DIR is refused, alone, with workers or with REUSE_PORT; so is a forged worker', async () => {
    const holder = `in use by openbell pid ${workers.process.pid}`
    const [alone, withWorkers, shared, forged] = await Promise.all([
      startRefused({ WORKERS: '1' }),
      startRefused({ WORKERS: '2' }),
      startRefused({ WORKERS: '1', REUSE_PORT: 'true' }),
      startRefused({ WORKERS: '1', OPENBELL_WORKER: '3', OPENBELL_SUPERVISOR: String(workers.process.pid) }),
    ])
    for (const refused of [alone, withWorkers, shared]) {
      expect(refused.code).toBe(2)
      expect(refused.stderr).toContain(holder)
    }
    expect(forged.code).toBe(2)
    expect(forged.stderr).toContain('was not started by the openbell supervisor it names')
    expect((await workers.health()).workers).toHaveLength(2)
  }, 90_000)

  test('a burst spread over both workers: every answer logged once, one log order without a gap', async () => {
    const answers = await Promise.all(Array.from({ length: 200 }, async () => {
      const response = await status()
      return { status: response.status, id: ((await response.json()) as { receipt_id: string }).receipt_id }
    }))
    expect(answers.every((answer) => answer.status === 200)).toBe(true)
    expect(missingFromLog(answers.map((answer) => answer.id))).toEqual([])
    const log = workers.database().query('SELECT count(*) AS n, min(seq) AS first, max(seq) AS last, count(DISTINCT receipt_id) AS ids FROM audit_log').get() as { n: number; first: number; last: number; ids: number }
    expect(log.n).toBeGreaterThanOrEqual(200)
    expect(log.last - log.first + 1).toBe(log.n)
    expect(log.ids).toBe(log.n)
  }, 60_000)

  test('an override set through one worker is in force on every worker within 1 s', async () => {
    const sampling = burst(4)
    const set = await workers.fetch('/v5/admin/overrides', { method: 'POST', headers: { 'x-oracle-key': TEST_ADMIN_KEY, 'content-type': 'application/json' }, body: JSON.stringify({ mic: 'XNYS', status: 'HALTED', reason: 'workers test', expires_at: new Date(Date.now() + 3_600_000).toISOString() }) })
    expect(set.status).toBe(201)
    const since = Date.parse(((await set.json()) as { override: { created_at: string } }).override.created_at)
    // Receipts on new connections for 2.5 s more: the kernel spreads them over both workers.
    while (Date.now() < since + 2500) await Bun.sleep(50)
    const { answered } = await sampling.stop()
    const db = workers.database()
    const rows = db.query(`SELECT status, issued_at FROM audit_log WHERE receipt_id IN (${answered.map(() => '?').join(',')})`).all(...answered) as { status: string; issued_at: string }[]
    const late = rows.filter((row) => Date.parse(row.issued_at) > since + 1000)
    expect(late.length).toBeGreaterThan(20)
    expect(late.filter((row) => row.status !== 'HALTED')).toEqual([])
    const first = rows.filter((row) => row.status === 'HALTED').map((row) => Date.parse(row.issued_at)).sort((a, b) => a - b)[0]!
    console.log(`override on every worker: first HALTED receipt ${first - since} ms after the set; ${late.length} receipts after 1 s, all HALTED`)
    expect((await workers.fetch('/v5/admin/overrides/XNYS', { method: 'DELETE', headers: { 'x-oracle-key': TEST_ADMIN_KEY } })).status).toBe(204)
  }, 60_000)

  test('kill -9 of a worker in the middle of a burst: no answered receipt is lost, and the supervisor starts it again', async () => {
    const [victim] = (await workers.health()).workers
    const load = burst(16)
    while (load.answered.length < 100) await Bun.sleep(20)
    process.kill(victim!.pid, 'SIGKILL')
    const killedAt = load.answered.length
    await Bun.sleep(1500)
    const { answered, failures } = await load.stop()
    expect(answered.length).toBeGreaterThan(killedAt)
    expect(missingFromLog(answered)).toEqual([])
    console.log(`kill -9 mid-burst: ${answered.length} receipts answered (${killedAt} before the kill), all in the log; ${failures.length} requests failed with the worker`)
    const back = await workers.waitForWorkers(2, 150_000, [victim!.pid])
    const restarted = back.find((worker) => worker.id === victim!.id)!
    expect(restarted.pid).not.toBe(victim!.pid)
    const died = workers.lines().find((line) => line.msg === 'worker died; restarting it' && line.pid === victim!.pid)
    expect(died).toMatchObject({ worker: victim!.id, signal: 'SIGKILL' })
    expect((await status()).status).toBe(200)
  }, 240_000)

  test('SIGHUP reaches every worker (each reloads its calendars and says so)', async () => {
    const before = workers.lines().length
    workers.process.kill('SIGHUP')
    const deadline = Date.now() + 30_000
    const reloaded = () => new Set(workers.lines().slice(before).filter((line) => line.trigger === 'SIGHUP').map((line) => line.worker))
    while (reloaded().size < 2 && Date.now() < deadline) await Bun.sleep(100)
    expect(workers.lines().slice(before).some((line) => line.msg === 'SIGHUP passed to every worker')).toBe(true)
    expect([...reloaded()].sort()).toEqual([1, 2])
  }, 40_000)

  test('SIGTERM stops every worker, then the supervisor, each step logged', async () => {
    const pids = (await workers.health()).workers.map((worker) => worker.pid)
    const before = workers.lines().length
    expect(await workers.stop()).toBe(0)
    await Bun.sleep(200)
    const lines = workers.lines().slice(before)
    const supervisor = lines.filter((line) => typeof line.worker !== 'number')
    expect(supervisor[0]).toMatchObject({ msg: 'shutting down', signal: 'SIGTERM' })
    expect(supervisor.map((line) => line.msg)).toEqual(['shutting down', 'stopping workers', 'worker stopped', 'worker stopped', 'stopped'])
    expect(supervisor.filter((line) => line.msg === 'worker stopped').every((line) => line.code === 0)).toBe(true)
    for (const n of [1, 2]) {
      // The request log's line of the health call above may land after `before`: steps only.
      const own = lines.filter((line) => line.worker === n && line.msg !== 'request').map((line) => line.msg)
      expect(own[0]).toBe('shutting down')
      expect(own.at(-1)).toBe('stopped')
    }
    expect(lines.at(-1)).toMatchObject({ msg: 'stopped', code: 0 })
    for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow()
  }, 60_000)
})
