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

/** Throws when the signer is offline or signing fails; callers answer CRITICAL_FAILURE. */
export function signMarketReceipt(signer: Signer, issuer: string, resolution: Resolution, mode: ReceiptMode, now: number, receiptId?: string): MarketReceipt {
  const fields: Record<string, string> = {
    ...receiptWindow(now, receiptId),
    issuer,
    mic: resolution.mic,
    status: resolution.status,
    source: resolution.source,
    halt_detection: resolution.haltDetection,
    receipt_mode: mode,
    schema_version: RECEIPT_SCHEMA_VERSION,
    public_key_id: signer.keyId,
  }
  if (carriesReason(resolution)) fields.reason = resolution.reason
  return signer.signFields(fields) as unknown as MarketReceipt
}
