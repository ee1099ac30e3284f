// kill -9 during a burst of submissions: every 201 ever answered is still there after restart.
import { describe, expect, test } from 'bun:test'
import { tempDir } from '../helpers/app'
import { clientKey, submission } from '../helpers/checkpoints'
import { startService } from '../helpers/process'

describe('witness durability across a crash', () => {
  test('every 201 answered before kill -9 is served after restart, unchanged', async () => {
    const dataDir = tempDir('openbell-crash-')
    const env = { DATA_DIR: dataDir, WITNESS_ANON_DAILY_CAP: '100000', CLIENT_IP_HEADER: 'cf-connecting-ip' }
    const first = await startService(env)
    const key = clientKey()
    const sessions = ['s-a', 's-b', 's-c', 's-d']
    const answered = new Map<string, string>()
    let stop = false
    let sent = 0
    const workers = sessions.map(async (sessionId, worker) => {
      for (let count = 1; !stop; count++) {
        sent++
        try {
          const response = await fetch(`${first.base}/v1/witness/checkpoints`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'cf-connecting-ip': `10.${worker}.${Math.floor(count / 50) % 250}.${count % 50}` },
            body: JSON.stringify(submission(key, { session_id: sessionId, count })),
          })
          if (response.status === 201) answered.set(`${sessionId}/${count}`, await response.text())
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
    expect(answered.size).toBeGreaterThan(20)

    const second = await startService(env)
    try {
      const served = new Map<string, string>()
      for (const sessionId of sessions) {
        let after: string | undefined
        for (let page = 0; ; page++) {
          const url = `${second.base}/v1/witness/checkpoints?kid=${key.kid}&session_id=${sessionId}${after ? `&after=${encodeURIComponent(after)}` : ''}`
          const body = (await (await fetch(url, { headers: { 'cf-connecting-ip': `172.16.${page}.1` } })).json()) as { receipts: Record<string, string>[]; next_after?: string }
          for (const receipt of body.receipts) served.set(`${sessionId}/${receipt.count}`, JSON.stringify(receipt))
          if (!body.next_after) break
          after = body.next_after
        }
      }
      for (const [identity, receipt] of answered) expect(served.get(identity)).toBe(receipt)
      console.log(`crash test: ${sent} sent, ${answered.size} answered 201 before kill -9, ${served.size} stored after restart`)
    } finally {
      second.process.kill('SIGTERM')
      await second.process.exited
    }
  }, 60_000)
})
