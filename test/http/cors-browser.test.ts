// Issue 24 item 4 in a real browser: a page on another origin, opened by headless Chromium (Debian's
// `chromium`, driven with --dump-dom, no extra package), tries what a hostile page would. Two
// services on loopback: one with nothing listed, one whose CORS_ALLOWED_ORIGINS names the page's
// origin. The page reads the schedule and the witness from both, and tries to mint an instant key
// with a JSON POST (preflighted) and with a text/plain POST (no preflight), and to get a bearer
// token with a form POST. What the page could read is written into its DOM; the databases say
// what was issued.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { join } from 'node:path'
import { makeTestApp, tempDir, type TestApp } from '../helpers/app'
import { issueKey } from '../../src/accounts/keys'
import { SLOW_SETUP_MS } from '../helpers/process'

let page: ReturnType<typeof Bun.serve>
let closedService: { t: TestApp; server: ReturnType<typeof Bun.serve> }
let listedService: { t: TestApp; server: ReturnType<typeof Bun.serve> }
let freeKey: string

function serve(t: TestApp) {
  return { t, server: Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: (request) => t.app.handle(request) }) }
}

/** The page's script: each attempt's outcome as `name=status` (readable) or `name=blocked`. */
const script = (bases: Record<string, string>, key: string) => `
const attempts = []
for (const [service, base] of Object.entries(${JSON.stringify(bases)})) {
  const tryIt = (name, url, init) => fetch(base + url, init).then((r) => r.text().then((text) => service + '.' + name + '=' + r.status + (text.includes('svc_free_') ? ':key' : '')), () => service + '.' + name + '=blocked')
  attempts.push(
    tryIt('schedule', '/v5/schedule?mic=XNYS'),
    tryIt('witness', '/v1/witness/checkpoints?kid=${'A'.repeat(43)}&session_id=s'),
    tryIt('instant_json', '/v5/keys/instant', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ agent_id: service + '-json' }) }),
    tryIt('instant_simple', '/v5/keys/instant', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ agent_id: service + '-simple' }) }),
    tryIt('token_form', '/oauth/token', { method: 'POST', body: new URLSearchParams({ grant_type: 'client_credentials', client_id: ${JSON.stringify(key)} }) }),
  )
}
Promise.all(attempts).then((results) => { document.getElementById('out').textContent = results.sort().join(' ') })
`

beforeAll(async () => {
  page = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response(pageHtml, { headers: { 'content-type': 'text/html; charset=utf-8' } }) })
  const pageOrigin = `http://127.0.0.1:${page.port}`
  closedService = serve(makeTestApp())
  listedService = serve(makeTestApp({ env: { CORS_ALLOWED_ORIGINS: pageOrigin } }))
  freeKey = (await issueKey(closedService.t.deps.accounts, { plan: 'free', now: new Date(closedService.t.clock.now()) })).key
  pageHtml = `<!doctype html><html lang="en"><title>hostile page</title><body><pre id="out">pending</pre><script>${script({ closed: `http://127.0.0.1:${closedService.server.port}`, listed: `http://127.0.0.1:${listedService.server.port}` }, freeKey)}</script></body></html>`
}, SLOW_SETUP_MS)

let pageHtml = ''

afterAll(() => {
  page.stop(true)
  closedService.server.stop(true)
  listedService.server.stop(true)
})

test('a page on another origin reads public routes, but cannot mint keys or tokens through its visitor unless its origin is listed', async () => {
  const profile = tempDir('openbell-test-chromium-')
  const chromium = Bun.spawn(['chromium', '--headless', '--no-sandbox', '--disable-gpu', '--disable-breakpad', '--no-first-run', `--user-data-dir=${join(profile, 'profile')}`, '--virtual-time-budget=10000', '--dump-dom', `http://127.0.0.1:${page.port}/`], { stdout: 'pipe', stderr: 'ignore' })
  const timer = setTimeout(() => chromium.kill('SIGKILL'), 90_000)
  const dom = await new Response(chromium.stdout).text()
  await chromium.exited
  clearTimeout(timer)
  const results = Object.fromEntries(dom.match(/<pre id="out">(.*?)<\/pre>/)![1]!.split(' ').map((entry) => entry.split('=') as [string, string]))
  expect(results).toEqual({
    // Public reads: readable from any origin (the witness answers its 200 page).
    'closed.schedule': '200',
    'closed.witness': '200',
    'listed.schedule': '200',
    'listed.witness': '200',
    // Not listed: the preflight has no Access-Control-Allow-Origin, so the JSON POST is never
    // sent; the text/plain POST and the form skip the preflight, reach the service, are refused
    // (403, unreadable to the page).
    'closed.instant_json': 'blocked',
    'closed.instant_simple': 'blocked',
    'closed.token_form': 'blocked',
    // Listed: the page mints and reads its key; the token needs a key of that service (this one is
    // unknown there: 401, readable).
    'listed.instant_json': '200:key',
    'listed.instant_simple': '200:key',
    'listed.token_form': '401',
  })
  const rows = (t: TestApp, sql: string) => (t.db.query(sql).get() as { n: number }).n
  // Nothing was issued or counted by the closed service; the refused requests did reach it.
  expect([rows(closedService.t, 'SELECT count(*) AS n FROM api_keys'), rows(closedService.t, 'SELECT count(*) AS n FROM address_limits'), rows(closedService.t, 'SELECT count(*) AS n FROM oauth_tokens')]).toEqual([1, 0, 0])
  expect(closedService.t.log.lines.filter((line) => line.method === 'POST' && (line.path === '/v5/keys/instant' || line.path === '/oauth/token')).map((line) => `${line.path} ${line.status}`).sort()).toEqual(['/oauth/token 403', '/v5/keys/instant 403'])
  expect(rows(listedService.t, "SELECT count(*) AS n FROM api_keys WHERE agent_id LIKE 'listed-%'")).toBe(2)
}, 120_000)
