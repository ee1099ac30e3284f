// An override set or cleared by the `openbell overrides` command (another process writing the same
// database) wakes the webhook dispatcher within about two seconds (a one-second poll, then reads
// through the overrides' one-second cache), not at its next 60 s cycle. The
// command runs as a real child process; the receiver is a real HTTPS server on loopback.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { resolve } from 'node:path'
import { makeTestApp, type TestApp } from '../helpers/app'
import { issueKey } from '../../src/accounts/keys'
import { waitFor } from '../helpers/process'
import { makeCertificate, startReceiver, verifyDelivery, type TestCertificate } from '../helpers/https-receiver'

const MAIN = resolve(import.meta.dir, '../../src/main.ts')
let certificate: TestCertificate
let receiver: ReturnType<typeof startReceiver>
let t: TestApp
let stopDispatcher: () => Promise<void>

beforeAll(() => {
  certificate = makeCertificate()
  receiver = startReceiver(certificate)
  t = makeTestApp({ fileDatabase: true, env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } })
  // The command stamps overrides with the real time: the service runs on it too.
  t.clock.now = () => Date.now()
  t.deps.delivery.sender.ca = certificate.cert
})

afterAll(async () => {
  await stopDispatcher?.()
  receiver.stop()
  certificate.dispose()
})

async function cli(...args: string[]) {
  const child = Bun.spawn(['bun', MAIN, 'overrides', ...args], { env: { ...process.env, TZ: 'UTC', DATA_DIR: t.config.dataDir, LOG_LEVEL: 'error' }, stdout: 'pipe', stderr: 'pipe' })
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited])
  expect({ code, stderr }).toEqual({ code: 0, stderr: expect.any(String) })
  return stdout
}

describe('an override from the command line', () => {
  test('is delivered within about two seconds of the command, and so is its clearing', async () => {
    expect(t.config.delivery.dispatchIntervalSeconds).toBe(60)
    const key = (await issueKey(t.deps.accounts, { plan: 'pro', now: new Date() })).key
    const subscribed = await t.json('/v5/webhooks/subscribe', { method: 'POST', headers: { 'x-oracle-key': key, 'content-type': 'application/json' }, body: JSON.stringify({ url: receiver.url('/cli'), mics: ['XSES'] }) })
    expect(subscribed.status).toBe(200)
    stopDispatcher = t.deps.delivery.dispatcher.start()
    const mine = () => receiver.received.filter((d) => d.json?.webhook_id === subscribed.body.webhook_id)
    await waitFor(() => t.deps.delivery.dispatcher.cycles >= 1, 2000, 'the first cycle')

    await cli('set', 'XSES', 'HALTED', '--reason', 'cli drill', '--for', '1h')
    const done = Date.now()
    const halted = await waitFor(() => mine()[0], 5000, 'the halt delivery')
    expect(halted.at - done).toBeLessThan(3000)
    expect(verifyDelivery(subscribed.body.secret, halted)).toBeTruthy()
    expect(halted.json).toMatchObject({ mic: 'XSES', current_status: 'HALTED', receipt: { source: 'OVERRIDE', reason: 'cli drill' } })

    await cli('clear', 'XSES')
    const cleared = Date.now()
    const resumed = await waitFor(() => mine()[1], 5000, 'the clearing delivery')
    expect(resumed.at - cleared).toBeLessThan(3000)
    expect(resumed.json.previous_status).toBe('HALTED')
    expect(resumed.json.current_status).not.toBe('HALTED')
  }, 30_000)
})
