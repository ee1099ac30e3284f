import { describe, expect, test } from 'bun:test'
import * as ed from '@noble/ed25519'
import { issueKey } from '../../src/accounts/keys'
import { forEachBackendApp, type BackendApp } from '../helpers/backend-app'
import { clientKey, jcs, postJson, signCheckpoint, submission, type ClientKey } from '../helpers/checkpoints'

const URL_PATH = '/v1/witness/checkpoints'
const DOCS = 'https://oracle.test/v1/witness/spec'
const L = (1n << 252n) + 27742317777372353535851937790883648493n
const P = (1n << 255n) - 19n
const le = (value: bigint) => {
  const out = new Uint8Array(32)
  for (let i = 0; i < 32; i++) {
    out[i] = Number(value & 0xffn)
    value >>= 8n
  }
  return out
}
const leValue = (bytes: Uint8Array) => bytes.reduceRight((acc, byte) => (acc << 8n) | BigInt(byte), 0n)
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url')

let ipCounter = 0
/** Each call from a fresh address, so that rate limits stay out of these tests. */
async function post(harness: BackendApp, body: unknown, headers: Record<string, string> = {}) {
  const response = await harness.request(URL_PATH, postJson(body, { 'cf-connecting-ip': `198.51.100.${++ipCounter % 250}`, ...headers }))
  const text = await response.text()
  return { status: response.status, headers: response.headers, text, body: JSON.parse(text) as Record<string, any> }
}

async function expectError(harness: BackendApp, body: unknown, status: number, code: string, headers: Record<string, string> = {}) {
  const result = await post(harness, body, headers)
  expect({ status: result.status, error: result.body.error }).toEqual({ status, error: code })
  expect(result.body.docs).toBe(DOCS)
  expect(await harness.witnessRows()).toBe(0)
  return result
}

const key = clientKey()
// A new key each time: on PostgreSQL the tests of a run share a database, and a stored identity answers 200.
const good = () => submission(clientKey())
const withCheckpoint = (patch: Record<string, unknown>, signer: ClientKey = key) => ({ checkpoint: signCheckpoint(signer, {}, patch), public_key_jwk: signer.jwk })

forEachBackendApp('witness checks', (make) => {
  describe('check 1: body', () => {
    test('content type must be application/json (parameters allowed)', async () => {
      const harness = await make()
      for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/jsonp', '']) {
        const response = await harness.request(URL_PATH, { method: 'POST', headers: { 'content-type': type }, body: JSON.stringify(good()) })
        expect(response.status).toBe(400)
        expect(((await response.json()) as { error: string }).error).toBe('bad_request')
      }
      expect((await post(harness, good(), { 'content-type': 'application/json; charset=utf-8' })).status).toBe(201)
    })

    test('size is measured in bytes: 4096 bytes pass the size rule, 4097 do not, and short multi-byte text can be over', async () => {
      const harness = await make()
      const padTo = (bytes: number, char: string) => {
        const base = JSON.stringify({ pad: '' })
        const unit = Buffer.byteLength(char)
        return JSON.stringify({ pad: char.repeat(Math.floor((bytes - Buffer.byteLength(base)) / unit)) })
      }
      const exact = padTo(4096, 'a')
      expect(Buffer.byteLength(exact)).toBe(4096)
      expect((await expectError(harness, exact, 400, 'bad_request')).body.message).toMatch(/exactly the members/)
      const over = padTo(4097, 'a')
      expect(Buffer.byteLength(over)).toBe(4097)
      expect((await expectError(harness, over, 400, 'bad_request')).body.message).toMatch(/4096 bytes/)
      const multibyte = JSON.stringify({ pad: 'é'.repeat(2100) })
      expect(multibyte.length).toBeLessThan(4096)
      expect(Buffer.byteLength(multibyte)).toBeGreaterThan(4096)
      expect((await expectError(harness, multibyte, 400, 'bad_request')).body.message).toMatch(/4096 bytes/)
    })

    for (const [name, body] of [
      ['invalid JSON', '{"checkpoint":'],
      ['an array', '[]'],
      ['a string', '"checkpoint"'],
      ['null', 'null'],
      ['a missing member', JSON.stringify({ checkpoint: good().checkpoint })],
      ['an extra member', JSON.stringify({ ...good(), note: 'hi' })],
      ['a repeated member', `{"checkpoint":${JSON.stringify(good().checkpoint)},"public_key_jwk":${JSON.stringify(key.jwk)},"public_key_jwk":${JSON.stringify(key.jwk)}}`],
      ['invalid UTF-8', Buffer.from([0x7b, 0xff, 0x7d]).toString('latin1')],
    ] as const) {
      test(`${name} → bad_request`, async () => {
        await expectError(await make(), body, 400, 'bad_request')
      })
    }
  })

  describe('check 1.5: Authorization', () => {
    test('malformed or unknown → 401 invalid_key, never anonymous; inactive → 402; other plan → 403; key store down → 503', async () => {
      const harness = await make()
      const now = new Date(harness.clock.now())
      for (const header of ['Bearer', 'Bearer svc_live_ABC', `bearer svc_live_${'a'.repeat(64)}`, `Bearer svc_live_${'A'.repeat(64)}`, `Bearer sb_${'a'.repeat(64)}`, `Basic ${'a'.repeat(20)}`]) {
        await expectError(harness, good(), 401, 'invalid_key', { authorization: header })
      }
      await expectError(harness, good(), 401, 'invalid_key', { authorization: `Bearer svc_live_${'0'.repeat(64)}` })
      const suspended = await issueKey(harness.deps.accounts, { plan: 'evidence', now })
      await harness.deps.accounts.setStatus(suspended.account.id, 'cancelled')
      await expectError(harness, good(), 402, 'payment_required', { authorization: `Bearer ${suspended.key}` })
      const pro = await issueKey(harness.deps.accounts, { plan: 'pro', now })
      await expectError(harness, good(), 403, 'witness_plan_required', { authorization: `Bearer ${pro.key}` })
      harness.deps.accounts.findByHash = async () => {
        throw new Error('database is locked')
      }
      const evidence = `Bearer svc_live_${'1'.repeat(64)}`
      await expectError(harness, good(), 503, 'witness_unavailable', { authorization: evidence })
    })

    test('an Evidence key stores into the account pool', async () => {
      const harness = await make()
      const { key: apiKey } = await issueKey(harness.deps.accounts, { plan: 'evidence_starter', now: new Date(harness.clock.now()) })
      const result = await post(harness, good(), { authorization: `Bearer ${apiKey}` })
      expect(result.status).toBe(201)
      expect(result.headers.get('x-ratelimit-limit')).toBe('600')
      expect(await harness.query('SELECT pool FROM witness_checkpoints WHERE kid = $1', JSON.parse(result.text).kid)).toEqual([{ pool: 'account' }])
    })
  })

  describe('check 2: checkpoint shape', () => {
    for (const [name, checkpoint] of [
      ['not an object', 'checkpoint'],
      ['an array', []],
      ['a missing member', (({ ts: _ts, ...rest }) => rest)(signCheckpoint(key))],
      ['an extra member', { ...signCheckpoint(key), extra: 1 }],
    ] as const) {
      test(`${name} → bad_checkpoint_shape`, async () => {
        await expectError(await make(), { checkpoint, public_key_jwk: key.jwk }, 400, 'bad_checkpoint_shape')
      })
    }
  })

  describe('check 3: checkpoint fields', () => {
    const cases: [string, Record<string, unknown>][] = [
      ['v', { v: 'evidence.action/2' }],
      ['type', { type: 'Checkpoint' }],
      ['empty session_id', { session_id: '' }],
      ['129-character session_id', { session_id: 'x'.repeat(129) }],
      ['lone surrogate in session_id', { session_id: 'a\ud800b' }],
      ['numeric session_id', { session_id: 7 }],
      ['count 0', { count: 0 }],
      ['negative count', { count: -1 }],
      ['fractional count', { count: 1.5 }],
      ['count as a string', { count: '1' }],
      ['count past the safe range', { count: 2 ** 53 }],
      ['uppercase hash', { last_entry_hash: 'sha256:' + 'A'.repeat(64) }],
      ['hash without prefix', { last_entry_hash: 'a'.repeat(64) }],
      ['ts month 13', { ts: '2026-13-01T00:00:00Z' }],
      ['ts hour 25', { ts: '2026-03-10T25:00:00Z' }],
      ['ts minute 60', { ts: '2026-03-10T10:60:00Z' }],
      ['ts second 60', { ts: '2026-03-10T10:00:60Z' }],
      ['ts 30 February', { ts: '2026-02-30T10:00:00Z' }],
      ['ts 29 February of a common year', { ts: '2026-02-29T10:00:00Z' }],
      ['ts without Z', { ts: '2026-03-10T10:00:00' }],
      ['ts with an offset', { ts: '2026-03-10T10:00:00+00:00' }],
      ['ts with 10 fractional digits', { ts: '2026-03-10T10:00:00.1234567890Z' }],
      ['ts lowercase z', { ts: '2026-03-10T10:00:00z' }],
      ['prefixed kid', { kid: `ed25519:${key.kid}` }],
      ['short kid', { kid: key.kid.slice(1) }],
    ]
    for (const [name, patch] of cases) {
      test(`${name} → bad_checkpoint_field`, async () => {
        await expectError(await make(), withCheckpoint(patch), 400, 'bad_checkpoint_field')
      })
    }

    test('accepted edges: 128 multi-byte characters, 9 fractional digits, 29 February of a leap year, the largest safe count', async () => {
      const harness = await make()
      for (const fields of [{ session_id: '語'.repeat(128) }, { count: 2, ts: '2026-03-10T10:00:00.123456789Z' }, { count: 3, ts: '2028-02-29T10:00:00Z' }, { count: Number.MAX_SAFE_INTEGER }]) {
        expect((await post(harness, { checkpoint: signCheckpoint(key, fields), public_key_jwk: key.jwk })).status).toBe(201)
      }
    })

    test('sig: hex, padded, wrong length or non-canonical base64url → bad_checkpoint_field', async () => {
      const harness = await make()
      const checkpoint = signCheckpoint(key)
      const bytes = Buffer.from(checkpoint.sig, 'base64url')
      const lastChar = checkpoint.sig.at(-1)!
      const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
      const nonCanonical = checkpoint.sig.slice(0, 85) + alphabet[alphabet.indexOf(lastChar) ^ 1]
      for (const sig of [bytes.toString('hex'), `${checkpoint.sig}==`, checkpoint.sig.slice(0, 85), nonCanonical, bytes.toString('base64')]) {
        await expectError(harness, { checkpoint: { ...checkpoint, sig }, public_key_jwk: key.jwk }, 400, 'bad_checkpoint_field')
      }
    })
  })

  describe('check 4: public_key_jwk', () => {
    for (const [name, jwk] of [
      ['an extra member', { ...key.jwk, use: 'sig' }],
      ['a missing member', { kty: 'OKP', x: key.jwk.x }],
      ['kty EC', { ...key.jwk, kty: 'EC' }],
      ['crv X25519', { ...key.jwk, crv: 'X25519' }],
      ['padded x', { ...key.jwk, x: `${key.jwk.x}=` }],
      ['short x', { ...key.jwk, x: key.jwk.x.slice(1) }],
      ['non-canonical x', { ...key.jwk, x: key.jwk.x.slice(0, 42) + (key.jwk.x.endsWith('A') ? 'B' : key.jwk.x.endsWith('B') ? 'C' : 'B') }],
      ['not an object', 'jwk'],
    ] as const) {
      test(`${name} → bad_jwk`, async () => {
        const body = { checkpoint: signCheckpoint(key), public_key_jwk: jwk }
        const result = await expectError(await make(), body, 400, 'bad_jwk')
        expect(result.body.error).toBe('bad_jwk')
      })
    }
  })

  describe('checks 5 and 6', () => {
    test('kid of another key → kid_mismatch', async () => {
      await expectError(await make(), { checkpoint: signCheckpoint(key), public_key_jwk: clientKey().jwk }, 400, 'kid_mismatch')
    })

    test('a changed field or another signer → bad_signature', async () => {
      const harness = await make()
      const checkpoint = signCheckpoint(key)
      await expectError(harness, { checkpoint: { ...checkpoint, ts: '2026-03-10T15:00:01.123Z' }, public_key_jwk: key.jwk }, 400, 'bad_signature')
      const other = clientKey()
      const foreign = signCheckpoint(other, {}, { kid: key.kid })
      await expectError(harness, { checkpoint: foreign, public_key_jwk: key.jwk }, 400, 'bad_signature')
    })

    test('forgeries: S + L, non-canonical R, small-order A, small-order R → bad_signature', async () => {
      const harness = await make()
      const checkpoint = signCheckpoint(key)
      const sig = new Uint8Array(Buffer.from(checkpoint.sig, 'base64url'))

      const malleated = Uint8Array.from(sig)
      malleated.set(le(leValue(sig.subarray(32)) + L), 32)
      await expectError(harness, { checkpoint: { ...checkpoint, sig: b64(malleated) }, public_key_jwk: key.jwk }, 400, 'bad_signature')

      const nonCanonicalR = Uint8Array.from(sig)
      nonCanonicalR.set(le(P + 1n), 0)
      await expectError(harness, { checkpoint: { ...checkpoint, sig: b64(nonCanonicalR) }, public_key_jwk: key.jwk }, 400, 'bad_signature')

      // A = identity, R = identity, S = 0: verifies for every message under a cofactorless check.
      const identity = new Uint8Array(32)
      identity[0] = 1
      const weakJwk = { kty: 'OKP' as const, crv: 'Ed25519' as const, x: b64(identity) }
      const weakKey = { seed: new Uint8Array(32), publicKey: identity, jwk: weakJwk, kid: clientKeyKid(weakJwk.x) }
      const forged = new Uint8Array(64)
      forged.set(identity, 0)
      const unsigned = { ...signCheckpoint(key), kid: weakKey.kid }
      await expectError(harness, { checkpoint: { ...unsigned, sig: b64(forged) }, public_key_jwk: weakJwk }, 400, 'bad_signature')

      const smallR = Uint8Array.from(sig)
      smallR.set(Buffer.from('c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a', 'hex'), 0)
      await expectError(harness, { checkpoint: { ...checkpoint, sig: b64(smallR) }, public_key_jwk: key.jwk }, 400, 'bad_signature')
    })
  })

  function clientKeyKid(x: string): string {
    return Buffer.from(new Bun.CryptoHasher('sha256').update(`{"crv":"Ed25519","kty":"OKP","x":"${x}"}`).digest()).toString('base64url')
  }

  describe('check order', () => {
    test('a body failing checks 3 and 6 reports 3; failing 2 and 4 reports 2; failing 4 and 5 reports 4', async () => {
      const harness = await make()
      const checkpoint = signCheckpoint(key)
      await expectError(harness, { checkpoint: { ...checkpoint, count: 0 }, public_key_jwk: key.jwk }, 400, 'bad_checkpoint_field') // sig now wrong too
      await expectError(harness, { checkpoint: { ...checkpoint, extra: true }, public_key_jwk: { kty: 'RSA' } }, 400, 'bad_checkpoint_shape')
      await expectError(harness, { checkpoint, public_key_jwk: { ...clientKey().jwk, crv: 'P-256' } }, 400, 'bad_jwk')
      // The signed bytes are the JCS of the checkpoint without sig: recomputing them here verifies.
      const { sig, ...unsigned } = checkpoint
      expect(ed.verify(Buffer.from(sig, 'base64url'), new TextEncoder().encode(jcs(unsigned)), key.publicKey)).toBe(true)
    })
  })
})
