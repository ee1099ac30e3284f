// What a logged live receipt is: the signed receipt plus where it was answered and who paid.
import type { AuditRow } from './store'

/**
 * How a surface identifies the caller: the API key's SHA-256 (account.key_hash), a payment
 * reference, or, for callers with neither (anonymous tool calls), the surface's own reference.
 */
export interface LiveAuditContext {
  surface: string
  keyHash?: string | null
  paymentRef?: string | null
  clientRef?: string | null
}

/** The fields the log indexes, taken from a market-state receipt or a safe-to-trade receipt. */
export interface LoggableReceipt {
  receipt_id: string
  issued_at: string
  schema_version: string
  mic?: string
  status?: string
  source?: string
  venue?: string
  venue_status?: string
  venue_source?: string
}

export function auditRowOf(receipt: LoggableReceipt, context: LiveAuditContext): AuditRow {
  if (!context.surface) throw new TypeError('audit: a live receipt needs the surface that answered it')
  if (!context.keyHash && !context.paymentRef && !context.clientRef) throw new TypeError('audit: a live receipt needs the key hash, the payment reference or a client reference')
  const mic = receipt.mic ?? receipt.venue
  const status = receipt.status ?? receipt.venue_status
  const source = receipt.source ?? receipt.venue_source
  if (!mic || !status || !source) throw new TypeError('audit: not a market-state or safe-to-trade receipt')
  return {
    receipt_id: receipt.receipt_id,
    day: receipt.issued_at.slice(0, 10),
    mic,
    status,
    source,
    issued_at: receipt.issued_at,
    schema_version: receipt.schema_version,
    surface: context.surface,
    key_hash: context.keyHash ?? null,
    payment_ref: context.paymentRef ?? null,
    client_ref: context.clientRef ?? null,
    receipt_json: JSON.stringify(receipt),
  }
}
