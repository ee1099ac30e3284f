// The receipt builder writes its canonical payload directly (members in sorted order): the bytes
// it signs must be exactly canonicalPayload of the receipt's signed fields, for every kind of value.
import { describe, expect, test } from 'bun:test'
import { signMarketReceipt } from '../../src/market/receipt'
import type { Resolution } from '../../src/market/resolve'
import { canonicalPayload } from '../../src/crypto/canonical'
import { SIGNED_FIELDS } from '../../src/crypto/receipt-fields'
import { verifyStrict } from '../../src/crypto/ed25519'
import { hexToBytes, utf8 } from '../../src/crypto/encoding'
import { Signer } from '../../src/crypto/signer'
import { testSigner } from '../helpers/app'

const NOW = Date.parse('2026-03-10T15:00:00.000Z')
const signer = testSigner()

function signedBytesVerify(receipt: Record<string, string>, fields: readonly string[]): boolean {
  const signed: Record<string, string> = {}
  for (const name of fields) signed[name] = receipt[name]!
  return verifyStrict(signer.key!.publicKey, utf8(canonicalPayload(signed)), hexToBytes(receipt.signature!)!)
}

describe('signMarketReceipt', () => {
  const awkward = ['plain', 'quote " and backslash \\', 'newline\nand tab\t', 'é ✓ 𝄞', '\u0000\u001f', '\u2028\u2029', '\ud800 lone surrogate', '']
  test.each(awkward)('a schedule receipt signs exactly receipt_fields (issuer %j)', (issuer) => {
    const resolution: Resolution = { mic: 'XNYS', status: 'OPEN', source: 'SCHEDULE', reason: 'not signed', haltDetection: 'active' }
    const receipt = signMarketReceipt(signer, issuer, resolution, 'live', NOW) as unknown as Record<string, string>
    expect(Object.keys(receipt)).toEqual(['receipt_id', 'issued_at', 'expires_at', 'issuer', 'mic', 'status', 'source', 'halt_detection', 'receipt_mode', 'schema_version', 'public_key_id', 'signature'])
    expect(receipt.issuer).toBe(issuer)
    expect(signedBytesVerify(receipt, SIGNED_FIELDS.receipt_fields)).toBe(true)
  })

  test.each(awkward)('an override receipt signs exactly override_fields, reason included (reason %j)', (reason) => {
    const resolution: Resolution = { mic: 'XLON', status: 'CLOSED', source: 'OVERRIDE', reason, haltDetection: 'schedule_only' }
    const receipt = signMarketReceipt(signer, 'issuer.test', resolution, 'demo', NOW, '00000000-0000-4000-8000-000000000001') as unknown as Record<string, string>
    expect(Object.keys(receipt)).toEqual(['receipt_id', 'issued_at', 'expires_at', 'issuer', 'mic', 'status', 'source', 'halt_detection', 'receipt_mode', 'schema_version', 'public_key_id', 'reason', 'signature'])
    expect([receipt.reason, receipt.receipt_id, receipt.receipt_mode]).toEqual([reason, '00000000-0000-4000-8000-000000000001', 'demo'])
    expect(signedBytesVerify(receipt, SIGNED_FIELDS.override_fields)).toBe(true)
    // A reason left out of the signed text would verify against receipt_fields instead.
    expect(signedBytesVerify(receipt, SIGNED_FIELDS.receipt_fields)).toBe(false)
  })

  test('a value that is not a string fails instead of dropping out of the signed text', () => {
    const resolution = { mic: 'XNYS', status: 'HALTED', source: 'REALTIME', reason: undefined, haltDetection: 'active' } as unknown as Resolution
    expect(() => signMarketReceipt(signer, 'issuer.test', resolution, 'live', NOW)).toThrow(TypeError)
  })

  test('an offline signer throws', () => {
    const resolution: Resolution = { mic: 'XNYS', status: 'OPEN', source: 'SCHEDULE', reason: '', haltDetection: 'active' }
    expect(() => signMarketReceipt(Signer.offline('no key'), 'issuer.test', resolution, 'live', NOW)).toThrow()
  })
})
