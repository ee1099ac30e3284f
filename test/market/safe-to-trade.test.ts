import { describe, expect, test } from 'bun:test'
import { Signer } from '../../src/crypto/signer'
import { makeTestApp } from '../helpers/app'
import { signedMembers, verifyWithRegistry } from '../helpers/verify'

const OPEN_INSTANT = '2026-03-10T15:00:00.000Z'

describe('GET /v1/safe-to-trade/sample', () => {
  test('an open venue is safe; the receipt is all strings, signed, and mirrored in receipt', async () => {
    const harness = makeTestApp({ now: OPEN_INSTANT })
    const { status, body } = await harness.json('/v1/safe-to-trade/sample?venue=XNYS&max_age=30&instrument=AAPL')
    expect(status).toBe(200)
    expect(body).toMatchObject({ venue: 'XNYS', venue_status: 'OPEN', venue_source: 'SCHEDULE', safe: 'true', reasons: '[]', max_age: '30', instrument: 'AAPL', receipt_mode: 'live', schema_version: 'v5.0', door: 'public-sample' })
    expect(JSON.parse(body.cross_venue)).toEqual({ realtime_overrides: [], scan_ok: true })
    const keys = (await harness.json('/v5/keys')).body
    expect(signedMembers(body)).toEqual(keys.canonical_payload_spec.safe_to_trade_fields)
    for (const name of keys.canonical_payload_spec.safe_to_trade_fields) expect(typeof body[name]).toBe('string')
    expect(verifyWithRegistry(keys, body)).toBe(true)
    expect(verifyWithRegistry(keys, body.receipt)).toBe(true)
    expect(body.receipt.signature).toBe(body.signature)
    expect(body.discovery_url).toBe('https://oracle.test/v5/keys')
    expect(typeof body.note).toBe('string')
  })

  test('a closed venue is not safe, with VENUE_NOT_OPEN', async () => {
    const harness = makeTestApp({ now: '2026-03-10T22:00:00.000Z' })
    const { body } = await harness.json('/v1/safe-to-trade/sample?max_age=5')
    expect(body).toMatchObject({ venue: 'XNYS', venue_status: 'CLOSED', safe: 'false', instrument: '' })
    expect(JSON.parse(body.reasons)).toEqual(['VENUE_NOT_OPEN'])
  })

  test('a real-time halt: VENUE_REALTIME_HALT, listed in the cross-venue scan; a degraded scan: CROSS_VENUE_SCAN_UNAVAILABLE', async () => {
    const harness = makeTestApp({ now: OPEN_INSTANT })
    ;(harness.deps.halts as unknown as { halts: Map<string, unknown> }).halts.set('XNAS', { code: 'MWC1', since: 'x', reason: 'feed: MWC1' })
    const nas = (await harness.json('/v1/safe-to-trade/sample?venue=XNAS&max_age=10')).body
    expect(nas).toMatchObject({ venue_status: 'HALTED', venue_source: 'REALTIME', safe: 'false' })
    expect(JSON.parse(nas.reasons)).toEqual(['VENUE_NOT_OPEN', 'VENUE_REALTIME_HALT'])
    const nyse = (await harness.json('/v1/safe-to-trade/sample?venue=XNYS&max_age=10')).body
    expect(JSON.parse(nyse.cross_venue)).toEqual({ realtime_overrides: ['XNAS'], scan_ok: true })
    harness.deps.halts.state = () => 'degraded'
    const degraded = (await harness.json('/v1/safe-to-trade/sample?venue=XNYS&max_age=10')).body
    expect(JSON.parse(degraded.reasons)).toContain('CROSS_VENUE_SCAN_UNAVAILABLE')
    expect(degraded.safe).toBe('false')
  })

  const maxAges: [string | null, number, string | null][] = [
    [null, 400, 'MAX_AGE_REQUIRED'],
    ['', 400, 'MAX_AGE_REQUIRED'],
    ['0', 400, 'MAX_AGE_INVALID'],
    ['1', 200, null],
    ['60', 200, null],
    ['61', 400, 'MAX_AGE_INVALID'],
    ['01', 400, 'MAX_AGE_INVALID'],
    ['1.0', 400, 'MAX_AGE_INVALID'],
    ['1e1', 400, 'MAX_AGE_INVALID'],
    ['+5', 400, 'MAX_AGE_INVALID'],
    ['-5', 400, 'MAX_AGE_INVALID'],
    [' 5', 400, 'MAX_AGE_INVALID'],
    ['0x10', 400, 'MAX_AGE_INVALID'],
    ['ten', 400, 'MAX_AGE_INVALID'],
    ['100', 400, 'MAX_AGE_INVALID'],
  ]
  for (const [value, status, code] of maxAges) {
    test(`max_age=${JSON.stringify(value)} → ${status}${code ? ` ${code}` : ''}`, async () => {
      const harness = makeTestApp({ now: OPEN_INSTANT })
      const query = value === null ? '' : `?max_age=${encodeURIComponent(value)}`
      const response = await harness.json(`/v1/safe-to-trade/sample${query}`)
      expect(response.status).toBe(status)
      if (code) expect(response.body.error).toBe(code)
      else expect(response.body.max_age).toBe(value!)
    })
  }

  test('instrument: 64 characters pass (counted as characters, not bytes); 65 are refused', async () => {
    const harness = makeTestApp({ now: OPEN_INSTANT })
    const ok = await harness.json(`/v1/safe-to-trade/sample?max_age=5&instrument=${encodeURIComponent('é'.repeat(64))}`)
    expect(ok.status).toBe(200)
    expect(ok.body.instrument).toBe('é'.repeat(64))
    const long = await harness.json(`/v1/safe-to-trade/sample?max_age=5&instrument=${'A'.repeat(65)}`)
    expect(long.status).toBe(400)
    expect(long.body.error).toBe('INSTRUMENT_TOO_LONG')
  })

  test('unknown venue → 400 UNKNOWN_VENUE', async () => {
    const harness = makeTestApp()
    const { status, body } = await harness.json('/v1/safe-to-trade/sample?venue=MOON&max_age=5')
    expect(status).toBe(400)
    expect(body.error).toBe('UNKNOWN_VENUE')
  })

  test('60 requests per minute per address; the 61st is 429 with Retry-After to the next minute; a new minute resets', async () => {
    const harness = makeTestApp({ now: '2026-03-10T15:00:15.000Z' })
    const from = (ip: string) => ({ headers: { 'cf-connecting-ip': ip } })
    for (let i = 0; i < 60; i++) {
      const response = await harness.request('/v1/safe-to-trade/sample?max_age=5', from('203.0.113.9'))
      expect(response.status).toBe(200)
      expect(response.headers.get('x-ratelimit-remaining')).toBe(String(59 - i))
    }
    const limited = await harness.request('/v1/safe-to-trade/sample?max_age=5', from('203.0.113.9'))
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).toBe('45')
    expect(limited.headers.get('x-ratelimit-limit')).toBe('60')
    expect(((await limited.json()) as { error: string }).error).toBe('RATE_LIMITED')
    // Another address has its own budget.
    expect((await harness.request('/v1/safe-to-trade/sample?max_age=5', from('203.0.113.10'))).status).toBe(200)
    harness.clock.set('2026-03-10T15:01:00.000Z')
    expect((await harness.request('/v1/safe-to-trade/sample?max_age=5', from('203.0.113.9'))).status).toBe(200)
  })

  test('signer offline → 500 unsigned UNKNOWN/SYSTEM, safe false', async () => {
    const harness = makeTestApp({ now: OPEN_INSTANT, signer: Signer.offline('test') })
    const { status, body } = await harness.json('/v1/safe-to-trade/sample?max_age=5')
    expect(status).toBe(500)
    expect(body).toMatchObject({ error: 'CRITICAL_FAILURE', status: 'UNKNOWN', venue_status: 'UNKNOWN', venue_source: 'SYSTEM', safe: 'false' })
    expect(body.signature).toBeUndefined()
  })
})
