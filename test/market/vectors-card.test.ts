import { describe, expect, test } from 'bun:test'
import * as ed from '@noble/ed25519'
import { sha512 } from '@noble/hashes/sha2.js'
import { escapeXml } from '../../src/market/card'
import { makeTestApp } from '../helpers/app'
import { acceptsReceipt, type KeyRegistry } from '../helpers/verify'

ed.hashes.sha512 = sha512

describe('GET /v5/conformance-vectors', () => {
  // A Saturday evening: XNYS is closed now, so the vectors' statuses must come from their own instants.
  const NOW = '2026-11-21T19:04:05.678Z'
  const SYNTHETIC: Record<string, string | null> = {
    xnys_open: '2026-03-10T15:00:00.000Z',
    xnys_closed: '2026-03-10T22:00:00.000Z',
    xjpx_lunch_break: '2026-03-10T02:45:00.000Z',
    unknown_system: '2026-03-10T15:00:00.000Z',
    health_ok: null,
  }

  test('five vectors, each verifiable with noble from the base64 bytes and the public key alone', async () => {
    const harness = makeTestApp({ now: NOW })
    const { status, body } = await harness.json('/v5/conformance-vectors')
    expect(status).toBe(200)
    expect(body.vectors.map((v: { name: string }) => v.name)).toEqual(Object.keys(SYNTHETIC))
    for (const vector of body.vectors) {
      const bytes = Buffer.from(vector.canonical_payload, 'base64')
      expect(ed.verify(Buffer.from(vector.receipt.signature, 'hex'), bytes, Buffer.from(vector.public_key, 'hex'), { zip215: false })).toBe(true)
      // The bytes are exactly the sorted signed fields of the receipt.
      const payload = JSON.parse(bytes.toString('utf8'))
      expect(Object.keys(payload)).toEqual([...Object.keys(payload)].sort())
      for (const [name, value] of Object.entries(payload)) expect(vector.receipt[name]).toBe(value)
      // synthetic_time is beside the receipt, not signed.
      expect(vector.synthetic_time).toBe(SYNTHETIC[vector.name]!)
      expect(vector.receipt).not.toHaveProperty('synthetic_time')
    }
    const byName = Object.fromEntries(body.vectors.map((v: { name: string; receipt: Record<string, string> }) => [v.name, v.receipt]))
    expect(byName.xnys_open).toMatchObject({ status: 'OPEN', source: 'SCHEDULE', receipt_mode: 'demo' })
    expect(byName.xnys_closed).toMatchObject({ status: 'CLOSED', receipt_mode: 'demo' })
    expect(byName.xjpx_lunch_break).toMatchObject({ mic: 'XJPX', status: 'CLOSED', receipt_mode: 'demo' })
    expect(byName.unknown_system).toMatchObject({ status: 'UNKNOWN', source: 'SYSTEM', receipt_mode: 'demo' })
    expect(byName.health_ok).toMatchObject({ status: 'OK', source: 'SYSTEM' })
    expect(body.note).toContain('testing verifiers only')
    // Ed25519 is deterministic: at the same instant the same key gives the same vectors.
    expect((await harness.json('/v5/conformance-vectors')).body).toEqual(body)
  })

  test('signed at the time of the call: the project verifier accepts them as valid and not expired, for 60 seconds', async () => {
    const harness = makeTestApp({ now: NOW })
    const keys = (await harness.json('/v5/keys')).body as KeyRegistry
    const first = (await harness.json('/v5/conformance-vectors')).body
    expect(first.generated_at).toBe(NOW)
    for (const vector of first.vectors) {
      expect(vector.receipt.issued_at).toBe(NOW)
      expect(acceptsReceipt(keys, vector.receipt, harness.clock.now())).toEqual({ valid: true, expired: false })
      expect(acceptsReceipt(keys, vector.receipt, harness.clock.now() + 59_000)).toEqual({ valid: true, expired: false })
      // The service's own POST /v5/verify agrees.
      const verdict = (await harness.json('/v5/verify', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ receipt: vector.receipt }) })).body
      expect(verdict).toMatchObject({ valid: true, expired: false, reason: 'SIGNATURE_VALID' })
    }

    // Ninety seconds later the first set has expired and a new call signs a fresh one.
    harness.clock.advance(90_000)
    const later = (await harness.json('/v5/conformance-vectors')).body
    for (const [index, vector] of later.vectors.entries()) {
      const before = first.vectors[index]
      expect(acceptsReceipt(keys, before.receipt, harness.clock.now())).toEqual({ valid: true, expired: true })
      expect(acceptsReceipt(keys, vector.receipt, harness.clock.now())).toEqual({ valid: true, expired: false })
      expect(vector.receipt.issued_at).toBe(new Date(harness.clock.now()).toISOString())
      expect(vector.receipt.signature).not.toBe(before.receipt.signature)
      // Same vector: same id, same synthetic instant, same status.
      expect(vector.receipt.receipt_id).toBe(before.receipt.receipt_id)
      expect(vector.synthetic_time).toBe(before.synthetic_time)
      expect(vector.receipt.status).toBe(before.receipt.status)
    }
  })
})

describe('GET /v5/card/{mic}', () => {
  test('an SVG card with no-cache', async () => {
    const harness = makeTestApp({ now: '2026-03-10T15:00:00.000Z' })
    const response = await harness.request('/v5/card/XNYS')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toStartWith('image/svg+xml')
    expect(response.headers.get('cache-control')).toBe('no-cache')
    const svg = await response.text()
    expect(svg).toStartWith('<svg')
    for (const text of ['XNYS', 'OPEN', 'source SCHEDULE', '/v5/verify', '2026-03-10T15:00:00.000Z']) expect(svg).toContain(text)
  })

  test('unknown MIC → 400; all text is XML-escaped', async () => {
    const harness = makeTestApp()
    expect((await harness.json('/v5/card/%3Cscript%3E')).status).toBe(400)
    expect(escapeXml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;')
  })
})
