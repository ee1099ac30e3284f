// The real service with a real SMTP server: a newcomer gets keys with HTTP alone, the e-mailed key
// arrives, `openbell mail status` counts it, and no raw key appears anywhere in the service's log.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { resolve } from 'node:path'
import { tempDir } from '../helpers/app'
import { SLOW_SETUP_MS, startService, type RunningService } from '../helpers/process'
import { keyInMail, startSmtp, type TestSmtp } from '../helpers/smtp'
import { keysInLog } from '../accounts/self-service-helpers'

const MAIN = resolve(import.meta.dir, '../../src/main.ts')

describe('self-service keys against the running service', () => {
  let smtp: TestSmtp
  let service: RunningService
  let env: Record<string, string>
  beforeAll(async () => {
    smtp = await startSmtp()
    env = { DATA_DIR: tempDir(), SMTP_URL: smtp.url, MAIL_FROM: 'keys@oracle.test', LOG_LEVEL: 'debug' }
    service = await startService(env)
  }, SLOW_SETUP_MS)
  afterAll(async () => {
    service.process.kill()
    await service.process.exited
    await smtp.close()
  })

  test('instant, e-mailed and sandbox keys work; mail status counts the mail; the log holds no key', async () => {
    const postJson = (path: string, body: unknown) => fetch(`${service.base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    const instant = (await (await postJson('/v5/keys/instant', { agent_id: 'e2e-agent' })).json()) as { api_key: string }
    expect((await postJson('/v5/keys/request', { email: 'newcomer@example.com' })).status).toBe(200)
    const sandbox = (await (await postJson('/v5/sandbox', { email: 'sandbox@example.com' })).json()) as { api_key: string }
    // The job sends on wake, without any manual step.
    const received = await smtp.waitFor(2, 15_000)
    const mailed = keyInMail(received.find((mail) => mail.to[0] === 'newcomer@example.com')!, 'svc_free_')
    expect(keyInMail(received.find((mail) => mail.to[0] === 'sandbox@example.com')!, 'sb_')).toBe(sandbox.api_key)
    const made = [instant.api_key, mailed, sandbox.api_key]
    for (const key of made) expect((await fetch(`${service.base}/v5/status?mic=XNYS`, { headers: { 'x-oracle-key': key } })).status).toBe(200)

    const status = Bun.spawn(['bun', MAIN, 'mail', 'status'], { env: { ...process.env, ...env }, stdout: 'pipe', stderr: 'pipe' })
    const [stdout, stderr] = await Promise.all([new Response(status.stdout).text(), new Response(status.stderr).text(), status.exited])
    expect(status.exitCode).toBe(0)
    expect(stdout).toContain('sent: 2')
    expect(stdout).toContain('queued: 0')
    for (const key of made) {
      expect(stdout + stderr).not.toContain(key)
      expect(service.output()).not.toContain(key)
    }
    expect(service.output()).toContain('"msg":"mail sent"')
    expect(keysInLog([service.output()])).toEqual([])
  })
})
