// docs/mcp.md shows how to pass the bearer token with the official SDK's Streamable HTTP
// transport (issue 30); this runs that block as written, in its own process, against the app on
// loopback, with a real token, and checks the call was the key's (its audit row carries the key).
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { docCode } from '../helpers/doc-sections'
import { makeTestApp, type TestApp } from '../helpers/app'
import { SLOW_SETUP_MS } from '../helpers/process'
import { issueKey } from '../../src/accounts/keys'

let t: TestApp
let base: string
// Beside the tests so that the block's imports resolve from the project's node_modules.
const file = join(import.meta.dir, `.docs-sdk-bearer-${process.pid}.ts`)

beforeAll(() => {
  t = makeTestApp({ env: { MCP_ANON_DAILY_LIMIT: '0' } })
  t.app.listen({ port: 0, hostname: '127.0.0.1' })
  base = `http://127.0.0.1:${t.app.server!.port}`
}, SLOW_SETUP_MS)
afterAll(async () => {
  rmSync(file, { force: true })
  await t.app.stop(true)
})

test('the SDK bearer example of docs/mcp.md runs as written and its call is the key\'s', async () => {
  const { key, account } = await issueKey(t.deps.accounts, { plan: 'free', now: new Date(t.clock.now()) })
  const token = await t.json('/oauth/token', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `grant_type=client_credentials&client_id=${key}` })
  writeFileSync(file, docCode('mcp.md', 'sdk-bearer', 'ts'))
  const child = Bun.spawn(['bun', file], { env: { ...process.env, OPENBELL_URL: base, OPENBELL_TOKEN: token.body.access_token }, stdout: 'pipe', stderr: 'pipe' })
  const [out, err, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited])
  expect([code, err]).toEqual([0, ''])
  // Anonymous receipts are 0 a day here: a receipt means the token was sent.
  expect(JSON.parse(out)).toMatchObject({ mic: 'XNYS', receipt_mode: 'live' })
  const logged = t.db.query("SELECT count(*) AS n FROM audit_log WHERE surface = '/mcp:get_market_status' AND key_hash = ?").get(account.key_hash) as { n: number }
  expect(logged.n).toBe(1)
}, 60_000)
