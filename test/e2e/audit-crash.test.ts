// kill -9 during a burst of live receipts: every receipt answered 200 is in the log, in its
// day's digest and provable after restart. The test is sensitive: the log changed to answer
// before commit (flush every 250 ms or 500 rows, like the old queue) lost 358 answered receipts here.
import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { tempDir } from '../helpers/app'
import { startService } from '../helpers/process'
import { openDatabase } from '../../src/store/database'
import { applyMigrations } from '../../src/store/migrate'
import { MIGRATIONS } from '../../src/wiring/migrations'
import { sqliteAccountStore } from '../../src/accounts/store'
import { issueKey } from '../../src/accounts/keys'
import { verifyInclusion } from '../../src/audit/merkle'

describe('audit log durability across a crash', () => {
  test('every receipt answered before kill -9 is in the digest and provable after restart', async () => {
    const dataDir = tempDir('openbell-audit-crash-')
    const db = openDatabase(join(dataDir, 'openbell.sqlite'))
    applyMigrations(db, MIGRATIONS)
    const { key } = await issueKey(sqliteAccountStore(db), { plan: 'pro', now: new Date() })
    db.close()
    const env = { DATA_DIR: dataDir }
    const first = await startService(env)
    const answered = new Map<string, string>()
    let stop = false
    let sent = 0
    const workers = Array.from({ length: 16 }, async (_, worker) => {
      while (!stop) {
        sent++
        try {
          const path = worker % 4 === 0 ? '/v5/batch?mics=XNYS,XLON,XJPX' : '/v5/status?mic=XNYS'
          // A fresh connection per request: a kill then cannot reset a connection holding an answer not yet read.
          const response = await fetch(`${first.base}${path}`, { headers: { 'x-oracle-key': key, connection: 'close' } })
          if (response.status !== 200) continue
          const body = (await response.json()) as { receipt_id?: string; issued_at?: string; receipts?: { receipt_id: string; issued_at: string }[] }
          for (const receipt of body.receipts ?? [body as { receipt_id: string; issued_at: string }]) answered.set(receipt.receipt_id, receipt.issued_at.slice(0, 10))
        } catch {
          return // the process is gone
        }
      }
    })
    await Bun.sleep(1500)
    first.process.kill('SIGKILL')
    stop = true
    await Promise.all(workers)
    await first.process.exited
    expect(answered.size).toBeGreaterThan(100)

    const second = await startService(env)
    try {
      const logged = new Set<string>()
      for (const date of new Set(answered.values())) {
        let cursor: string | null = null
        do {
          const page = (await (await fetch(`${second.base}/v5/audit/digest?date=${date}${cursor ? `&cursor=${cursor}` : ''}`)).json()) as { receipt_ids: string[]; next_cursor: string | null }
          for (const id of page.receipt_ids) logged.add(id)
          cursor = page.next_cursor
        } while (cursor)
      }
      const missing = [...answered.keys()].filter((id) => !logged.has(id))
      expect(missing).toEqual([])
      // A sample of proofs verifies against the day's current root.
      for (const id of [...answered.keys()].slice(0, 20)) {
        const proof = (await (await fetch(`${second.base}/v5/audit/proof?receipt_id=${id}`)).json()) as { leaf_index: number; tree_size: number; audit_path: string[]; merkle_root: string }
        expect(verifyInclusion(id, proof.leaf_index, proof.tree_size, proof.audit_path, proof.merkle_root)).toBe(true)
      }
      console.log(`audit crash test: ${sent} requests sent, ${answered.size} receipts answered 200 before kill -9, ${logged.size} in the digest after restart, ${missing.length} missing`)
    } finally {
      second.process.kill('SIGTERM')
      await second.process.exited
    }
  }, 60_000)
})
