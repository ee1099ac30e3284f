import { describe, expect, test } from 'bun:test'
import { calculateJwkThumbprint } from 'jose'
import { randomBytes } from 'node:crypto'
import { ed25519Jwk, jwkThumbprint } from '../../src/crypto/jwk'
import { base64urlToBytes, bytesToBase64url, hexToBytes } from '../../src/crypto/encoding'

describe('RFC 7638 thumbprints', () => {
  test('RFC 8037 appendix A.3 example', () => {
    const jwk = { crv: 'Ed25519', kty: 'OKP', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo' }
    expect(jwkThumbprint(jwk)).toBe('kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k')
  })

  test('agrees with the jose library for random keys', async () => {
    for (let i = 0; i < 5; i++) {
      const jwk = ed25519Jwk(new Uint8Array(randomBytes(32)))
      expect(jwkThumbprint(jwk)).toBe(await calculateJwkThumbprint(jwk, 'sha256'))
    }
  })
})

describe('encodings', () => {
  test('base64url is strict: no padding, no stray characters, canonical trailing bits', () => {
    expect(base64urlToBytes('AQID')).toEqual(new Uint8Array([1, 2, 3]))
    expect(base64urlToBytes('AQI')).toEqual(new Uint8Array([1, 2]))
    expect(base64urlToBytes('AQI=')).toBeNull()
    expect(base64urlToBytes('AQ+D')).toBeNull()
    expect(base64urlToBytes('AQJ')).toBeNull() // non-zero trailing bits: re-encodes as AQI
    expect(base64urlToBytes('A')).toBeNull()
    expect(bytesToBase64url(new Uint8Array([251, 255]))).toBe('-_8')
  })

  test('hex is lowercase only', () => {
    expect(hexToBytes('0aff')).toEqual(new Uint8Array([10, 255]))
    expect(hexToBytes('0AFF')).toBeNull()
    expect(hexToBytes('0af')).toBeNull()
  })
})
