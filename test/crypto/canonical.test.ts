import { describe, expect, test } from 'bun:test'
import { canonicalPayload, jcsFlat } from '../../src/crypto/canonical'

describe('canonical payload', () => {
  test('sorts keys and writes compact JSON regardless of insertion order', () => {
    expect(canonicalPayload({ status: 'OPEN', mic: 'XNYS', expires_at: 'z' })).toBe('{"expires_at":"z","mic":"XNYS","status":"OPEN"}')
  })

  test('refuses a non-string value', () => {
    expect(() => canonicalPayload({ a: 1 } as unknown as Record<string, string>)).toThrow(TypeError)
    expect(() => canonicalPayload({ a: true } as unknown as Record<string, string>)).toThrow(TypeError)
  })

  test('keeps unicode as UTF-8 text and escapes only what JSON requires', () => {
    const text = canonicalPayload({ reason: 'Börse “Halt” \u2028 \n é 😀' })
    expect(text).toBe('{"reason":"Börse “Halt” \u2028 \\n é 😀"}')
    expect(Buffer.from(text, 'utf8').includes(Buffer.from('ö', 'utf8'))).toBe(true)
  })

  test('orders keys by UTF-16 code units (RFC 8785)', () => {
    // "\u00e9" (é) sorts after "z"; the astral "😀" (surrogates D83D…) sorts before "\uffff".
    expect(jcsFlat({ z: 1, 'é': 2, '\uffff': 3, '😀': 4, A: 5 })).toBe('{"A":5,"z":1,"é":2,"😀":4,"\uffff":3}')
  })

  test('the string fast path gives the same bytes as the general JCS writer', () => {
    const fields = { z: 'é', a: '"quoted"\\', m: '\u0001', '😀': 'x', Z: '' }
    expect(canonicalPayload(fields)).toBe(jcsFlat(fields))
  })

  test('JCS numbers, booleans and null; nested values refused', () => {
    expect(jcsFlat({ count: 3, ok: true, none: null, big: 1e21 })).toBe('{"big":1e+21,"count":3,"none":null,"ok":true}')
    expect(() => jcsFlat({ nested: {} as never })).toThrow(TypeError)
    expect(() => jcsFlat({ n: Number.NaN })).toThrow(TypeError)
  })
})
