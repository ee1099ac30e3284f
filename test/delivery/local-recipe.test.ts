// docs/delivery.md "Testing webhooks locally" is run as written: the shell block between its
// webhook-recipe markers, in a scratch directory that links the project's files (so the files it
// writes land there), on free loopback ports. It makes a self-signed certificate with openssl,
// starts a Bun HTTPS receiver and the service (`bun start` with NODE_EXTRA_CA_CERTS and
// WEBHOOK_ALLOW_PRIVATE_TARGETS=true), checks the start-up warning, makes a key, subscribes and
// sends a test delivery. The whole process group is killed afterwards, whatever happened.
import { afterAll, expect, test } from 'bun:test'
import { existsSync, readFileSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { tempDir } from '../helpers/app'
import { docCode } from '../helpers/doc-sections'
import { freePort } from '../helpers/process'

const ROOT = join(import.meta.dir, '..', '..')
let group: number | null = null

afterAll(() => {
  if (group !== null) {
    try {
      process.kill(-group, 'SIGKILL')
    } catch {
      // already gone
    }
  }
})

/** The sh block of docs/delivery.md between the webhook-recipe markers. */
const recipe = () => docCode('delivery.md', 'webhook-recipe', 'sh')

test('the local webhook recipe delivers a test delivery to an HTTPS receiver on loopback, and the log warns that the guard is off', async () => {
  const dir = tempDir('openbell-test-recipe-')
  for (const name of ['package.json', 'bunfig.toml', 'tsconfig.json', 'src', 'schedules', 'public', 'node_modules']) symlinkSync(join(ROOT, name), join(dir, name))
  const env = { ...process.env, PORT: String(freePort()), HOOK_PORT: String(freePort()), DATA_DIR: join(dir, 'data'), HALT_FEED_URL: 'off', TZ: 'UTC' }
  // setsid: the recipe's background jobs share its process group, which afterAll kills.
  const child = Bun.spawn(['setsid', 'bash', '-e', '-c', recipe()], { cwd: dir, env, stdout: 'pipe', stderr: 'pipe' })
  group = child.pid
  const timer = setTimeout(() => process.kill(-child.pid, 'SIGKILL'), 100_000)
  const [stdout, stderr] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text()])
  const exitCode = await child.exited
  clearTimeout(timer)
  // stderr: only the keys command's `database: …` line (docs: it names the database it opened).
  expect({ exitCode, stderr }).toEqual({ exitCode: 0, stderr: `database: ${join(dir, 'data', 'openbell.sqlite')}\n` })
  const lines = stdout.trim().split('\n')
  expect(lines[0]).toBe('the webhook request-forgery guard is off')
  expect(JSON.parse(lines[1]!)).toEqual({ delivered: true, status_code: 204, error: null })
  // The receiver printed the delivery: its webhook-id and the synthetic test payload.
  const [id, body] = [lines[2]!.slice(0, lines[2]!.indexOf(' ')), lines[2]!.slice(lines[2]!.indexOf(' ') + 1)]
  expect(id).toMatch(/^msg_/)
  expect(JSON.parse(body)).toMatchObject({ type: 'status_change', mic: 'XNYS', test: true })
  // The recipe wrote its files into the scratch directory, not the project; the service stopped.
  for (const file of ['hook-cert.pem', 'hook-key.pem', 'receiver.ts', 'deliveries.log', 'openbell.log']) expect(existsSync(join(dir, file))).toBe(true)
  expect(readFileSync(join(dir, 'openbell.log'), 'utf8')).toContain('"level":"warn","msg":"WEBHOOK_ALLOW_PRIVATE_TARGETS=true: the webhook request-forgery guard is off')
}, 120_000)
