import { describe, expect, test } from 'bun:test'
import * as ed from '@noble/ed25519'
import { sha512 } from '@noble/hashes/sha2.js'
import { calculateJwkThumbprint } from 'jose'
import { Signer } from '../../src/crypto/signer'
import { hexToBytes } from '../../src/crypto/encoding'
import { makeTestApp } from '../helpers/app'
import { SUPPORTED_MICS } from '../../src/calendar/mics'

ed.hashes.sha512 = sha512

describe('GET /v5/keys', () => {
  test('lists the key and the complete canonical payload spec', async () => {
    const { json, deps } = makeTestApp()
    const { status, body } = await json('/v5/keys')
    expect(status).toBe(200)
    expect(body.keys).toEqual([
      { key_id: 'key_2026_v1', algorithm: 'Ed25519', format: 'hex', public_key: deps.signer.key!.publicKeyHex, valid_from: '2026-01-01T00:00:00.000Z', valid_until: null, status: 'active' },
    ])
    const spec = body.canonical_payload_spec
    expect(spec.receipt_fields).toEqual(['expires_at', 'halt_detection', 'issued_at', 'issuer', 'mic', 'public_key_id', 'receipt_id', 'receipt_mode', 'schema_version', 'source', 'status'])
    expect(spec.override_fields).toEqual([...spec.receipt_fields, 'reason'].sort())
    expect(spec.health_fields).toEqual(['expires_at', 'issued_at', 'issuer', 'public_key_id', 'receipt_id', 'source', 'status'])
    expect(spec.safe_to_trade_fields).toContain('cross_venue')
    expect(spec.witness_fields).toContain('checkpoint_sha256')
    for (const list of ['receipt_fields', 'override_fields', 'health_fields', 'safe_to_trade_fields', 'witness_fields']) {
      expect([...spec[list]].sort()).toEqual(spec[list])
    }
    expect(spec.description).toMatch(/sort/)
    expect(spec.description).toMatch(/UTF-8/)
    expect(spec.description).toMatch(/Ed25519/)
    expect(spec.description).toMatch(/hex/)
  })

  test('an offline signer lists no key', async () => {
    const { json } = makeTestApp({ signer: Signer.offline('test') })
    const { status, body } = await json('/v5/keys')
    expect(status).toBe(200)
    expect(body.keys).toEqual([])
  })
})

describe('well-known documents', () => {
  test('oracle-keys.json names the hex key and points at the JWKS', async () => {
    const { json, deps } = makeTestApp()
    const { status, body } = await json('/.well-known/oracle-keys.json')
    expect(status).toBe(200)
    expect(body.keys[0].public_key).toBe(deps.signer.key!.publicKeyHex)
    expect(body.jwks_uri).toBe('https://oracle.test/.well-known/jwks.json')
  })

  test('jwks.json is a single-key set whose kid is the RFC 7638 thumbprint (checked with jose)', async () => {
    const { request, deps } = makeTestApp()
    const response = await request('/.well-known/jwks.json')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/jwk-set+json')
    expect(response.headers.get('cache-control')).toBe('public, max-age=300')
    const body = (await response.json()) as { keys: Record<string, string>[] }
    expect(body.keys).toHaveLength(1)
    const key = body.keys[0]!
    expect(key).toMatchObject({ kty: 'OKP', crv: 'Ed25519', use: 'sig', alg: 'EdDSA' })
    expect(Buffer.from(key.x!, 'base64url').toString('hex')).toBe(deps.signer.key!.publicKeyHex)
    expect(key.kid).toBe(await calculateJwkThumbprint({ kty: 'OKP', crv: 'Ed25519', x: key.x! }, 'sha256'))
  })

  test('jwks.json without a key is 500 CONFIGURATION_ERROR', async () => {
    const { json } = makeTestApp({ signer: Signer.offline('test') })
    const { status, body } = await json('/.well-known/jwks.json')
    expect(status).toBe(500)
    expect(body.error).toBe('CONFIGURATION_ERROR')
  })
})

describe('GET /v5/health', () => {
  test('is a signed receipt that verifies with noble using only /v5/keys', async () => {
    const { json, clock } = makeTestApp()
    const { status, body } = await json('/v5/health')
    expect(status).toBe(200)
    expect(body.status).toBe('OK')
    expect(body.source).toBe('SYSTEM')
    expect(body.issuer).toBe('oracle.test')
    expect(body.issued_at).toBe(new Date(clock.now()).toISOString())
    expect(Date.parse(body.expires_at) - Date.parse(body.issued_at)).toBe(60_000)
    expect(body.exchange_count).toBe(SUPPORTED_MICS.length)
    expect(body.supported_mics).toEqual([...SUPPORTED_MICS])
    expect(body.receipt_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)

    const keys = (await json('/v5/keys')).body
    const key = keys.keys.find((k: { key_id: string }) => k.key_id === body.public_key_id)
    const fields: string[] = keys.canonical_payload_spec.health_fields
    const payload = JSON.stringify(Object.fromEntries(fields.map((name) => [name, body[name]])))
    expect(ed.verify(hexToBytes(body.signature)!, new TextEncoder().encode(payload), hexToBytes(key.public_key)!, { zip215: false })).toBe(true)
    // Tampering with a signed field breaks it.
    const tampered = payload.replace('"OK"', '"OK "')
    expect(ed.verify(hexToBytes(body.signature)!, new TextEncoder().encode(tampered), hexToBytes(key.public_key)!)).toBe(false)
  })

  test('signer offline: 500 CRITICAL_FAILURE, status UNKNOWN, unsigned', async () => {
    const { json } = makeTestApp({ signer: Signer.offline('test') })
    const { status, body } = await json('/v5/health')
    expect(status).toBe(500)
    expect(body).toMatchObject({ error: 'CRITICAL_FAILURE', status: 'UNKNOWN' })
    expect(body.signature).toBeUndefined()
  })

  test('unsigned extras never shadow signed fields', async () => {
    const { json, deps } = makeTestApp()
    deps.healthExtras.push(() => ({ status: 'HACKED', calendar_warnings: ['x'] }))
    const { body } = await json('/v5/health')
    expect(body.status).toBe('OK')
    expect(body.calendar_warnings).toEqual(['x'])
  })
})

describe('errors', () => {
  test('unknown path → 404 JSON error', async () => {
    const { json } = makeTestApp()
    const { status, body } = await json('/v5/nope')
    expect(status).toBe(404)
    expect(body.error).toBe('NOT_FOUND')
  })

  test('wrong method on a known path → 405 with Allow', async () => {
    const { request } = makeTestApp()
    const response = await request('/v5/keys', { method: 'DELETE' })
    expect(response.status).toBe(405)
    expect(response.headers.get('allow')).toContain('GET')
    expect(((await response.json()) as { error: string }).error).toBe('METHOD_NOT_ALLOWED')
  })

  test('request log lines carry method, path, status and time, never a key', async () => {
    const { request, log } = makeTestApp()
    await request('/v5/keys', { headers: { 'x-oracle-key': 'svc_live_' + 'ab'.repeat(32) } })
    await Bun.sleep(5)
    const line = log.lines.find((entry) => entry.msg === 'request')!
    expect(line).toMatchObject({ method: 'GET', path: '/v5/keys', status: 200, key_class: 'paid' })
    expect(typeof line.ms).toBe('number')
    expect(JSON.stringify(log.lines)).not.toContain('abab')
  })
})

describe('GET /openapi.json', () => {
  test('is OpenAPI 3 and describes every route of the app with responses', async () => {
    const { json, app } = makeTestApp()
    const { status, body } = await json('/openapi.json')
    expect(status).toBe(200)
    expect(body.openapi).toMatch(/^3\./)
    const documented = new Set(Object.entries(body.paths as Record<string, Record<string, unknown>>).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`)))
    for (const route of app.routes) {
      if (route.path === '/docs' || route.path.startsWith('/docs/assets/') || route.path === '/openapi.json' || route.method === 'OPTIONS') continue
      const path = route.path.replace(/:([^/]+)/g, '{$1}').replace(/\/\*$/, '/{path}')
      expect(documented.has(`${route.method} ${path}`)).toBe(true)
      const op = body.paths[path][route.method.toLowerCase()]
      expect(Object.keys(op.responses ?? {})).not.toHaveLength(0)
    }
  })
})
