// The webhook registration surfaces with the request-forgery guard ON (the default): refusals,
// validation, plan limits, ownership, listing without secrets, health before any cycle.
import { beforeAll, describe, expect, test } from 'bun:test'
import { makeTestApp, type TestApp } from '../helpers/app'
import { issueKey } from '../../src/accounts/keys'
import { checkTarget } from '../../src/delivery/webhooks/ssrf'
import { Signer } from '../../src/crypto/signer'

let t: TestApp
const keys: Record<string, string> = {}

beforeAll(async () => {
  // The first app of a file compiles every venue's calendar: seconds on a loaded machine.
  t = makeTestApp()
  expect(t.config.delivery.allowPrivateTargets).toBe(false)
  const now = new Date(t.clock.now())
  for (const plan of ['free', 'sandbox', 'builder', 'pro'] as const) keys[plan] = (await issueKey(t.deps.accounts, { plan, now })).key
  keys.builder2 = (await issueKey(t.deps.accounts, { plan: 'builder', now })).key
}, 60_000)

const subscribe = (key: string | null, body: unknown) =>
  t.json('/v5/webhooks/subscribe', { method: 'POST', headers: { 'content-type': 'application/json', ...(key ? { 'x-oracle-key': key } : {}) }, body: typeof body === 'string' ? body : JSON.stringify(body) })

const stored = () => (t.db.query('SELECT count(*) AS n FROM webhooks').get() as { n: number }).n

// A public address that is never contacted at subscribe time (TEST-NET addresses are refused, so
// use a literal public address: only the address is checked, nothing is sent).
const PUBLIC_URL = 'https://93.184.215.14/hook'

describe('POST /v5/webhooks/subscribe: refusals change nothing', () => {
  test('401 without a key, 403 unknown key, 402 for free and sandbox keys', async () => {
    expect((await subscribe(null, { url: PUBLIC_URL, mics: ['XNYS'] })).status).toBe(401)
    expect((await subscribe(`svc_live_${'1'.repeat(64)}`, { url: PUBLIC_URL, mics: ['XNYS'] })).status).toBe(403)
    for (const plan of ['free', 'sandbox']) {
      const answer = await subscribe(keys[plan]!, { url: PUBLIC_URL, mics: ['XNYS'] })
      expect(answer.status).toBe(402)
      expect(answer.body.error).toBe('PLAN_REQUIRED')
    }
    expect(stored()).toBe(0)
  })

  test('request-forgery guard: loopback, private, link-local, metadata and names resolving to loopback are 400', async () => {
    const targets = ['https://127.0.0.1/hook', 'https://10.1.2.3/hook', 'https://169.254.169.254/latest/meta-data/', 'https://[::1]/hook', 'https://localhost/hook', 'https://192.168.1.10/', 'https://[fd00::1]/', 'https://[::ffff:127.0.0.1]/', 'https://[::ffff:0:127.0.0.1]/', 'https://[64:ff9b::a00:1]/', 'https://2130706433/', 'https://0.0.0.0/']
    for (const url of targets) {
      const answer = await subscribe(keys.pro!, { url, mics: ['XNYS'] })
      expect({ url, status: answer.status, error: answer.body.error }).toEqual({ url, status: 400, error: 'WEBHOOK_TARGET_FORBIDDEN' })
    }
    expect(stored()).toBe(0)
  })

  test('a host name is checked by what it resolves to', async () => {
    const fakeResolve = (async (host: string) => (host === 'internal.example' ? [{ address: '10.0.0.5', family: 4 }] : [{ address: '93.184.215.14', family: 4 }])) as never
    expect(await checkTarget('internal.example', false, fakeResolve)).toEqual({ ok: false, kind: 'address', reason: 'internal.example resolves to 10.0.0.5: private-use (10.0.0.0/8) addresses are not allowed' })
    expect((await checkTarget('public.example', false, fakeResolve)).ok).toBe(true)
    expect((await checkTarget('internal.example', true, fakeResolve)).ok).toBe(true)
  })

  test('validation: https only, known MICs (not silently dropped), known events, JSON object', async () => {
    const cases: [unknown, string][] = [
      [{ url: 'http://93.184.215.14/hook', mics: ['XNYS'] }, 'HTTPS_REQUIRED'],
      [{ url: 'not a url', mics: ['XNYS'] }, 'INVALID_URL'],
      [{ url: 'https://user:pw@93.184.215.14/', mics: ['XNYS'] }, 'INVALID_URL'],
      [{ mics: ['XNYS'] }, 'URL_REQUIRED'],
      [{ url: PUBLIC_URL, mics: ['XNYS', 'XXXX'] }, 'UNKNOWN_MIC'],
      [{ url: PUBLIC_URL, mics: [] }, 'MICS_REQUIRED'],
      [{ url: PUBLIC_URL }, 'MICS_REQUIRED'],
      [{ url: PUBLIC_URL, mics: ['XNYS'], events: ['status_change', 'price_tick'] }, 'UNKNOWN_EVENT'],
      [{ url: PUBLIC_URL, mics: ['XNYS'], events: [] }, 'INVALID_EVENTS'],
      ['{"url":', 'BAD_REQUEST'],
      [[PUBLIC_URL], 'BAD_REQUEST'],
    ]
    for (const [body, code] of cases) {
      const answer = await subscribe(keys.pro!, body)
      expect({ body, status: answer.status, error: answer.body.error }).toEqual({ body, status: 400, error: code })
    }
    const unknown = await subscribe(keys.pro!, { url: PUBLIC_URL, mics: ['XNYS', 'XXXX'] })
    expect(unknown.body.supported).toContain('XNYS')
    // The spec's error table keeps `supported` for MICs; the event list has its own name.
    const event = await subscribe(keys.pro!, { url: PUBLIC_URL, mics: ['XNYS'], events: ['price_tick'] })
    expect(event.body.supported_events).toEqual(['status_change', 'calendar_change'])
    expect(event.body.supported).toBeUndefined()
    expect(stored()).toBe(0)
  })

  test('events: status_change (the default), calendar_change, or both, duplicates removed', async () => {
    for (const [events, expected] of [[['calendar_change'], ['calendar_change']], [['calendar_change', 'status_change', 'calendar_change'], ['calendar_change', 'status_change']]] as const) {
      const answer = await subscribe(keys.pro!, { url: PUBLIC_URL, mics: ['XNYS'], events })
      expect(answer.status).toBe(200)
      expect(answer.body.events).toEqual(expected)
      expect((await t.request(`/v5/webhooks/${answer.body.webhook_id}`, { method: 'DELETE', headers: { 'x-oracle-key': keys.pro! } })).status).toBe(204)
    }
  })
})

describe('webhook subscriptions: create, list, delete', () => {
  let created: Record<string, any>

  test('200 with webhook_id, its legacy alias, defaults and the secret shown once', async () => {
    const answer = await subscribe(keys.builder!, { url: PUBLIC_URL, mics: ['xnys', 'XLON', 'XNYS'] })
    expect(answer.status).toBe(200)
    created = answer.body
    expect(Object.keys(created).sort()).toEqual(['created_at', 'events', 'mics', 'secret', 'status', 'subscription_id', 'url', 'webhook_id'])
    expect(created.subscription_id).toBe(created.webhook_id)
    expect(created.mics).toEqual(['XNYS', 'XLON'])
    expect(created.events).toEqual(['status_change'])
    expect(created.status).toBe('active')
    expect(created.url).toBe(PUBLIC_URL)
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    expect(Date.parse(created.created_at)).toBe(t.clock.now())
  })

  test('GET /v5/webhooks lists the key’s own subscriptions with count and no secret', async () => {
    const mine = await t.json('/v5/webhooks', { headers: { 'x-oracle-key': keys.builder! } })
    expect(mine.status).toBe(200)
    expect(mine.body.count).toBe(1)
    expect(mine.body.webhooks[0]).toEqual({ webhook_id: created.webhook_id, url: PUBLIC_URL, mics: ['XNYS', 'XLON'], events: ['status_change'], created_at: created.created_at, status: 'active' })
    expect(JSON.stringify(mine.body)).not.toContain(created.secret)
    const other = await t.json('/v5/webhooks', { headers: { 'x-oracle-key': keys.builder2! } })
    expect(other.body).toEqual({ webhooks: [], count: 0 })
    expect((await t.json('/v5/webhooks')).status).toBe(401)
  })

  test('the plan count: builder 5, the sixth is 403 WEBHOOK_LIMIT_REACHED and not stored', async () => {
    for (let i = 0; i < 4; i++) expect((await subscribe(keys.builder!, { url: PUBLIC_URL, mics: ['XNYS'] })).status).toBe(200)
    const before = stored()
    const sixth = await subscribe(keys.builder!, { url: PUBLIC_URL, mics: ['XNYS'] })
    expect(sixth.status).toBe(403)
    expect(sixth.body.error).toBe('WEBHOOK_LIMIT_REACHED')
    expect(stored()).toBe(before)
  })

  test('DELETE: 404 unknown, 403 not owned, 204 owned; the count goes down and a place frees up', async () => {
    const del = (id: string, key: string) => t.request(`/v5/webhooks/${id}`, { method: 'DELETE', headers: { 'x-oracle-key': key } })
    expect((await del('00000000-0000-4000-8000-000000000000', keys.builder!)).status).toBe(404)
    expect((await del('nope', keys.builder!)).status).toBe(404)
    const foreign = await del(created.webhook_id, keys.builder2!)
    expect(foreign.status).toBe(403)
    expect(((await foreign.json()) as { error: string }).error).toBe('WEBHOOK_NOT_OWNED')
    const gone = await del(created.webhook_id, keys.builder!)
    expect(gone.status).toBe(204)
    expect(await gone.text()).toBe('')
    expect((await t.json('/v5/webhooks', { headers: { 'x-oracle-key': keys.builder! } })).body.count).toBe(4)
    expect(t.db.query('SELECT count(*) AS n FROM webhook_mics WHERE webhook_id = ?').get(created.webhook_id)).toEqual({ n: 0 })
    expect((await subscribe(keys.builder!, { url: PUBLIC_URL, mics: ['XNYS'] })).status).toBe(200)
  })

  test('POST /v5/webhooks/test: 404 unknown, 403 not owned; a refused target is reported, not sent', async () => {
    const mine = (await t.json('/v5/webhooks', { headers: { 'x-oracle-key': keys.builder! } })).body.webhooks[0].webhook_id
    expect((await t.json('/v5/webhooks/test/00000000-0000-4000-8000-000000000000', { method: 'POST', headers: { 'x-oracle-key': keys.builder! } })).status).toBe(404)
    expect((await t.json(`/v5/webhooks/test/${mine}`, { method: 'POST', headers: { 'x-oracle-key': keys.builder2! } })).status).toBe(403)
    // Re-pointing after subscribing is caught at delivery: the stored URL now names a loopback address.
    t.db.query('UPDATE webhooks SET url = ? WHERE id = ?').run('https://127.0.0.1:9999/hook', mine)
    const answer = await t.json(`/v5/webhooks/test/${mine}`, { method: 'POST', headers: { 'x-oracle-key': keys.builder! } })
    expect(answer.status).toBe(200)
    // Spec 2.7 test result, plus `error` (why no 2xx came) on a failed attempt only.
    expect(Object.keys(answer.body).sort()).toEqual(['delivered', 'error', 'payload_sent', 'status_code'])
    expect(answer.body.delivered).toBe(false)
    expect(answer.body.status_code).toBe(0)
    // Only the category: the guard's reason (which names the address) is for the operator's log.
    expect(answer.body.error).toBe('target_forbidden')
    expect(t.log.lines.some((line) => line.msg === 'webhook test delivery failed' && String(line.error).includes('127.0.0.1: loopback'))).toBe(true)
    expect(answer.body.payload_sent.webhook_id).toBe(mine)
  })
})

describe('GET /v5/webhooks/health', () => {
  test('public; unknown before the dispatcher has run', async () => {
    const answer = await t.json('/v5/webhooks/health')
    expect(answer.status).toBe(200)
    expect(answer.body).toEqual({ status: 'unknown', next_alarm: answer.body.next_alarm, checked_at: answer.body.checked_at })
    expect(Date.parse(answer.body.checked_at)).toBe(t.clock.now())
  })

  test('the last cycle record, read without running a cycle; unknown once it is older than three cycles', async () => {
    await t.deps.delivery.dispatcher.cycle()
    const cycles = t.deps.delivery.dispatcher.cycles
    const fresh = await t.json('/v5/webhooks/health')
    expect(Object.keys(fresh.body).sort()).toEqual(['checked_at', 'next_alarm', 'status'])
    expect(fresh.body.status).toBe('ok')
    expect(Date.parse(fresh.body.checked_at)).toBe(t.clock.now())
    expect(Date.parse(fresh.body.next_alarm)).toBeGreaterThan(t.clock.now())
    expect(Date.parse(fresh.body.next_alarm)).toBeLessThanOrEqual(t.clock.now() + t.config.delivery.dispatchIntervalSeconds * 1000)
    t.clock.advance(3 * t.config.delivery.dispatchIntervalSeconds * 1000 + 1)
    const stale = await t.json('/v5/webhooks/health')
    expect(stale.body.status).toBe('unknown')
    expect(stale.body.checked_at).toBe(fresh.body.checked_at)
    expect(t.deps.delivery.dispatcher.cycles).toBe(cycles)
  })
})

describe('dispatcher: housekeeping', () => {
  test('delivered rows older than 7 days and dead letters older than 30 days are removed by a cycle', async () => {
    const owner = (await t.json('/v5/webhooks', { headers: { 'x-oracle-key': keys.builder! } })).body.webhooks[0].webhook_id
    const day = 86_400_000
    const insert = t.db.query(`INSERT INTO webhook_deliveries (id, webhook_id, mic, body, state, attempts, next_attempt_at, created_at, updated_at) VALUES (?, ?, 'XNYS', '{}', ?, 1, 0, ?, ?)`)
    const rows: [string, string, number][] = [['msg_old_delivered', 'delivered', 8], ['msg_new_delivered', 'delivered', 6], ['msg_old_dead', 'dead', 31], ['msg_new_dead', 'dead', 29], ['msg_old_queued', 'queued', 40]]
    for (const [id, state, age] of rows) {
      const at = new Date(t.clock.now() - age * day).toISOString()
      insert.run(id, owner, state, at, at)
    }
    // Queued rows are never pruned; make that one not due so the cycle leaves it alone.
    t.db.query(`UPDATE webhook_deliveries SET next_attempt_at = ? WHERE id = 'msg_old_queued'`).run(t.clock.now() + 3_600_000)
    await t.deps.delivery.dispatcher.cycle()
    const left = (t.db.query('SELECT id FROM webhook_deliveries ORDER BY id').all() as { id: string }[]).map((row) => row.id)
    expect(left).toEqual(['msg_new_dead', 'msg_new_delivered', 'msg_old_queued'])
  })
})

describe('dispatcher: first sight', () => {
  test('a MIC seen for the first time stores a baseline and delivers nothing', async () => {
    const owner = (await t.json('/v5/webhooks', { headers: { 'x-oracle-key': keys.builder! } })).body.webhooks[0].webhook_id
    // A subscription written without the subscribe route's baseline (as after an upgrade).
    t.db.query('INSERT INTO webhook_mics (mic, webhook_id) VALUES (?, ?)').run('XKRX', owner)
    expect(await t.deps.transactor.run(() => t.deps.delivery.queue.state('XKRX'))).toBeNull()
    await t.deps.delivery.dispatcher.cycle()
    expect(await t.deps.transactor.run(() => t.deps.delivery.queue.state('XKRX'))).toMatchObject({ mic: 'XKRX' })
    expect(t.db.query(`SELECT count(*) AS n FROM webhook_deliveries WHERE mic = 'XKRX'`).get()).toEqual({ n: 0 })
  })
})

describe('dispatcher: signer offline', () => {
  test('a change that cannot be signed queues nothing and reports unknown; the first cycle that can sign queues it', async () => {
    const created = await subscribe(keys.pro!, { url: PUBLIC_URL, mics: ['XSTO'] })
    expect(created.status).toBe(200)
    const deps = t.deps as { signer: Signer }
    const signer = deps.signer
    const queued = () => t.deps.delivery.queue.forWebhook(created.body.webhook_id)
    await t.deps.overrides.set({ mic: 'XSTO', status: 'HALTED', reason: 'venue outage', expires_at: new Date(t.clock.now() + 3_600_000).toISOString() }, 'test')
    deps.signer = Signer.offline('test: key file unreadable')
    try {
      await t.deps.delivery.dispatcher.cycle()
      expect(await queued()).toHaveLength(0)
      expect((await t.deps.transactor.run(() => t.deps.delivery.queue.state('XSTO')))!.status).not.toBe('HALTED')
      expect((await t.json('/v5/webhooks/health')).body.status).toBe('unknown')
    } finally {
      deps.signer = signer
    }
    await t.deps.delivery.dispatcher.cycle()
    expect((await t.json('/v5/webhooks/health')).body.status).toBe('ok')
    expect(await queued()).toHaveLength(1)
    expect(JSON.parse((await queued())[0]!.body)).toMatchObject({ mic: 'XSTO', current_status: 'HALTED', receipt: { status: 'HALTED', source: 'OVERRIDE' } })
    await t.deps.overrides.clear('XSTO', 'test')
  })
})

describe('wrong methods and error bodies', () => {
  test('405 METHOD_NOT_ALLOWED with Allow on every delivery path; nothing is stored', async () => {
    const before = stored()
    const id = '00000000-0000-4000-8000-000000000000'
    const cases: [string, string, string][] = [
      ['GET', '/v5/webhooks/subscribe', 'POST'],
      ['PUT', '/v5/webhooks/subscribe', 'POST'],
      ['POST', '/v5/webhooks', 'GET'],
      ['PUT', `/v5/webhooks/${id}`, 'DELETE'],
      ['PATCH', `/v5/webhooks/${id}`, 'DELETE'],
      ['GET', `/v5/webhooks/test/${id}`, 'POST'],
      ['POST', '/v5/webhooks/health', 'GET'],
      ['POST', '/v5/stream', 'GET'],
      ['DELETE', '/v5/stream', 'GET'],
    ]
    for (const [method, path, allowed] of cases) {
      const answer = await t.json(path, { method, headers: { 'x-oracle-key': keys.pro!, 'content-type': 'application/json' }, body: method === 'GET' ? undefined : JSON.stringify({ url: PUBLIC_URL, mics: ['XNYS'] }) })
      expect({ method, path, status: answer.status, error: answer.body.error }).toEqual({ method, path, status: 405, error: 'METHOD_NOT_ALLOWED' })
      expect(typeof answer.body.message).toBe('string')
      expect(answer.headers.get('allow')!.split(', ')).toContain(allowed)
      expect(answer.headers.get('allow')!.split(', ')).not.toContain(method)
    }
    expect(stored()).toBe(before)
  })

  test('every refusal of the webhook surfaces is the spec error object {error, message?}', async () => {
    const id = '00000000-0000-4000-8000-000000000000'
    const refusals = [
      await subscribe(null, { url: PUBLIC_URL, mics: ['XNYS'] }),
      await subscribe(keys.free!, { url: PUBLIC_URL, mics: ['XNYS'] }),
      await subscribe(keys.pro!, 'x'.repeat(20_000)),
      await t.json('/v5/webhooks', { headers: { 'x-oracle-key': 'nope' } }),
      await t.json(`/v5/webhooks/${id}`, { method: 'DELETE', headers: { 'x-oracle-key': keys.pro! } }),
      await t.json(`/v5/webhooks/test/${id}`, { method: 'POST' }),
      await t.json('/v5/webhooks/test/', { method: 'POST', headers: { 'x-oracle-key': keys.pro! } }),
    ]
    expect(refusals.map((answer) => answer.status)).toEqual([401, 402, 413, 403, 404, 401, 404])
    for (const answer of refusals) {
      expect(answer.headers.get('content-type')).toStartWith('application/json')
      expect(typeof answer.body.error).toBe('string')
      expect(answer.body.error).toMatch(/^[A-Z][A-Z0-9_]+$/)
      // Spec 2.6 fields, plus the numeric limit a 403/413 names (the app's body reader adds limit_bytes).
      for (const field of Object.keys(answer.body)) expect(['error', 'message', 'status', 'supported', 'limit', 'limit_bytes']).toContain(field)
    }
  })
})
