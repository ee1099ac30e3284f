// /v5/stream between receipts: comment heartbeats on their period, and what a stream says while no
// receipt can be signed (signer offline). Raw HTTP reads against the listening app, so the
// comment lines (which EventSource hides) can be seen with their arrival times.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { makeTestApp, type TestApp } from '../helpers/app'
import { issueKey } from '../../src/accounts/keys'
import { Signer } from '../../src/crypto/signer'
import { HEARTBEAT_MS } from '../../src/delivery/stream/coordinator'
import { verifyWithRegistry, type KeyRegistry } from '../helpers/verify'

let t: TestApp
let base: string
let stop: () => void
let key: string
let registry: KeyRegistry

beforeAll(async () => {
  t = makeTestApp({ now: '2026-03-02T15:00:00.000Z', env: { STREAM_INTERVAL_SECONDS: '30' } })
  const server = t.app.listen({ port: 0, hostname: '127.0.0.1' })
  stop = () => void server.stop(true)
  base = `http://127.0.0.1:${server.server!.port}`
  registry = (await (await fetch(`${base}/v5/keys`)).json()) as KeyRegistry
  key = (await issueKey(t.deps.accounts, { plan: 'pro', now: new Date(t.clock.now()) })).key
})
afterAll(() => {
  t.deps.delivery.streams.closeAll()
  stop()
})

interface Frame {
  at: number
  text: string
}

/** Opens a stream and splits what arrives into frames (blank-line separated) with arrival times. */
async function open(mic: string) {
  const controller = new AbortController()
  const response = await fetch(`${base}/v5/stream?mic=${mic}&key=${key}`, { signal: controller.signal })
  expect(response.status).toBe(200)
  const frames: Frame[] = []
  const reader = response.body!.getReader()
  const decoder = new TextDecoder()
  let buffer = ''
  const reading = (async () => {
    try {
      for (;;) {
        const chunk = await reader.read()
        if (chunk.done) return
        buffer += decoder.decode(chunk.value, { stream: true })
        let end: number
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          frames.push({ at: performance.now(), text: buffer.slice(0, end) })
          buffer = buffer.slice(end + 2)
        }
      }
    } catch {
      // aborted by the test
    }
  })()
  const until = async (predicate: () => boolean, ms: number, what: string) => {
    const deadline = Date.now() + ms
    while (!predicate()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; frames: ${JSON.stringify(frames.map((f) => f.text.slice(0, 40)))}`)
      await Bun.sleep(10)
    }
  }
  const close = async () => {
    controller.abort()
    await reading
  }
  return { frames, until, close }
}

const kinds = (frames: Frame[]) => frames.map((frame) => (frame.text.startsWith(':') ? 'heartbeat' : (frame.text.match(/^event: (.*)$/m)?.[1] ?? frame.text.split(':')[0]!)))

describe('heartbeats', () => {
  test('the default period is 15 s, well under the 30 s tick and common 60 s proxy idle timeouts', () => {
    expect(HEARTBEAT_MS).toBe(15_000)
    expect(t.deps.delivery.streams.heartbeatMs).toBe(HEARTBEAT_MS)
  })

  test('a quiet stream gets a comment heartbeat every period between receipts', async () => {
    const period = 200
    t.deps.delivery.streams.heartbeatMs = period
    try {
      const stream = await open('XLON')
      await stream.until(() => kinds(stream.frames).includes('market_status'), 3000, 'the first receipt')
      const opened = performance.now()
      await Bun.sleep(1100)
      await stream.close()
      const elapsed = performance.now() - opened
      const beats = kinds(stream.frames).filter((kind) => kind === 'heartbeat').length
      // One heartbeat per period (counted, not timed one by one: a busy reader may get two in one read).
      expect(beats).toBeGreaterThanOrEqual(Math.floor(elapsed / period) - 2)
      expect(beats).toBeLessThanOrEqual(Math.ceil(elapsed / period) + 1)
      // The ticks are 30 s apart: in this second only the first receipt came, the rest were heartbeats.
      expect(kinds(stream.frames).filter((kind) => kind === 'market_status')).toHaveLength(1)
    } finally {
      t.deps.delivery.streams.heartbeatMs = HEARTBEAT_MS
    }
  })
})

describe('signer offline', () => {
  test('a stream says `unknown` with the CRITICAL_FAILURE error object at each tick, sends no receipt, and resumes when signing is back', async () => {
    const signer = t.deps.signer
    const deps = t.deps as { signer: Signer }
    t.deps.config.delivery.streamIntervalSeconds = 1
    deps.signer = Signer.offline('test: key file unreadable')
    try {
      const stream = await open('XJPX')
      await stream.until(() => kinds(stream.frames).filter((kind) => kind === 'unknown').length >= 2, 4000, 'two unknown events')
      // A stream joining meanwhile is told at once, without waiting for the next tick.
      const joined = await open('XJPX')
      await joined.until(() => kinds(joined.frames).includes('unknown'), 500, 'unknown on join')
      const frame = stream.frames.find((f) => f.text.startsWith('event: unknown'))!.text
      expect(frame).not.toContain('\nid:')
      expect(JSON.parse(frame.split('\ndata: ')[1]!)).toEqual({ error: 'CRITICAL_FAILURE', message: 'signing system offline; treat the market as CLOSED', status: 'UNKNOWN' })
      expect(kinds(stream.frames)).not.toContain('market_status')
      const unknowns = stream.frames.filter((f) => f.text.startsWith('event: unknown'))
      // Once per tick (1 s here), not at every one-second state check on top of it.
      expect(unknowns[1]!.at - unknowns[0]!.at).toBeGreaterThan(700)
      deps.signer = signer
      await stream.until(() => kinds(stream.frames).includes('market_status'), 3000, 'a receipt once signing is back')
      const receipt = JSON.parse(stream.frames.find((f) => f.text.includes('event: market_status'))!.text.split('\ndata: ')[1]!)
      expect(verifyWithRegistry(registry, receipt)).toBe(true)
      await stream.close()
      await joined.close()
    } finally {
      deps.signer = signer
      t.deps.config.delivery.streamIntervalSeconds = 30
    }
  })
})
