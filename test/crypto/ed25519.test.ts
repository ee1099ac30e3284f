import { describe, expect, test } from 'bun:test'
import * as ed from '@noble/ed25519'
import { sha512 } from '@noble/hashes/sha2.js'
import { randomBytes } from 'node:crypto'
import { privateKeyFromSeed, rawPublicKey, signBytes, strictPrecheck, verifyStrict } from '../../src/crypto/ed25519'
import { bytesToHex, hexToBytes } from '../../src/crypto/encoding'
import { verify as nativeVerify } from 'node:crypto'
import { publicKeyObject } from '../../src/crypto/ed25519'

ed.hashes.sha512 = sha512
const hex = (text: string) => hexToBytes(text)!

// RFC 8032 section 7.1, tests 1-3.
const RFC8032 = [
  {
    seed: '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60',
    publicKey: 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a',
    message: '',
    signature: 'e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b',
  },
  {
    seed: '4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb',
    publicKey: '3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c',
    message: '72',
    signature: '92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00',
  },
  {
    seed: 'c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7',
    publicKey: 'fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025',
    message: 'af82',
    signature: '6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a',
  },
]

const L = (1n << 252n) + 27742317777372353535851937790883648493n
const P = (1n << 255n) - 19n
function leBytes(value: bigint, length = 32): Uint8Array {
  const out = new Uint8Array(length)
  for (let i = 0; i < length; i++) {
    out[i] = Number(value & 0xffn)
    value >>= 8n
  }
  return out
}
function leValue(bytes: Uint8Array): bigint {
  let value = 0n
  for (let i = bytes.length - 1; i >= 0; i--) value = (value << 8n) | BigInt(bytes[i]!)
  return value
}

describe('RFC 8032 test vectors through both implementations', () => {
  for (const [index, vector] of RFC8032.entries()) {
    test(`test ${index + 1}`, () => {
      const key = privateKeyFromSeed(hex(vector.seed))
      expect(bytesToHex(rawPublicKey(key))).toBe(vector.publicKey)
      expect(bytesToHex(ed.getPublicKey(hex(vector.seed)))).toBe(vector.publicKey)
      const message = hex(vector.message)
      expect(bytesToHex(signBytes(key, message))).toBe(vector.signature)
      expect(bytesToHex(ed.sign(message, hex(vector.seed)))).toBe(vector.signature)
      expect(verifyStrict(hex(vector.publicKey), message, hex(vector.signature))).toBe(true)
      expect(ed.verify(hex(vector.signature), message, hex(vector.publicKey), { zip215: false })).toBe(true)
    })
  }

  test('native and noble signatures are byte-identical for random keys and messages', () => {
    for (let i = 0; i < 20; i++) {
      const seed = new Uint8Array(randomBytes(32))
      const message = new Uint8Array(randomBytes(i * 7))
      expect(bytesToHex(signBytes(privateKeyFromSeed(seed), message))).toBe(bytesToHex(ed.sign(message, seed)))
    }
  })
})

describe('strict verification', () => {
  const vector = RFC8032[1]!
  const publicKey = hex(vector.publicKey)
  const message = hex(vector.message)
  const signature = hex(vector.signature)

  test('accepts the valid signature and rejects a changed message', () => {
    expect(verifyStrict(publicKey, message, signature)).toBe(true)
    expect(verifyStrict(publicKey, hex('73'), signature)).toBe(false)
  })

  test('rejects S + L (malleated signature)', () => {
    const malleated = Uint8Array.from(signature)
    malleated.set(leBytes(leValue(signature.subarray(32)) + L), 32)
    expect(strictPrecheck(publicKey, malleated)).toBe('non_canonical_s')
    expect(verifyStrict(publicKey, message, malleated)).toBe(false)
  })

  test('S = L - 1 passes the precheck; S = L does not', () => {
    const edge = Uint8Array.from(signature)
    edge.set(leBytes(L - 1n), 32)
    expect(strictPrecheck(publicKey, edge)).toBeNull()
    edge.set(leBytes(L), 32)
    expect(strictPrecheck(publicKey, edge)).toBe('non_canonical_s')
  })

  test('y = p - 1 is canonical (and small order); y = p is not canonical', () => {
    const almost = leBytes(P - 1n)
    expect(strictPrecheck(almost, signature)).toBe('small_order_a')
    expect(strictPrecheck(leBytes(P), signature)).toBe('non_canonical_a')
  })

  test('rejects a non-canonical R (y >= p)', () => {
    const tampered = Uint8Array.from(signature)
    tampered.set(leBytes(P + 1n), 0)
    expect(strictPrecheck(publicKey, tampered)).toBe('non_canonical_r')
    expect(verifyStrict(publicKey, message, tampered)).toBe(false)
  })

  test('rejects a non-canonical A (y >= p)', () => {
    expect(strictPrecheck(leBytes(P + 3n), signature)).toBe('non_canonical_a')
  })

  test('rejects the small-order forgery that the native verifier accepts', () => {
    const identity = hex('0100000000000000000000000000000000000000000000000000000000000000')
    const forged = new Uint8Array(64)
    forged.set(identity, 0) // R = identity, S = 0
    const anyMessage = new TextEncoder().encode('{"status":"OPEN"}')
    // The reason the prechecks exist: the runtime's own verify says yes.
    expect(nativeVerify(null, anyMessage, publicKeyObject(identity), forged)).toBe(true)
    expect(strictPrecheck(identity, forged)).toBe('small_order_a')
    expect(verifyStrict(identity, anyMessage, forged)).toBe(false)
  })

  test('rejects a small-order R with a valid key', () => {
    const tampered = Uint8Array.from(signature)
    tampered.set(hex('c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a'), 0)
    expect(strictPrecheck(publicKey, tampered)).toBe('small_order_r')
  })

  test('every blocked encoding is a small-order point (checked with noble), sign bit either way', () => {
    const ys = [1n, P - 1n, 0n, leValue(hex('26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05')), leValue(hex('c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a'))]
    let checked = 0
    for (const y of ys) {
      for (const signBit of [0, 0x80]) {
        const encoding = leBytes(y)
        encoding[31]! |= signBit
        let point
        try {
          point = ed.Point.fromBytes(encoding, true)
        } catch {
          continue // x = 0 with the sign bit set does not decode; still refused by the precheck
        }
        expect(point.isSmallOrder()).toBe(true)
        expect(strictPrecheck(encoding, signature)).toBe('small_order_a')
        checked++
      }
    }
    expect(checked).toBeGreaterThanOrEqual(6)
  })

  test('a random valid key is not flagged', () => {
    for (let i = 0; i < 50; i++) {
      const seed = new Uint8Array(randomBytes(32))
      const key = privateKeyFromSeed(seed)
      const sig = signBytes(key, message)
      expect(strictPrecheck(rawPublicKey(key), sig)).toBeNull()
    }
  })
})
