// PostgreSQL stopped under two real nodes mid-traffic, then started again: live surfaces answer
// 503 meanwhile (never a receipt that is not in the log), /v5/health says degraded, and both
// nodes recover by themselves: receipts again, every job held by exactly one node, overrides
// shared within a second. A cluster of its own (the test stops it), durable like a real server.
import { SQL } from 'bun'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startCluster, type Cluster } from '../helpers/postgres-cluster'
import { CLUSTER_START_MS } from '../helpers/postgres'
import { clockOffsetTo } from '../helpers/process'
import { TEST_ADMIN_KEY } from '../helpers/app'
import { Pair, LEASED_JOBS, keyed, type Node } from '../helpers/two-nodes'
import { applyPostgresMigrations } from '../../src/store/postgres-migrate'
import { MIGRATIONS } from '../../src/wiring/migrations'
import { issueKey } from '../../src/accounts/keys'
import { postgresAccountStore } from '../../src/accounts/store-postgres'

let cluster: Cluster
let pair: Pair
let key: string
const offset = clockOffsetTo('12:00:00.000')
/** Every receipt answered 200: id → day. */
const answered = new Map<string, string>()

beforeAll(async () => {
  cluster = startCluster({ durable: true })
  const admin = new SQL({ url: cluster.url('postgres'), max: 1 })
  await admin.unsafe('CREATE DATABASE openbell')
  await admin.close()
  const sql = new SQL({ url: cluster.url('openbell'), max: 2 })
  await applyPostgresMigrations(sql, MIGRATIONS)
  key = (await issueKey(postgresAccountStore(sql), { plan: 'pro', now: new Date() })).key
  pair = await Pair.start({ clockOffsetMs: offset, env: { HALT_FEED_URL: 'off' }, database: { url: cluster.url('openbell'), sql, drop: async () => sql.close() } })
}, CLUSTER_START_MS)
let stopTraffic = async () => {}
afterAll(async () => {
  await stopTraffic()
  await pair?.stop()
  cluster?.destroy()
})

async function status(node: Node) {
  const response = await fetch(`${node.base}/v5/status?mic=XNYS`, { headers: keyed(key) })
  const body = (await response.json()) as Record<string, any>
  if (response.status === 200) answered.set(body.receipt_id, body.issued_at.slice(0, 10))
  return { status: response.status, body }
}

describe('database down under two nodes', () => {
  test('mid-traffic: 503 while it is down, health degraded, recovery by itself; every receipt answered 200 is in the log', async () => {
    let running = true
    const answers: { sent: number; status: number; error?: string }[] = []
    const traffic = Array.from({ length: 4 }, async (_, worker) => {
      while (running) {
        const sent = Date.now()
        const answer = await status(pair.nodes[worker % 2]!)
        answers.push({ sent, status: answer.status, error: answer.body.error })
        if (answer.status !== 200) await Bun.sleep(50)
      }
    })
    stopTraffic = async () => {
      running = false
      await Promise.allSettled(traffic)
    }
    await Bun.sleep(1000)
    cluster.stop()
    // Asked after the server was gone (an answer sent later may be one committed before).
    const stoppedAt = Date.now()
    // Both nodes see it: live receipts refused, health degraded.
    for (const node of pair.nodes) {
      const deadline = Date.now() + 10_000
      while ((await pair.storage(node)).status !== 'degraded') {
        if (Date.now() > deadline) throw new Error(`${node.id} did not report degraded`)
        await Bun.sleep(100)
      }
    }
    await Bun.sleep(2000)
    const whileDown = answers.filter((answer) => answer.sent > stoppedAt)
    expect(whileDown.length).toBeGreaterThan(0)
    expect(whileDown.filter((answer) => answer.status !== 503).slice(0, 3)).toEqual([])
    // The audit log's refusal, or the key's metering that cannot reach the database first: both fail closed.
    expect([...new Set(whileDown.map((answer) => answer.error))].filter((error) => error !== 'AUDIT_LOG_UNAVAILABLE' && error !== 'STORAGE_UNAVAILABLE')).toEqual([])
    console.log(`while the database was down: ${whileDown.length} answers, ${[...new Set(whileDown.map((answer) => answer.error))].join(', ')}`)

    cluster.start()
    const startedAt = Date.now()
    const recovered = new Map<string, number>()
    while (recovered.size < 2) {
      for (const node of pair.nodes) {
        if (recovered.has(node.id)) continue
        const ok = (await pair.storage(node)).status === 'ok' && (await status(node)).status === 200
        if (ok) recovered.set(node.id, Date.now() - startedAt)
      }
      if (Date.now() - startedAt > 30_000) throw new Error(`not recovered within 30 s: ${[...recovered.keys()].join(', ')}`)
      await Bun.sleep(100)
    }
    await stopTraffic()
    console.log(`database restart: both nodes answering and healthy ${Math.max(...recovered.values()) / 1000} s after it was up again (${[...recovered].map(([id, ms]) => `${id} ${(ms / 1000).toFixed(1)} s`).join(', ')})`)

    const day = new Date(Date.now() + offset).toISOString().slice(0, 10)
    const logged = new Set<string>()
    let cursor: string | null = null
    do {
      const page = (await (await pair.fetch(`/v5/audit/digest?date=${day}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)).json()) as { receipt_ids: string[]; next_cursor: string | null }
      for (const id of page.receipt_ids) logged.add(id)
      cursor = page.next_cursor
    } while (cursor)
    expect([...answered.keys()].filter((id) => !logged.has(id))).toEqual([])
  }, 90_000)

  test('after the restart: every job is held by exactly one node, and an override set on one node is in force on the other within 1 s', async () => {
    const deadline = Date.now() + 30_000
    for (;;) {
      const leaders = await Promise.all(pair.nodes.map(async (node) => (await pair.storage(node)).leader_of))
      if (LEASED_JOBS.every((job) => leaders.filter((jobs) => jobs.includes(job)).length === 1)) break
      if (Date.now() > deadline) throw new Error(`jobs not settled: ${JSON.stringify(leaders)}`)
      await Bun.sleep(200)
    }
    const set = await fetch(`${pair.a.base}/v5/admin/overrides`, { method: 'POST', headers: { 'x-oracle-key': TEST_ADMIN_KEY, 'content-type': 'application/json' }, body: JSON.stringify({ mic: 'XNYS', status: 'HALTED', reason: 'after the restart', expires_at: new Date(Date.now() + offset + 3_600_000).toISOString() }) })
    expect(set.status).toBe(201)
    const since = Date.parse(((await set.json()) as { override: { created_at: string } }).override.created_at)
    let first = 0
    while (!first) {
      const answer = await status(pair.b)
      if (answer.body.status === 'HALTED') first = Date.parse(answer.body.issued_at)
      else expect(Date.parse(answer.body.issued_at) - since).toBeLessThan(1000)
    }
    console.log(`override propagation after the database restart: ${first - since} ms`)
  }, 60_000)
})
