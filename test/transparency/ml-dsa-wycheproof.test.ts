// The service's native ML-DSA-44 (node:crypto, BoringSSL in Bun: src/transparency/ml-dsa.ts)
// against C2SP Wycheproof's vectors (packages/verify/test/vectors/wycheproof, README there): the
// key and the seed-only PKCS#8 from each seed, every verify test it can take (it has no context
// parameter) and every published signature verified natively, and its own signatures over the
// vectors' messages accepted under the published keys by it and by @noble. Its signing is hedged
// (fresh randomness each time, no way to pass rnd), so the exact signature bytes are checked on
// @noble (packages/verify/test/cases.ts); here too should it ever sign deterministically.
import { describe, expect, test } from 'bun:test'
import { createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto'
import { mlDsa44Verify } from '@openbell/verify'
import { mlDsa44KeyFromSeed } from '../../src/transparency/ml-dsa'
import { wycheproofMlDsa44 } from '../helpers/verify-package-vectors'

interface WycheproofTest {
  tcId: number
  comment: string
  msg?: string
  ctx?: string
  rnd?: string
  sig: string
  result: 'valid' | 'invalid'
}
interface WycheproofGroup {
  publicKey: string | null
  publicKeyDer?: string
  privateSeed?: string
  privateKeyPkcs8?: string
  tests: WycheproofTest[]
}

const { verify: verifyVectors, signSeed } = wycheproofMlDsa44() as { verify: { testGroups: WycheproofGroup[] }; signSeed: { testGroups: WycheproofGroup[] } }
const bytes = (hex: string | undefined) => Buffer.from(hex ?? '', 'hex')
/** SubjectPublicKeyInfo of an ML-DSA-44 key (the prefix of ml-dsa.test.ts), for keys the vectors give raw. */
const SPKI_PREFIX = Buffer.from('30820532300b06096086480165030403110382052100', 'hex')

/** The native public key of the group, or null where the runtime refuses the encoding (a wrong-length key). */
function nativePublicKey(group: WycheproofGroup): KeyObject | null {
  try {
    return createPublicKey({ key: group.publicKeyDer ? bytes(group.publicKeyDer) : Buffer.concat([SPKI_PREFIX, bytes(group.publicKey!)]), format: 'der', type: 'spki' })
  } catch {
    return null
  }
}

function nativeVerify(key: KeyObject | null, message: Buffer, signature: Buffer): boolean {
  if (!key) return false
  try {
    return verify(null, message, key, signature)
  } catch {
    return false
  }
}

describe('ML-DSA-44 natively (node:crypto) against C2SP Wycheproof', () => {
  test('verify vectors: the native verifier accepts exactly the valid ones (those without a context: it takes none)', () => {
    const counted = { valid: 0, invalid: 0, withContext: 0 }
    for (const group of verifyVectors.testGroups) {
      const key = nativePublicKey(group)
      for (const t of group.tests) {
        if (t.ctx) {
          counted.withContext++
          continue
        }
        expect({ tcId: t.tcId, comment: t.comment, accepted: nativeVerify(key, bytes(t.msg), bytes(t.sig)) }).toEqual({ tcId: t.tcId, comment: t.comment, accepted: t.result === 'valid' })
        counted[t.result]++
      }
    }
    // The tests with a context (valid and invalid ones) run on @noble only.
    expect(counted).toEqual({ valid: 6, invalid: 66, withContext: 5 })
  })

  test('sign-from-seed vectors: the public key and the seed-only PKCS#8 from each seed are the published ones; wrong-length seeds are refused; every published signature verifies natively', () => {
    let keys = 0
    let pkcs8 = 0
    let refusedSeeds = 0
    let verified = 0
    for (const group of signSeed.testGroups) {
      const seed = bytes(group.privateSeed)
      if (seed.length !== 32) {
        expect(() => mlDsa44KeyFromSeed(seed)).toThrow(RangeError)
        // And the runtime itself refuses the published PKCS#8 of that seed.
        expect(() => createPrivateKey({ key: bytes(group.privateKeyPkcs8), format: 'der', type: 'pkcs8' })).toThrow()
        expect(group.tests.every((t) => t.result === 'invalid')).toBe(true)
        refusedSeeds++
        continue
      }
      const key = mlDsa44KeyFromSeed(seed)
      expect(Buffer.from(key.publicKey).toString('hex')).toBe(group.publicKey!)
      if (group.privateKeyPkcs8) {
        expect(key.privateKey.export({ format: 'der', type: 'pkcs8' }).toString('hex')).toBe(group.privateKeyPkcs8)
        pkcs8++
      }
      keys++
      const publicKey = nativePublicKey(group)
      for (const t of group.tests) {
        if (t.result !== 'valid' || t.msg === undefined || t.ctx) continue
        expect({ tcId: t.tcId, verified: nativeVerify(publicKey, bytes(t.msg), bytes(t.sig)) }).toEqual({ tcId: t.tcId, verified: true })
        verified++
      }
    }
    expect({ keys, pkcs8, refusedSeeds, verified }).toEqual({ keys: 25, pkcs8: 16, refusedSeeds: 3, verified: 43 })
  })

  test("its own signatures over the sign vectors' messages verify under the published keys, natively and with @noble; a changed message does not", () => {
    let signed = 0
    for (const group of signSeed.testGroups) {
      const seed = bytes(group.privateSeed)
      if (seed.length !== 32) continue
      const { privateKey } = mlDsa44KeyFromSeed(seed)
      const publicKey = nativePublicKey(group)
      const raw = bytes(group.publicKey!)
      for (const t of group.tests) {
        if (t.result !== 'valid' || t.msg === undefined || t.ctx) continue
        const message = bytes(t.msg)
        const [first, second] = [sign(null, message, privateKey), sign(null, message, privateKey)]
        // Hedged signing gives a new signature each time; deterministic signing must give the published one (rnd zero).
        if (first.equals(second) && t.rnd === undefined) expect({ tcId: t.tcId, signature: first.toString('hex') }).toEqual({ tcId: t.tcId, signature: t.sig })
        for (const signature of [first, second]) {
          expect({ tcId: t.tcId, native: nativeVerify(publicKey, message, signature), noble: mlDsa44Verify(raw, message, signature) }).toEqual({ tcId: t.tcId, native: true, noble: true })
        }
        const changed = Buffer.concat([message, Buffer.of(0)])
        expect({ tcId: t.tcId, native: nativeVerify(publicKey, changed, first), noble: mlDsa44Verify(raw, changed, first) }).toEqual({ tcId: t.tcId, native: false, noble: false })
        signed++
      }
    }
    expect(signed).toBe(43)
  })
})
