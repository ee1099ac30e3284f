// C2SP Wycheproof's ML-DSA-44 vectors (vectors/wycheproof/, a subset: its README) on
// @noble/post-quantum, the package's ML-DSA-44: every verify test accepted exactly when valid, and
// every sign-from-seed test's key and signature byte for byte (doc/mldsa.md of Wycheproof says how).
import { ml_dsa44 } from '@noble/post-quantum/ml-dsa.js'
import { mlDsa44Verify, toHex } from '../src/index.js'
import { hexBytes, same, throws, type Case } from './check.js'

interface WycheproofTest {
  tcId: number
  comment: string
  msg?: string
  ctx?: string
  rnd?: string
  mu?: string
  sig: string
  result: 'valid' | 'invalid'
  flags: string[]
}

export function wycheproofCases(wycheproof: { verify: any; signSeed: any }): Case[] {
  const list: Case[] = []
  const add = (name: string, run: () => void) => list.push({ name, run })

  add("C2SP Wycheproof ML-DSA-44 verify vectors and every signature of its sign vectors: @noble/post-quantum (mlDsa44Verify, or with the test's context or mu) accepts exactly the valid ones", () => {
    const { verify, signSeed } = wycheproof
    const results: Record<string, number> = {}
    const checkOne = (publicKeyHex: string, test: WycheproofTest, expected: string) => {
      const [publicKey, message, signature, context] = [hexBytes(publicKeyHex), hexBytes(test.msg ?? ''), hexBytes(test.sig), hexBytes(test.ctx ?? '')]
      let accepted: boolean
      // The NIST rejection-case KATs give only mu (ML-DSA.Verify_internal over it).
      if (test.msg === undefined) accepted = ml_dsa44.internal.verify(signature, hexBytes(test.mu!), publicKey, { externalMu: true })
      else if (!context.length) accepted = mlDsa44Verify(publicKey, message, signature)
      else
        try {
          accepted = ml_dsa44.verify(signature, message, publicKey, { context })
        } catch {
          accepted = false
        }
      same({ tcId: test.tcId, comment: test.comment, accepted }, { tcId: test.tcId, comment: test.comment, accepted: expected === 'valid' }, 'verify')
      results[expected] = (results[expected] ?? 0) + 1
    }
    for (const group of verify.testGroups) for (const test of group.tests as WycheproofTest[]) checkOne(group.publicKey, test, test.result)
    same({ valid: results.valid, invalid: results.invalid }, { valid: 6, invalid: 71 }, 'verify tests run')
    // The sign vectors' signatures are valid signatures of their message and context (doc/mldsa.md: verify what is signed).
    for (const group of signSeed.testGroups) for (const test of group.tests as WycheproofTest[]) if (test.result === 'valid') checkOne(group.publicKey, test, 'valid')
    same({ valid: results.valid, invalid: results.invalid }, { valid: 6 + 54, invalid: 71 }, 'with the sign tests')
  })

  add('C2SP Wycheproof ML-DSA-44 sign-from-seed vectors: @noble/post-quantum makes the published key from each seed and the published signature byte for byte (deterministic, randomized with rnd, external mu); it refuses wrong-length seeds and contexts over 255 bytes', () => {
    let signed = 0
    let refused = 0
    for (const group of wycheproof.signSeed.testGroups) {
      const seed = hexBytes(group.privateSeed)
      if (seed.length !== 32) {
        for (const test of group.tests as WycheproofTest[]) same({ tcId: test.tcId, result: test.result, keygen: throws(() => ml_dsa44.keygen(seed)) }, { tcId: test.tcId, result: 'invalid', keygen: true }, 'a wrong-length seed')
        refused += group.tests.length
        continue
      }
      const { publicKey, secretKey } = ml_dsa44.keygen(seed)
      same(toHex(publicKey), group.publicKey, `the public key of seed ${group.privateSeed}`)
      for (const test of group.tests as WycheproofTest[]) {
        const extraEntropy = test.rnd === undefined ? false : hexBytes(test.rnd)
        const context = hexBytes(test.ctx ?? '')
        const sign = () => (test.msg === undefined ? ml_dsa44.internal.sign(hexBytes(test.mu!), secretKey, { externalMu: true, extraEntropy }) : ml_dsa44.sign(hexBytes(test.msg), secretKey, { extraEntropy, ...(context.length ? { context } : {}) }))
        if (test.result === 'invalid') {
          same({ tcId: test.tcId, refused: throws(sign) }, { tcId: test.tcId, refused: true }, test.comment)
          refused++
          continue
        }
        same({ tcId: test.tcId, signature: toHex(sign()) }, { tcId: test.tcId, signature: test.sig }, test.comment)
        signed++
      }
    }
    same({ signed, refused }, { signed: 54, refused: 4 }, 'sign tests run')
  })
  return list
}
