// Building and signing market-state receipts (spec 2.3). The signed field set is exactly
// receipt_fields, or override_fields when a reason is carried (OVERRIDE and REALTIME).
import type { Signer } from '../crypto/signer'
import { RECEIPT_SCHEMA_VERSION, receiptWindow } from '../crypto/receipt-fields'
import type { Resolution } from './resolve'

export type ReceiptMode = 'demo' | 'live'

export interface MarketReceipt {
  receipt_id: string
  issued_at: string
  expires_at: string
  issuer: string
  mic: string
  status: string
  source: string
  reason?: string
  halt_detection: string
  receipt_mode: string
  schema_version: string
  public_key_id: string
  signature: string
}

export function carriesReason(resolution: Pick<Resolution, 'source'>): boolean {
  return resolution.source === 'OVERRIDE' || resolution.source === 'REALTIME'
}

/**
 * Throws when the signer is offline or signing fails; callers answer CRITICAL_FAILURE.
 *
 * The canonical payload is built as one object literal whose members are written in sorted
 * order, so one JSON.stringify gives the signed bytes without sorting and copying the field set
 * on every request (canonicalPayload of the same fields gives identical bytes; a test compares
 * them). Every value is checked to be a string first, as canonicalPayload does: a missing value
 * must fail, never drop out of the signed text.
 */
export function signMarketReceipt(signer: Signer, issuer: string, resolution: Resolution, mode: ReceiptMode, now: number, receiptId?: string): MarketReceipt {
  const { receipt_id, issued_at, expires_at } = receiptWindow(now, receiptId)
  const public_key_id = signer.keyId
  const { mic, status, source, haltDetection: halt_detection } = resolution
  const withReason = carriesReason(resolution)
  const reason = withReason ? resolution.reason : ''
  for (const value of [issuer, mic, status, source, halt_detection, mode, reason]) {
    if (typeof value !== 'string') throw new TypeError('signMarketReceipt: every signed field must be a string')
  }
  const schema_version = RECEIPT_SCHEMA_VERSION
  const receipt_mode = mode
  const canonical = withReason
    ? JSON.stringify({ expires_at, halt_detection, issued_at, issuer, mic, public_key_id, reason, receipt_id, receipt_mode, schema_version, source, status })
    : JSON.stringify({ expires_at, halt_detection, issued_at, issuer, mic, public_key_id, receipt_id, receipt_mode, schema_version, source, status })
  const signature = signer.signText(canonical)
  // Members in the order receipts have always been answered in (reason, when carried, last before the signature).
  return withReason
    ? { receipt_id, issued_at, expires_at, issuer, mic, status, source, halt_detection, receipt_mode, schema_version, public_key_id, reason, signature }
    : { receipt_id, issued_at, expires_at, issuer, mic, status, source, halt_detection, receipt_mode, schema_version, public_key_id, signature }
}
