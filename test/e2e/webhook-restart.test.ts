// Restart mid-queue with the real service: a delivery queued for retry and one in flight when the
// process is killed (SIGKILL) are delivered after the restart with the same webhook-id; one already
// delivered is not sent again. The service trusts the receiver's test-made certificate through
// NODE_EXTRA_CA_CERTS, and WEBHOOK_ALLOW_PRIVATE_TARGETS lets it reach loopback.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { tempDir, TEST_ADMIN_KEY } from '../helpers/app'
import { SLOW_SETUP_MS, startService, type RunningService, waitFor } from '../helpers/process'
import { openDatabase } from '../../src/store/database'
import { applyMigrations } from '../../src/store/migrate'
import { MIGRATIONS } from '../../src/wiring/migrations'
import { sqliteAccountStore } from '../../src/accounts/store'
import { issueKey } from '../../src/accounts/keys'
import { makeCertificate, startReceiver, verifyDelivery, type TestCertificate } from '../helpers/https-receiver'

let certificate: TestCertificate
let receiver: ReturnType<typeof startReceiver>
let dataDir: string
let key: string
const running: RunningService[] = []

beforeAll(async () => {
  certificate = makeCertificate()
  receiver = startReceiver(certificate)
  dataDir = tempDir('openbell-webhook-restart-')
  const db = openDatabase(join(dataDir, 'openbell.sqlite'))
  applyMigrations(db, MIGRATIONS)
  key = (await issueKey(sqliteAccountStore(db), { plan: 'pro', now: new Date() })).key
  db.close()
}, SLOW_SETUP_MS)

afterAll(() => {
  for (const service of running) service.process.kill('SIGKILL')
  receiver.stop()
  certificate.dispose()
})

const env = () => ({ DATA_DIR: dataDir, ADMIN_KEY: TEST_ADMIN_KEY, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_DISPATCH_INTERVAL_SECONDS: '2', NODE_EXTRA_CA_CERTS: certificate.certFile })


describe('webhook queue across a restart', () => {
  test('queued and in-flight deliveries resume after SIGKILL with the same id; delivered ones are not repeated', async () => {
    const first = await startService(env())
    running.push(first)
    const subscribe = async (path: string) => {
      const response = await fetch(`${first.base}/v5/webhooks/subscribe`, { method: 'POST', headers: { 'x-oracle-key': key, 'content-type': 'application/json' }, body: JSON.stringify({ url: receiver.url(path), mics: ['XSES'] }) })
      expect(response.status).toBe(200)
      return (await response.json()) as { webhook_id: string; secret: string }
    }
    const ok = await subscribe('/ok')
    const failing = await subscribe('/failing')
    const hanging = await subscribe('/hanging')
    let release: () => void = () => {}
    const hung = new Promise<void>((resolve) => (release = resolve))
    receiver.respondWith(async (delivery) => {
      if (delivery.json.webhook_id === failing.webhook_id) return 503
      if (delivery.json.webhook_id === hanging.webhook_id) {
        await hung
        return 200
      }
      return 200
    })
    // A state change of XSES: the operator halts it (the service wakes its dispatcher at once).
    const override = await fetch(`${first.base}/v5/admin/overrides`, { method: 'POST', headers: { 'x-oracle-key': TEST_ADMIN_KEY, 'content-type': 'application/json' }, body: JSON.stringify({ mic: 'XSES', status: 'HALTED', reason: 'restart test', expires_at: new Date(Date.now() + 3_600_000).toISOString() }) })
    expect(override.status).toBe(201)
    const of = (id: string) => receiver.received.filter((delivery) => delivery.json.webhook_id === id)
    await waitFor(() => of(ok.webhook_id).length === 1 && of(failing.webhook_id).length === 1 && of(hanging.webhook_id).length === 1, 8000, 'first attempts')
    // The ok delivery was answered 200; the failing one waits for its retry; the hanging one is in flight.
    await Bun.sleep(300)
    first.process.kill('SIGKILL')
    await first.process.exited
    receiver.respondWith(() => 200)
    release()

    const second = await startService(env())
    running.push(second)
    await waitFor(() => of(failing.webhook_id).length === 2 && of(hanging.webhook_id).length === 2, 10_000, 'deliveries after the restart')
    for (const [subscription, list] of [[failing, of(failing.webhook_id)], [hanging, of(hanging.webhook_id)]] as const) {
      expect(list[0]!.headers['webhook-id']).toBe(list[1]!.headers['webhook-id']!)
      for (const delivery of list) expect(verifyDelivery(subscription.secret, delivery)).toBeTruthy()
      expect(list[1]!.json.current_status).toBe('HALTED')
    }
    // Two more dispatch cycles: nothing is sent twice after success, and the delivered one never again.
    await Bun.sleep(4500)
    expect(of(ok.webhook_id)).toHaveLength(1)
    expect(of(failing.webhook_id)).toHaveLength(2)
    expect(of(hanging.webhook_id)).toHaveLength(2)
    const health = (await (await fetch(`${second.base}/v5/webhooks/health`)).json()) as { status: string }
    expect(health.status).toBe('ok')
    second.process.kill('SIGTERM')
    expect(await second.process.exited).toBe(0)
  }, 60_000)
})
