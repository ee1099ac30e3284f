// The signed liveness probe (spec 2.4): lets a client tell an outage from an UNKNOWN market.
import type { Signer } from '../crypto/signer'
import { receiptWindow } from '../crypto/receipt-fields'

export function healthReceipt(signer: Signer, issuer: string, nowMs: number, supportedMics: readonly string[], receiptId?: string) {
  const signed = signer.signFields({
    ...receiptWindow(nowMs, receiptId),
    issuer,
    public_key_id: signer.keyId,
    source: 'SYSTEM',
    status: 'OK',
  })
  return { ...signed, exchange_count: supportedMics.length, supported_mics: [...supportedMics] }
}
