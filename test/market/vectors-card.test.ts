import { describe, expect, test } from 'bun:test'
import * as ed from '@noble/ed25519'
import { sha512 } from '@noble/hashes/sha2.js'
import { escapeXml } from '../../src/market/card'
import { makeTestApp } from '../helpers/app'

ed.hashes.sha512 = sha512

describe('GET /v5/conformance-vectors', () => {
  test('five vectors, each verifiable with noble from the base64 bytes and the public key alone', async () => {
    const harness = makeTestApp()
    const { status, body } = await harness.json('/v5/conformance-vectors')
    expect(status).toBe(200)
    expect(body.vectors.map((v: { name: string }) => v.name)).toEqual(['xnys_open', 'xnys_closed', 'xjpx_lunch_break', 'unknown_system', 'health_ok'])
    for (const vector of body.vectors) {
      const bytes = Buffer.from(vector.canonical_payload, 'base64')
      expect(ed.verify(Buffer.from(vector.receipt.signature, 'hex'), bytes, Buffer.from(vector.public_key, 'hex'), { zip215: false })).toBe(true)
      // The bytes are exactly the sorted signed fields of the receipt.
      const payload = JSON.parse(bytes.toString('utf8'))
      expect(Object.keys(payload)).toEqual([...Object.keys(payload)].sort())
      for (const [name, value] of Object.entries(payload)) expect(vector.receipt[name]).toBe(value)
    }
    const byName = Object.fromEntries(body.vectors.map((v: { name: string; receipt: Record<string, string> }) => [v.name, v.receipt]))
    expect(byName.xnys_open.status).toBe('OPEN')
    expect(byName.xnys_closed.status).toBe('CLOSED')
    expect(byName.unknown_system).toMatchObject({ status: 'UNKNOWN', source: 'SYSTEM' })
    expect(byName.health_ok).toMatchObject({ status: 'OK', source: 'SYSTEM' })
    // Ed25519 is deterministic: the same key gives the same vectors on every call.
    expect((await harness.json('/v5/conformance-vectors')).body.vectors[0].receipt.signature).toBe(byName.xnys_open.signature)
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
