// /verify in a real browser: receipts, witness receipts and signed daily digests are verified by
// the page's script (the verifier package, @openbell/verify) against /v5/keys, an inclusion proof
// against the day's signed root, and a C2SP tlog-proof under /log/policy. Every request the page makes is recorded: none goes to /v5/verify (nor
// to another origin), and a changed member is caught all the same.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { issueKey } from '../../src/accounts/keys'
import { makeTestApp, type TestApp } from '../helpers/app'
import { chromiumAvailable, CHROMIUM, launchBrowser, recordedPage, type RecordedPage, type RunningBrowser } from './browser'
import { clientKey, entryHash, submission } from '../helpers/checkpoints'
import { SLOW_SETUP_MS } from '../helpers/process'

let harness: TestApp
let server: ReturnType<TestApp['app']['listen']>
let base: string
let running: RunningBrowser
let recorded: RecordedPage
let apiKey: string

beforeAll(async () => {
  if (!chromiumAvailable) throw new Error(`Chromium is not installed at ${CHROMIUM}: apt-get install -y chromium (bun run test does when it can)`)
  // The service's clock starts at the real now, so its receipts are fresh for the browser; the
  // inclusion test moves it past midnight to seal the day.
  harness = makeTestApp({ now: new Date().toISOString() })
  await harness.deps.auditTrail.sealer.startedOn()
  apiKey = (await issueKey(harness.deps.accounts, { plan: 'pro', now: new Date(harness.clock.now()) })).key
  server = harness.app.listen({ port: 0, hostname: '127.0.0.1' })
  base = `http://127.0.0.1:${server.server!.port}`
  running = await launchBrowser()
  recorded = await recordedPage(running.browser, base)
  await recorded.page.goto(`${base}/verify`)
  await recorded.page.waitForSelector('#verify-button:not([disabled])')
}, SLOW_SETUP_MS)

afterAll(async () => {
  await recorded?.context.close().catch(() => {})
  await running?.close()
  await server?.stop(true)
})

const get = async (path: string) => (await harness.json(path, { headers: { 'x-oracle-key': apiKey } })).body

/** Pastes `value` (or text) and returns every verdict shown. */
async function verify(page: Page, value: unknown): Promise<{ valid: string; reason: string; text: string }[]> {
  await page.fill('#receipt-input', typeof value === 'string' ? value : JSON.stringify(value, null, 2))
  await page.evaluate(() => document.getElementById('verify-output')!.replaceChildren())
  await page.click('#verify-button')
  await page.waitForSelector('#verify-output [data-valid]')
  return page.$$eval('#verify-output [data-valid]', (nodes) => nodes.map((node) => ({ valid: (node as HTMLElement).dataset.valid!, reason: (node as HTMLElement).dataset.reason!, text: node.textContent ?? '' })))
}

async function checkInclusion(page: Page): Promise<{ outcome: string; text: string }> {
  await page.evaluate(() => document.getElementById('proof-output')!.replaceChildren())
  await page.click('#proof-button')
  await page.waitForSelector('#proof-output [data-outcome]')
  return page.$eval('#proof-output [data-outcome]', (node) => ({ outcome: (node as HTMLElement).dataset.outcome!, text: node.textContent ?? '' }))
}

describe('verifying in the browser', () => {
  test('a fresh live receipt is valid, with its signed members, key and expiry shown; one changed member makes it invalid', async () => {
    const { page } = recorded
    const receipt = await get('/v5/status?mic=XNYS')
    expect(receipt.signature).toMatch(/^[0-9a-f]{128}$/)
    const [valid] = await verify(page, receipt)
    expect(valid).toMatchObject({ valid: 'true', reason: 'SIGNATURE_VALID' })
    expect(valid!.text).toContain('key_2026_v1')
    expect(valid!.text).toContain(receipt.expires_at)
    const members = await page.$$eval('#verify-output table tbody th', (cells) => cells.map((cell) => cell.textContent))
    expect(members).toEqual(['expires_at', 'halt_detection', 'issued_at', 'issuer', 'mic', 'public_key_id', 'receipt_id', 'receipt_mode', 'schema_version', 'source', 'status'])

    for (const [member, value] of [
      ['status', receipt.status === 'OPEN' ? 'CLOSED' : 'OPEN'],
      ['mic', 'XLON'],
      ['expires_at', new Date(Date.parse(receipt.expires_at) + 3_600_000).toISOString()],
    ] as const) {
      const [changed] = await verify(page, { ...receipt, [member]: value })
      expect({ member, ...changed }).toMatchObject({ member, valid: 'false', reason: 'INVALID_SIGNATURE' })
    }
    // Not a receipt at all, and not JSON.
    expect((await verify(page, { hello: 'world' }))[0]).toMatchObject({ valid: 'false', reason: 'MALFORMED_RECEIPT' })
    expect((await verify(page, '{"receipt_id": '))[0]).toMatchObject({ valid: 'false', reason: 'NOT_JSON' })
    // A receipt naming a key the service does not publish.
    expect((await verify(page, { ...receipt, public_key_id: 'key_1999_v9' }))[0]).toMatchObject({ valid: 'false', reason: 'UNKNOWN_KEY' })
  }, 30_000)

  test('with the browser offline once the keys are loaded, a real receipt still verifies and a changed one is still refused', async () => {
    const { page, context, requests } = recorded
    const receipt = await get('/v5/status?mic=XLON')
    const before = requests.length
    await context.setOffline(true)
    try {
      expect((await verify(page, receipt))[0]).toMatchObject({ valid: 'true', reason: 'SIGNATURE_VALID' })
      expect((await verify(page, { ...receipt, issued_at: new Date(Date.parse(receipt.issued_at) + 1000).toISOString() }))[0]).toMatchObject({ valid: 'false', reason: 'INVALID_SIGNATURE' })
    } finally {
      await context.setOffline(false)
    }
    // Nothing was even attempted: the verdicts are the page's own.
    expect(requests.slice(before)).toEqual([])
  }, 30_000)

  test('a demo receipt, a health receipt and an override receipt (reason signed) verify; an unsigned wrapper member is listed as such', async () => {
    const { page } = recorded
    expect((await verify(page, await get('/v5/demo?mic=XJPX')))[0]).toMatchObject({ valid: 'true', reason: 'SIGNATURE_VALID' })
    const health = await get('/v5/health')
    const [healthVerdict] = await verify(page, health)
    expect(healthVerdict).toMatchObject({ valid: 'true' })
    expect(healthVerdict!.text).toContain('Not covered by the signature')
    await harness.deps.overrides.set({ mic: 'XPAR', status: 'HALTED', reason: 'test halt', expires_at: new Date(harness.clock.now() + 600_000).toISOString() }, 'test')
    const halted = await get('/v5/status?mic=XPAR')
    expect(halted.reason).toBe('test halt')
    expect((await verify(page, halted))[0]).toMatchObject({ valid: 'true' })
    expect((await verify(page, { ...halted, reason: 'nothing to see' }))[0]).toMatchObject({ valid: 'false', reason: 'INVALID_SIGNATURE' })
    await harness.deps.overrides.clear('XPAR', 'test')
  }, 30_000)

  test('witness receipts: one receipt, and a whole /v1/witness/checkpoints answer; a changed count is invalid', async () => {
    const { page } = recorded
    const key = clientKey()
    for (let count = 1; count <= 3; count++) {
      const response = await harness.json('/v1/witness/checkpoints', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(submission(key, { session_id: 'browser-run', count, last_entry_hash: entryHash(count) })) })
      expect(response.status).toBe(201)
    }
    const listing = (await harness.json(`/v1/witness/checkpoints?kid=${key.kid}&session_id=browser-run`)).body
    const one = listing.receipts[1]
    expect((await verify(page, one))[0]).toMatchObject({ valid: 'true', reason: 'SIGNATURE_VALID' })
    expect((await verify(page, { ...one, count: '20' }))[0]).toMatchObject({ valid: 'false', reason: 'INVALID_SIGNATURE' })
    expect((await verify(page, listing)).map((verdict) => verdict.valid)).toEqual(['true', 'true', 'true'])
  }, 30_000)

  test("inclusion: today's proof is consistent but not signed yet; after sealing, the receipt is in the signed root, the signed digest verifies, and a changed root does not", async () => {
    const { page } = recorded
    const receipts = []
    for (let i = 0; i < 5; i++) receipts.push(await get(`/v5/status?mic=${i % 2 ? 'XLON' : 'XNYS'}`))
    const target = receipts[3]
    await page.fill('#receipt-input', JSON.stringify(target))
    await page.fill('#proof-input', '')
    expect(await checkInclusion(page)).toMatchObject({ outcome: 'pending' })

    const day = new Date(harness.clock.now()).toISOString().slice(0, 10)
    harness.clock.advance(86_400_000)
    harness.clock.set(`${new Date(harness.clock.now()).toISOString().slice(0, 10)}T00:00:30.000Z`)
    expect(await harness.deps.auditTrail.sealer.tick()).toContain(day)
    const included = await checkInclusion(page)
    expect(included.outcome).toBe('included')
    expect(included.text).toContain(`in the signed digest of ${day}`)

    // The day's signed digest itself, pasted whole (the answer of /v5/audit/digest) or tampered.
    const digest = (await harness.json(`/v5/audit/digest?date=${day}`)).body
    const both = await verify(page, digest)
    expect(both.map(({ valid, reason }) => ({ valid, reason }))).toEqual([{ valid: 'true', reason: 'SIGNATURE_VALID' }, { valid: 'true', reason: 'SIGNATURE_VALID' }])
    expect(both[1]!.text).toContain("daily digest's transparency log size")
    expect((await verify(page, { ...digest.log_receipt, log_tree_size: '1000000' }))[0]).toMatchObject({ valid: 'false', reason: 'INVALID_SIGNATURE' })
    // A /v5/audit/chain answer: each digest's signed objects.
    const chain = (await harness.json('/v5/audit/chain')).body
    expect((await verify(page, chain)).map(({ valid }) => valid)).toEqual(chain.digests.flatMap(() => ['true', 'true']))
    expect((await verify(page, { ...digest.receipt, merkle_root: 'ab'.repeat(32) }))[0]).toMatchObject({ valid: 'false', reason: 'INVALID_SIGNATURE' })

    // A pasted proof of another receipt, or with a changed path, proves nothing.
    await page.fill('#receipt-input', JSON.stringify(target))
    const proof = (await harness.json(`/v5/audit/proof?receipt_id=${target.receipt_id}`)).body
    await page.fill('#proof-input', JSON.stringify({ ...proof, audit_path: [...proof.audit_path.slice(0, -1), 'cd'.repeat(32)] }))
    expect(await checkInclusion(page)).toMatchObject({ outcome: 'failed' })
    await page.fill('#proof-input', JSON.stringify(proof))
    expect((await checkInclusion(page)).outcome).toBe('included')
    // A demo receipt is never logged: no proof (said without asking the service).
    await page.fill('#receipt-input', JSON.stringify(await get('/v5/demo')))
    await page.fill('#proof-input', '')
    const demo = await checkInclusion(page)
    expect(demo.outcome).toBe('failed')
    expect(demo.text).toContain('never logged')
  }, 30_000)

  test("a receipt's C2SP tlog-proof pasted: logged and witnessed under /log/policy; an altered proof is not", async () => {
    const { page } = recorded
    const text = await (await harness.request('/v5/status?mic=XNYS', { headers: { 'x-oracle-key': apiKey } })).text()
    await get('/v5/status?mic=XLON')
    await harness.deps.transparency.integrator.tick()
    const proof = await (await harness.request(`/log/proof/receipt/${JSON.parse(text).receipt_id}`)).text()
    await page.fill('#receipt-input', text)
    await page.fill('#proof-input', proof)
    const included = await checkInclusion(page)
    expect(included.outcome).toBe('included')
    expect(included.text).toContain('Logged and witnessed')
    expect(included.text).toContain('#ml-dsa-44')
    const lines = proof.split('\n')
    lines[3] = lines[3]!.startsWith('A') ? `B${lines[3]!.slice(1)}` : `A${lines[3]!.slice(1)}`
    await page.fill('#proof-input', lines.join('\n'))
    const altered = await checkInclusion(page)
    expect(altered.outcome).toBe('failed')
    expect(altered.text).toContain('inclusion_failed')
  }, 60_000)

  test('the page made no request to /v5/verify and none outside the origin, and logged no error', () => {
    const paths = recorded.requests.map((url) => new URL(url).pathname)
    expect(paths.filter((path) => path.startsWith('/v5/verify'))).toEqual([])
    expect(recorded.requests.filter((url) => !url.startsWith(`${base}/`))).toEqual([])
    // What it did fetch: the page, its assets, the keys, and proofs and digests for the inclusion checks.
    expect(new Set(paths)).toEqual(new Set(['/verify', '/assets/board.css', '/assets/board.js', '/favicon.svg', '/v5/keys', '/v5/audit/proof', '/v5/audit/digest', '/log/policy']))
    expect(recorded.errors).toEqual([])
  })
})
