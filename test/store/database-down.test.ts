// PostgreSQL going away mid-traffic: live receipts are refused (503, never an unlogged
// receipt), other requests that reach the database answer 503 STORAGE_UNAVAILABLE instead of a
// 500, the node's storage status says degraded, and everything recovers by itself when the
// server is back. A cluster of its own, since the test stops it.
import { SQL } from 'bun'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Elysia } from 'elysia'
import { randomUUID } from 'node:crypto'
import { startCluster, type Cluster } from '../helpers/postgres-cluster'
import { CLUSTER_START_MS } from '../helpers/postgres'
import { openPostgres, watchPostgres, WATCH_INTERVAL_MS, WATCH_STALL_MS } from '../../src/store/postgres'
import { applyPostgresMigrations } from '../../src/store/postgres-migrate'
import { MIGRATIONS } from '../../src/wiring/migrations'
import { postgresAuditStore } from '../../src/audit/store-postgres'
import { AuditLog } from '../../src/audit/log'
import { ApiError } from '../../src/http/errors'
import { httpPlugin } from '../../src/http/plugin'
import { isStorageUnavailable } from '../../src/store/errors'
import { memoryLogger } from '../../src/log'
import { waitFor } from '../helpers/process'
import { startTcpRelay } from '../helpers/tcp-relay'
import type { AuditRow } from '../../src/audit/store'

let cluster: Cluster
let sql: SQL
beforeAll(async () => {
  cluster = startCluster({ durable: true })
  const admin = new SQL(cluster.url('postgres'))
  await admin.unsafe('CREATE DATABASE openbell')
  await admin.close()
  sql = await openPostgres(cluster.url('openbell'))
  await applyPostgresMigrations(sql, MIGRATIONS)
}, CLUSTER_START_MS)
afterAll(async () => {
  await sql?.close()
  cluster?.destroy()
})

const row = (): AuditRow => {
  const id = randomUUID()
  return { receipt_id: id, day: '2026-11-25', mic: 'XNYS', status: 'OPEN', source: 'SCHEDULE', issued_at: '2026-11-25T15:00:00.000Z', schema_version: '5.0', surface: '/v5/status', key_hash: null, payment_ref: null, client_ref: 'test', receipt_json: '{}' }
}

describe('database down mid-traffic', () => {
  test('fails closed while it is down, says degraded, and recovers by itself', async () => {
    const log = memoryLogger()
    const audit = new AuditLog(postgresAuditStore(sql), log)
    const watch = watchPostgres(sql, log)
    const app = new Elysia().use(httpPlugin({ log, clock: { now: () => Date.now() }, routes: () => [] })).get('/count', async () => (await sql`SELECT count(*)::int AS n FROM audit_log`)[0])
    try {
      await audit.append([row()])
      expect(watch.status()).toBe('ok')

      cluster.stop()
      const refused = await audit.append([row()]).catch((error) => error)
      expect(refused).toBeInstanceOf(ApiError)
      expect(refused).toMatchObject({ status: 503, errorCode: 'AUDIT_LOG_UNAVAILABLE' })
      const answer = await app.handle(new Request('http://localhost/count'))
      expect(answer.status).toBe(503)
      expect(await answer.json()).toMatchObject({ error: 'STORAGE_UNAVAILABLE' })
      expect(answer.headers.get('retry-after')).toBe('5')
      expect(isStorageUnavailable(await sql`SELECT 1`.catch((error) => error))).toBe(true)
      await waitFor(() => watch.status() === 'degraded', 3 * WATCH_INTERVAL_MS, 'degraded')

      cluster.start()
      const recoveredAt = Date.now()
      for (;;) {
        const ok = await audit.append([row()]).then(() => true, () => false)
        if (ok) break
        if (Date.now() - recoveredAt > 20_000) throw new Error('the audit log did not recover')
        await Bun.sleep(200)
      }
      await waitFor(() => watch.status() === 'ok', 3 * WATCH_INTERVAL_MS, 'ok again')
      expect(((await (await app.handle(new Request("http://localhost/count"))).json()) as { n: number }).n).toBe(2)
      expect(log.lines.some((line) => line.msg === 'audit log writes recovered')).toBe(true)
    } finally {
      watch.stop()
    }
  }, 60_000)
})

describe('a database that stops answering without refusing (packets dropped)', () => {
  test('the probe counts an unanswered query as a failure after WATCH_STALL_MS, and recovers when the network does', async () => {
    const relay = startTcpRelay({ host: '127.0.0.1', port: cluster.port })
    const url = new URL(cluster.url('openbell'))
    url.port = String(relay.port)
    const viaRelay = new SQL({ url: url.toString(), max: 2 })
    const log = memoryLogger()
    const watch = watchPostgres(viaRelay, log)
    try {
      await viaRelay`SELECT 1`
      await Bun.sleep(2 * WATCH_INTERVAL_MS)
      expect(watch.status()).toBe('ok')
      relay.stall()
      const stalledAt = Date.now()
      await waitFor(() => watch.status() === 'degraded', WATCH_STALL_MS + 3 * WATCH_INTERVAL_MS, 'degraded while stalled')
      expect(Date.now() - stalledAt).toBeGreaterThanOrEqual(WATCH_STALL_MS - WATCH_INTERVAL_MS)
      expect(log.lines.some((line) => line.msg === 'database not answering: live answers are refused (503) until it does')).toBe(true)
      relay.restore()
      await waitFor(() => watch.status() === 'ok', 20_000, 'ok once the network is back')
    } finally {
      watch.stop()
      // Connections first (a pool closing over a stalled one would wait for it), then the pool.
      relay.stop()
      await viaRelay.close().catch(() => {})
    }
  }, 60_000)
})
