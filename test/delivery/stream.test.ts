// /v5/stream against the listening app with a real EventSource client (the `eventsource` package).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { EventSource } from 'eventsource'
import { makeTestApp, type TestApp } from '../helpers/app'
import { issueKey } from '../../src/accounts/keys'
import { verifyWithRegistry, type KeyRegistry } from '../helpers/verify'
import { rawRequest } from '../helpers/raw-http'

let t: TestApp
let base: string
let stop: () => void
let registry: KeyRegistry
const keys: Record<string, string> = {}

beforeAll(async () => {
  // 2026-03-02 is a Monday; 14:29:58 UTC is two seconds before the XNYS open (09:30 EST).
  t = makeTestApp({ now: '2026-03-02T14:29:58.000Z', env: { STREAM_INTERVAL_SECONDS: '1' } })
  const server = t.app.listen({ port: 0, hostname: '127.0.0.1' })
  stop = () => void server.stop(true)
  base = `http://127.0.0.1:${server.server!.port}`
  registry = (await (await fetch(`${base}/v5/keys`)).json()) as KeyRegistry
  const now = new Date(t.clock.now())
  for (const name of ['pro1', 'pro2', 'pro3', 'pro4', 'pro5']) keys[name] = (await issueKey(t.deps.accounts, { plan: 'pro', now })).key
  keys.free = (await issueKey(t.deps.accounts, { plan: 'free', now })).key
})
afterAll(() => {
  t.deps.delivery.streams.closeAll()
  stop()
})

interface Received {
  type: string
  id: string
  data: Record<string, unknown>
}

/** Opens an EventSource and collects its events. */
function listen(path: string) {
  const events: Received[] = []
  const source = new EventSource(`${base}${path}`)
  const waiters: Array<() => void> = []
  const push = (type: string) => (event: MessageEvent) => {
    events.push({ type, id: event.lastEventId, data: JSON.parse(event.data) })
    for (const waiter of waiters.splice(0)) waiter()
  }
  source.addEventListener('market_status', push('market_status'))
  source.addEventListener('halted', push('halted'))
  source.addEventListener('replaced', push('replaced'))
  const until = async (predicate: (list: Received[]) => boolean, ms = 5000) => {
    const deadline = Date.now() + ms
    while (!predicate(events)) {
      if (Date.now() > deadline) throw new Error(`timed out; got ${JSON.stringify(events.map((e) => e.type))}`)
      await new Promise<void>((resolve) => {
        waiters.push(resolve)
        setTimeout(resolve, 50)
      })
    }
  }
  return { source, events, until }
}

async function settle(predicate: () => boolean, ms = 3000) {
  const deadline = Date.now() + ms
  while (!predicate() && Date.now() < deadline) await Bun.sleep(10)
  return predicate()
}

/** Reads a stream until its first market_status event; the reader stays open. */
async function firstReceipt(response: Response) {
  const reader = response.body!.getReader()
  let text = ''
  while (!text.includes('event: market_status')) text += new TextDecoder().decode((await reader.read()).value)
  return reader
}

/** Whether the server ends the stream within `ms`. */
function endsWithin(reader: { read(): Promise<{ done: boolean }> }, ms: number): Promise<boolean> {
  return Promise.race([
    (async () => {
      for (;;) if ((await reader.read()).done) return true
    })(),
    Bun.sleep(ms).then(() => false),
  ])
}

describe('GET /v5/stream: admission', () => {
  test('401 without a key, 403 with an unknown key, 400 for an unknown MIC; the error object', async () => {
    const missing = await fetch(`${base}/v5/stream`)
    expect(missing.status).toBe(401)
    expect(((await missing.json()) as { error: string }).error).toBe('API_KEY_REQUIRED')
    const invalid = await fetch(`${base}/v5/stream?key=svc_live_${'0'.repeat(64)}`)
    expect(invalid.status).toBe(403)
    const mic = await fetch(`${base}/v5/stream?mic=XXXX&key=${keys.pro1}`)
    expect(mic.status).toBe(400)
    const body = (await mic.json()) as { error: string; supported: string[] }
    expect(body.error).toBe('UNKNOWN_MIC')
    expect(body.supported).toContain('XNYS')
    expect(t.deps.delivery.streams.open).toBe(0)
  })

  test('event-stream headers, CORS for a browser Origin, key in the header too', async () => {
    const controller = new AbortController()
    const response = await fetch(`${base}/v5/stream?mic=XLON`, { headers: { 'x-oracle-key': keys.pro1!, origin: 'https://agent.example' }, signal: controller.signal })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toStartWith('text/event-stream')
    expect(response.headers.get('cache-control')).toBe('no-store')
    expect(response.headers.get('access-control-allow-origin')).toBe('https://agent.example')
    const reader = response.body!.getReader()
    let text = ''
    while (!text.includes('event: market_status')) text += new TextDecoder().decode((await reader.read()).value)
    expect(text).toStartWith('retry: 5000\n\n')
    expect(text).toMatch(/id: [0-9a-f-]{36}\nevent: market_status\ndata: \{/)
    controller.abort()
    expect(await settle(() => t.deps.delivery.streams.open === 0)).toBe(true)
  })

  test('HEAD answers the headers and opens no stream', async () => {
    const head = await fetch(`${base}/v5/stream?mic=XLON&key=${keys.pro1}`, { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(head.headers.get('content-type')).toStartWith('text/event-stream')
    expect(t.deps.delivery.streams.open).toBe(0)
    expect(t.deps.delivery.streams.activeCoordinators).toBe(0)
  })

  test('at the key\'s stream limit (free: 1) a new EventSource replaces the oldest stream, which gets a last `replaced` event', async () => {
    const free = hashOf(keys.free!)
    const first = listen(`/v5/stream?mic=XLON&key=${keys.free}`)
    // What docs/delivery.md asks of a client: close on `replaced` (reconnecting would replace the newer stream).
    first.source.addEventListener('replaced', () => first.source.close())
    await first.until((list) => list.length >= 1)
    // The reconnect of a browser whose old connection the server has not noticed dead yet.
    const second = listen(`/v5/stream?mic=XLON&key=${keys.free}`)
    await second.until((list) => list.some((event) => event.type === 'market_status'))
    await first.until((list) => list.some((event) => event.type === 'replaced'))
    const replaced = first.events.find((event) => event.type === 'replaced')!
    expect(replaced.data).toMatchObject({ error: 'STREAM_REPLACED', limit: 1 })
    expect(String(replaced.data.message)).toContain('close this EventSource')
    expect(first.events.at(-1)!.type).toBe('replaced')
    expect(t.deps.delivery.streams.openFor(free)).toBe(1)
    expect(t.deps.delivery.streams.coordinator('XLON')!.clients.size).toBe(1)
    // The new stream goes on with the next receipts.
    const seen = second.events.length
    await second.until((list) => list.length > seen, 4000)
    second.source.close()
    expect(await settle(() => t.deps.delivery.streams.openFor(free) === 0)).toBe(true)
  })

  test('a connection that holds the place without being noticed dead is the one ended: `replaced`, then the server closes it', async () => {
    const free = hashOf(keys.free!)
    const port = Number(new URL(base).port)
    const held = rawRequest(port, `GET /v5/stream?mic=XSWX&key=${keys.free} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`, [], 8000)
    expect(await settle(() => t.deps.delivery.streams.openFor(free) === 1)).toBe(true)
    const next = listen(`/v5/stream?mic=XSWX&key=${keys.free}`)
    await next.until((list) => list.some((event) => event.type === 'market_status'))
    const old = await held
    expect(old.status).toBe(200)
    expect(old.ms).toBeLessThan(7000) // closed by the server, not by the wait
    expect(old.text).toContain('event: replaced\ndata: {"error":"STREAM_REPLACED"')
    expect(t.deps.delivery.streams.openFor(free)).toBe(1)
    next.source.close()
    expect(await settle(() => t.deps.delivery.streams.openFor(free) === 0)).toBe(true)
  })
})

function hashOf(key: string): string {
  return new Bun.CryptoHasher('sha256').update(key).digest('hex')
}

describe('GET /v5/stream: events', () => {
  test('a verifiable live receipt at once, its id as the event id, then one per interval; logged in the audit log', async () => {
    const stream = listen(`/v5/stream?mic=XLON&key=${keys.pro1}`)
    await stream.until((list) => list.length >= 3, 6000)
    stream.source.close()
    const [first, second] = stream.events
    expect(first!.type).toBe('market_status')
    expect(first!.id).toBe(first!.data.receipt_id as string)
    expect(first!.data.receipt_mode).toBe('live')
    expect(first!.data.mic).toBe('XLON')
    expect(verifyWithRegistry(registry, first!.data)).toBe(true)
    expect(second!.id).not.toBe(first!.id)
    t.deps.audit.commit()
    await Bun.sleep(20)
    const logged = t.db.query('SELECT surface, client_ref FROM audit_log WHERE receipt_id = ?').get(first!.id) as { surface: string; client_ref: string } | null
    expect(logged).toEqual({ surface: '/v5/stream', client_ref: 'stream-coordinator' })
  })

  test('a session boundary is sent at once, not at the next interval', async () => {
    const stream = listen(`/v5/stream?mic=XNYS&key=${keys.pro1}`)
    await stream.until((list) => list.length >= 1)
    expect(stream.events[0]!.data.status).toBe('CLOSED')
    // Slow ticks: only the one-second state check can deliver the opening within the wait.
    t.deps.config.delivery.streamIntervalSeconds = 30
    t.clock.set('2026-03-02T14:30:00.000Z')
    const before = stream.events.length
    const started = Date.now()
    await stream.until((list) => list.length > before && list.at(-1)!.data.status === 'OPEN', 3000)
    expect(Date.now() - started).toBeLessThan(2500)
    stream.source.close()
    t.deps.config.delivery.streamIntervalSeconds = 1
  })

  test('an override to HALTED sends the terminal `halted` event and ends the stream', async () => {
    const controller = new AbortController()
    const response = await fetch(`${base}/v5/stream?mic=XPAR&key=${keys.pro2}`, { signal: controller.signal })
    const reader = response.body!.getReader()
    let text = ''
    while (!text.includes('event: market_status')) text += new TextDecoder().decode((await reader.read()).value)
    await t.deps.overrides.set({ mic: 'XPAR', status: 'HALTED', reason: 'circuit breaker level 1', expires_at: new Date(t.clock.now() + 3_600_000).toISOString() }, 'test')
    for (;;) {
      const chunk = await reader.read()
      if (chunk.done) break
      text += new TextDecoder().decode(chunk.value)
    }
    const halted = text.slice(text.indexOf('event: halted'))
    expect(halted).toMatch(/^event: halted\ndata: /)
    const receipt = JSON.parse(halted.split('\n')[1]!.slice('data: '.length))
    expect(receipt.status).toBe('HALTED')
    expect(receipt.source).toBe('OVERRIDE')
    expect(verifyWithRegistry(registry, receipt)).toBe(true)
    expect(await settle(() => t.deps.delivery.streams.coordinator('XPAR') === undefined)).toBe(true)
    await t.deps.overrides.clear('XPAR', 'test')
  })

  test('a key suspended while streaming loses its streams at the next tick', async () => {
    const { key, account } = await issueKey(t.deps.accounts, { plan: 'builder', now: new Date(t.clock.now()) })
    const controller = new AbortController()
    const response = await fetch(`${base}/v5/stream?mic=XSWX&key=${key}`, { signal: controller.signal })
    const reader = await firstReceipt(response)
    await t.deps.accounts.setStatus(account.id, 'suspended')
    const ended = await endsWithin(reader, 4000)
    expect(ended).toBe(true)
    expect(t.deps.delivery.streams.openFor(account.key_hash)).toBe(0)
    expect((await fetch(`${base}/v5/stream?mic=XSWX&key=${key}`)).status).toBe(402)
  })
})

describe('GET /v5/stream: status changes between ticks', () => {
  test('a suspended key loses its streams within about two seconds, long before the next tick', async () => {
    const slow = makeTestApp({ now: '2026-03-02T14:29:58.000Z', env: { STREAM_INTERVAL_SECONDS: '60' } })
    slow.app.listen({ port: 0, hostname: '127.0.0.1' })
    try {
      const { key, account } = await issueKey(slow.deps.accounts, { plan: 'builder', now: new Date(slow.clock.now()) })
      const response = await fetch(`http://127.0.0.1:${slow.app.server!.port}/v5/stream?mic=XSWX&key=${key}`)
      const reader = await firstReceipt(response)
      await slow.deps.accounts.setStatus(account.id, 'suspended')
      const ended = await endsWithin(reader, 5000)
      expect(ended).toBe(true)
      expect(slow.deps.delivery.streams.openFor(account.key_hash)).toBe(0)
    } finally {
      await slow.app.stop(true)
    }
  })
})

describe('GET /v5/stream: fan-out and release', () => {
  test('1,000 streams on one MIC receive the same receipt per tick: one signature per tick', async () => {
    // The clients run in a child process (Bun's fetch caps one process at 256 open requests).
    const child = Bun.spawn(['bun', new URL('../helpers/stream-clients.ts', import.meta.url).pathname, base, 'XHKG', '1000', '2', [keys.pro1, keys.pro2, keys.pro3, keys.pro4].join(',')], {
      env: { ...process.env, BUN_CONFIG_MAX_HTTP_REQUESTS: '1200' },
      stdout: 'pipe',
      stderr: 'pipe',
    })
    let peak = 0
    let signed = 0
    const watcher = setInterval(() => {
      const coordinator = t.deps.delivery.streams.coordinator('XHKG')
      if (coordinator) {
        peak = Math.max(peak, coordinator.clients.size)
        signed = coordinator.signatures
      }
    }, 20)
    const [out, err, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited])
    clearInterval(watcher)
    expect(err).toBe('')
    expect(code).toBe(0)
    const report = JSON.parse(out) as { connected: number; ids: number; ticks: { id: string; received: number }[] }
    expect(report.connected).toBe(1000)
    expect(peak).toBe(1000)
    // Two ticks reached all 1,000 clients, each as one receipt id: one signature each.
    expect(report.ticks.length).toBeGreaterThanOrEqual(2)
    for (const tick of report.ticks) expect(tick.received).toBe(1000)
    // Every id any client saw was signed by the coordinator: no per-client signing.
    expect(report.ids).toBeLessThanOrEqual(signed)
    expect(await settle(() => t.deps.delivery.streams.open === 0, 5000)).toBe(true)
  }, 60_000)

  test('1,000 connect/disconnect cycles leave no stream, coordinator or per-key count behind', async () => {
    const cycle = async (key: string) => {
      const controller = new AbortController()
      const response = await fetch(`${base}/v5/stream?mic=XASX&key=${key}`, { signal: controller.signal })
      const reader = response.body!.getReader()
      await reader.read()
      controller.abort()
    }
    const heapBefore = process.memoryUsage().heapUsed
    for (let round = 0; round < 20; round++) await Promise.all(Array.from({ length: 50 }, (_, i) => cycle(keys[`pro${1 + (i % 5)}`]!)))
    expect(await settle(() => t.deps.delivery.streams.open === 0, 5000)).toBe(true)
    expect(t.deps.delivery.streams.activeCoordinators).toBe(0)
    for (let i = 1; i <= 5; i++) expect(t.deps.delivery.streams.openFor(hashOf(keys[`pro${i}`]!))).toBe(0)
    Bun.gc(true)
    // Released streams hold nothing: the heap does not grow by anything like 1,000 open streams.
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(32 * 1024 * 1024)
  }, 60_000)
})
