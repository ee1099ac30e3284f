// The receipt log end to end on a live service: each answered receipt is in a checkpoint within
// 5 s of its answer, with the cadence as shipped; `openbell log verify` (run as a process) follows
// the log, checks a receipt, and detects a log that rewrote an entry and re-signed its tree; and
// after kill -9 during a burst, every checkpoint seen before the kill is reproduced by the tiles
// after the restart.
import { describe, expect, test } from 'bun:test'
import { join, resolve } from 'node:path'
import { Database } from 'bun:sqlite'
import { tempDir } from '../helpers/app'
import { startService, waitFor, type RunningService } from '../helpers/process'
import { openDatabase } from '../../src/store/database'
import { applyMigrations } from '../../src/store/migrate'
import { MIGRATIONS } from '../../src/wiring/migrations'
import { sqliteAccountStore } from '../../src/accounts/store'
import { issueKey } from '../../src/accounts/keys'
import { parseNote } from '../../src/transparency/note'
import { parseCheckpoint } from '../../src/transparency/checkpoint'
import { verifyConsistency } from '../../src/transparency/proofs'

const MAIN = resolve(import.meta.dir, '../../src/main.ts')

async function prepare() {
  const dataDir = tempDir('openbell-log-e2e-')
  const db = openDatabase(join(dataDir, 'openbell.sqlite'))
  applyMigrations(db, MIGRATIONS)
  const { key } = await issueKey(sqliteAccountStore(db), { plan: 'pro', now: new Date() })
  db.close()
  // The checkpoint cadence as shipped (LOG_CHECKPOINT_INTERVAL_MS unset: 1 s).
  return { dataDir, key, env: { DATA_DIR: dataDir, ISSUER: 'log.test', PUBLIC_BASE_URL: 'https://log.test' } }
}

async function checkpointOf(service: RunningService) {
  const response = await fetch(`${service.base}/log/checkpoint`)
  if (response.status !== 200) return null
  return parseCheckpoint(parseNote(await response.text())!.text)
}

async function verifyCli(base: string, state: string, extra: string[] = []) {
  const child = Bun.spawn(['bun', MAIN, 'log', 'verify', '--url', base, '--state', state, ...extra], { stdout: 'pipe', stderr: 'pipe', env: { ...process.env, LOG_LEVEL: 'error' } })
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited])
  return { code, stdout, stderr }
}

async function stop(service: RunningService) {
  service.process.kill('SIGTERM')
  await service.process.exited
}

describe('the receipt log on a live service', () => {
  test('each answer is in a checkpoint within 5 s; the verifier follows the log and catches a rewritten entry', async () => {
    const { dataDir, key, env } = await prepare()
    const state = join(tempDir(), 'state.json')
    let service = await startService(env)
    try {
      // A watcher reads /log/checkpoint every 50 ms while the receipts are answered (one after
      // another, so receipt i is leaf i): each receipt's wait is from its answer to the first
      // checkpoint read that covers it.
      const ids: string[] = []
      const answeredAt: number[] = []
      const waits: number[] = []
      let answering = true
      const watcher = (async () => {
        while (answering || waits.length < ids.length) {
          const size = (await checkpointOf(service))?.size ?? 0
          const now = Date.now()
          while (waits.length < Math.min(size, answeredAt.length)) waits.push(now - answeredAt[waits.length]!)
          if (!answering && now - answeredAt.at(-1)! > 5000) return
          await Bun.sleep(50)
        }
      })()
      for (let i = 0; i < 120; i++) {
        const response = await fetch(`${service.base}/v5/status?mic=${i % 2 ? 'XNYS' : 'XLON'}`, { headers: { 'x-oracle-key': key } })
        expect(response.status).toBe(200)
        ids.push(((await response.json()) as { receipt_id: string }).receipt_id)
        answeredAt.push(Date.now())
        // Spread over about three checkpoint intervals.
        if (i % 10 === 9) await Bun.sleep(250)
      }
      answering = false
      await watcher
      expect(waits.length).toBe(120)
      expect(Math.max(...waits)).toBeLessThanOrEqual(5000)
      console.log(`log e2e: 120 answered receipts (over ${answeredAt.at(-1)! - answeredAt[0]!} ms), each covered by a checkpoint at most ${Math.max(...waits)} ms after its answer (median ${waits.toSorted((x, y) => x - y)[60]} ms)`)

      const first = await verifyCli(service.base, state, ['--receipt', ids[5]!])
      expect({ code: first.code, stderr: first.stderr }).toEqual({ code: 0, stderr: '' })
      expect(first.stdout).toContain('root matches')
      expect(first.stdout).toContain(`receipt ${ids[5]}: leaf 5, included in the checkpoint, signature valid`)
      expect(first.stdout).toMatch(/witness log\.test\/witness: cosigned at/)
      for (let i = 0; i < 40; i++) await fetch(`${service.base}/v5/status?mic=XNYS`, { headers: { 'x-oracle-key': key } })
      await waitFor(async () => ((await checkpointOf(service))?.size ?? 0) >= 160, 5000, 'a checkpoint of the 40 receipts more')
      const second = await verifyCli(service.base, state)
      expect(second.code).toBe(0)
      expect(second.stdout).toContain('consistent with the checkpoint verified before (size 120)')
      const size = (await checkpointOf(service))!.size
      await stop(service)

      // The operator rewrites receipt 5 (CLOSED for OPEN), throws the tiles away and lets the
      // service rebuild and re-sign a log of the same size; its own witness is reset too.
      const db = new Database(join(dataDir, 'openbell.sqlite'))
      db.run('DROP TRIGGER audit_log_prune_only')
      db.run('DROP TRIGGER log_tiles_no_delete')
      const row = db.query('SELECT receipt_json FROM audit_log WHERE seq = 6').get() as { receipt_json: string }
      const changed = JSON.parse(row.receipt_json)
      changed.status = changed.status === 'OPEN' ? 'CLOSED' : 'OPEN'
      db.run('UPDATE audit_log SET receipt_json = ? WHERE seq = 6', [JSON.stringify(changed)])
      db.run('DELETE FROM log_tiles')
      db.run('DELETE FROM log_edge')
      db.run("UPDATE log_state SET size = 0, root = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', checkpoint = NULL, checkpoint_size = 0")
      db.run('DELETE FROM witness_log_heads')
      db.close()
      service = await startService(env)
      const deadline = Date.now() + 10_000
      while (((await checkpointOf(service))?.size ?? 0) < size && Date.now() < deadline) await Bun.sleep(100)
      expect((await checkpointOf(service))!.size).toBe(size)

      const caught = await verifyCli(service.base, state)
      expect(caught.code).toBe(1)
      expect(caught.stderr).toContain('FAIL: ')
      expect(caught.stderr).toContain('is not an extension of what was verified')
      // A verifier without history sees a self-consistent log, but not a valid receipt 5.
      const fresh = await verifyCli(service.base, join(tempDir(), 'fresh.json'), ['--receipt', ids[5]!])
      expect(fresh.code).toBe(1)
      expect(fresh.stderr).toContain('signature does not verify')
    } finally {
      await stop(service)
    }
  }, 90_000)

  test('kill -9 during a burst: every checkpoint seen before is reproduced by the tiles after the restart', async () => {
    const { key, env } = await prepare()
    const first = await startService({ ...env, LOG_CHECKPOINT_INTERVAL_MS: '100' })
    const seen = new Map<number, Uint8Array>()
    let answered = 0
    let stopBurst = false
    const workers = Array.from({ length: 8 }, async () => {
      while (!stopBurst) {
        try {
          const response = await fetch(`${first.base}/v5/status?mic=XNYS`, { headers: { 'x-oracle-key': key, connection: 'close' } })
          if (response.status === 200) answered++
        } catch {
          return
        }
      }
    })
    const watcher = (async () => {
      while (!stopBurst) {
        try {
          const checkpoint = await checkpointOf(first)
          if (checkpoint) seen.set(checkpoint.size, checkpoint.root)
        } catch {
          return
        }
        await Bun.sleep(30)
      }
    })()
    await Bun.sleep(2500)
    first.process.kill('SIGKILL')
    stopBurst = true
    await Promise.all([...workers, watcher])
    await first.process.exited
    expect(seen.size).toBeGreaterThan(3)

    const second = await startService(env)
    try {
      const deadline = Date.now() + 10_000
      let now = await checkpointOf(second)
      while ((now?.size ?? 0) < answered && Date.now() < deadline) {
        await Bun.sleep(100)
        now = await checkpointOf(second)
      }
      expect(now!.size).toBeGreaterThanOrEqual(answered)
      for (const [size, root] of seen) {
        if (size === 0) continue
        const proof = (await (await fetch(`${second.base}/log/proof/consistency?old=${size}&new=${now!.size}`)).json()) as { hashes: string[] }
        expect({ size, consistent: verifyConsistency(size, now!.size, root, now!.root, proof.hashes.map((h) => new Uint8Array(Buffer.from(h, 'base64')))) }).toEqual({ size, consistent: true })
      }
      const rebuilt = await verifyCli(second.base, join(tempDir(), 'after-crash.json'))
      expect({ code: rebuilt.code, stderr: rebuilt.stderr }).toEqual({ code: 0, stderr: '' })
      console.log(`log crash test: ${answered} receipts answered before kill -9, ${seen.size} checkpoints seen (largest ${Math.max(...seen.keys())}), ${now!.size} leaves after restart; every seen checkpoint consistent with it`)
    } finally {
      await stop(second)
    }
  }, 90_000)
})
