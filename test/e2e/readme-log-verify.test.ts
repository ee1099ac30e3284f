// The README's log-verify example, run as written from the project directory against the
// service on its defaults (only the port differs: the README's 8080 becomes a free one, and the
// state goes to a temp XDG_STATE_HOME instead of the user's).
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { tempDir } from '../helpers/app'
import { SLOW_SETUP_MS, startService, waitFor, type RunningService } from '../helpers/process'

const ROOT = resolve(import.meta.dir, '../..')
let service: RunningService

beforeAll(async () => {
  // Defaults but the data directory (a temp one) and the port; HOST as startService binds it (loopback).
  service = await startService({ DATA_DIR: tempDir('openbell-readme-log-') })
  await waitFor(async () => (await fetch(`${service.base}/log/checkpoint`)).status === 200, 10_000, 'the first checkpoint')
}, SLOW_SETUP_MS)

afterAll(async () => {
  service?.process.kill('SIGTERM')
  await service?.process.exited
})

test("README: `bun run log:verify --url http://localhost:8080` verifies the log of a default start", async () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
  const blocks = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((block) => block[1]!.trim())
  const command = blocks.find((block) => block.includes('log:verify'))
  expect(command).toBe('bun run log:verify --url http://localhost:8080')
  const port = new URL(service.base).port
  const state = tempDir()
  const child = Bun.spawn(['sh', '-c', command!.replace('localhost:8080', `localhost:${port}`)], { cwd: ROOT, env: { ...process.env, XDG_STATE_HOME: state }, stdout: 'pipe', stderr: 'pipe' })
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited])
  expect({ code, stderr: stderr.replace(/^\$ .*\n/m, '') }).toEqual({ code: 0, stderr: '' })
  expect(stdout).toMatch(new RegExp(`^checkpoint: \\S+:${port}/log size \\d+ root `))
  expect(stdout).toContain('root matches')
  expect(existsSync(join(state, 'openbell', `log-localhost_${port}.json`))).toBe(true)
}, 60_000)
