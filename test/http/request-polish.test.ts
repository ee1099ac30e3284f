// Small request-handling defects found by an operator and a hostile test (issue 11).
import { describe, expect, test } from 'bun:test'
import { issueKey } from '../../src/accounts/keys'
import { Signer } from '../../src/crypto/signer'
import { makeTestApp, TEST_ADMIN_KEY } from '../helpers/app'
import { clientKey, postJson, submission } from '../helpers/checkpoints'

const auditRows = (harness: ReturnType<typeof makeTestApp>) => harness.deps.audit.flush().then(() => (harness.db.query('SELECT COUNT(*) AS n FROM audit_log').get() as { n: number }).n)

describe('MIC parsing is ASCII only', () => {
  test('the long s (U+017F) does not fold to S: XSEſ is not XSES', async () => {
    const harness = makeTestApp()
    expect((await harness.json('/v5/demo?mic=XSES')).status).toBe(200)
    for (const mic of ['XSE%C5%BF', 'xse%C5%BF', '%EF%BD%98NYS', 'XNY%C3%9F']) {
      const response = await harness.json(`/v5/demo?mic=${mic}`)
      expect(response.status).toBe(400)
      expect(response.body.error).toBe('UNKNOWN_MIC')
    }
    expect((await harness.json('/v1/safe-to-trade/sample?venue=XSE%C5%BF&max_age=30')).body.error).toBe('UNKNOWN_VENUE')
    expect((await harness.json('/v5/batch?mics=XNYS,XSE%C5%BF')).body.error).toBe('UNKNOWN_MIC')
    expect((await harness.json('/v5/demo?mic=xnys')).body.mic).toBe('XNYS')
  })
})

describe('HEAD on signed routes', () => {
  test('HEAD /v5/status answers headers only: no signature, no audit row', async () => {
    const harness = makeTestApp()
    const { key } = await issueKey(harness.deps.accounts, { plan: 'pro', now: new Date(harness.clock.now()) })
    // Every signature goes through signText (signFields and the receipt builder call it).
    const signs = harness.deps.signer.signText.bind(harness.deps.signer)
    let signed = 0
    harness.deps.signer.signText = ((...args: Parameters<typeof signs>) => {
      signed++
      return signs(...args)
    }) as typeof signs
    const before = await auditRows(harness)
    for (const path of ['/v5/status?mic=XNYS', '/v5/batch?mics=XNYS,XLON', '/v5/status/realtime?mic=XNYS']) {
      const head = await harness.request(path, { method: 'HEAD', headers: { 'x-oracle-key': key } })
      expect(head.status).toBe(200)
      expect(head.headers.get('content-type')).toContain('application/json')
      expect(await head.text()).toBe('')
    }
    expect(signed).toBe(0)
    expect(await auditRows(harness)).toBe(before)
    // The GET still signs and audits.
    expect((await harness.request('/v5/status?mic=XNYS', { headers: { 'x-oracle-key': key } })).status).toBe(200)
    expect(signed).toBe(1)
    expect(await auditRows(harness)).toBe(before + 1)
  })

  test('HEAD gets the status a GET would: 402 without a key, 400 for an unknown MIC', async () => {
    const harness = makeTestApp()
    const { key } = await issueKey(harness.deps.accounts, { plan: 'pro', now: new Date(harness.clock.now()) })
    expect((await harness.request('/v5/status', { method: 'HEAD' })).status).toBe(402)
    expect((await harness.request('/v5/status?mic=MOON', { method: 'HEAD', headers: { 'x-oracle-key': key } })).status).toBe(400)
  })
})

describe('logs and wording', () => {
  test('requests with the admin key are logged as key_class admin (never the key)', async () => {
    const harness = makeTestApp()
    await harness.request('/v5/admin/overrides', { headers: { 'x-oracle-key': TEST_ADMIN_KEY } })
    await Bun.sleep(5)
    const line = harness.log.lines.find((entry) => entry.msg === 'request' && entry.path === '/v5/admin/overrides')
    expect(line).toMatchObject({ status: 200, key_class: 'admin' })
    expect(JSON.stringify(harness.log.lines)).not.toContain(TEST_ADMIN_KEY)
  })

  test('with the signer offline the witness 503 says the signer is offline, not the store', async () => {
    const harness = makeTestApp({ signer: Signer.offline('key file unreadable') })
    const response = await harness.json('/v1/witness/checkpoints', postJson(JSON.stringify(submission(clientKey())), { 'cf-connecting-ip': '192.0.2.1' }))
    expect(response.status).toBe(503)
    expect(response.body.error).toBe('witness_unavailable')
    expect(response.body.message).toContain('signer is offline')
    expect(response.body.message).not.toContain('store is unavailable')
  })
})

describe('every answer says nosniff', () => {
  test('each route of the app, and errors, carry X-Content-Type-Options: nosniff', async () => {
    const harness = makeTestApp()
    const missing: string[] = []
    for (const route of harness.app.routes) {
      if (route.method === 'WS' || route.path.includes('*')) continue
      const path = route.path.replace(/:[^/]+/g, 'XNYS')
      // Streams are opened and closed at once; only their headers matter here.
      const controller = new AbortController()
      const response = await harness.request(path, { method: route.method, signal: controller.signal, headers: { 'content-type': 'application/json' }, ...(route.method === 'GET' || route.method === 'HEAD' ? {} : { body: '{}' }) })
      if (response.headers.get('x-content-type-options') !== 'nosniff') missing.push(`${route.method} ${route.path} (${response.status})`)
      controller.abort()
      await response.body?.cancel().catch(() => {})
    }
    expect(missing).toEqual([])
  })
})
