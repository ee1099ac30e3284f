// Receipt identity and lifetime; the signed field lists themselves are in signed-fields.ts
// (re-exported here for the modules that import them from this file).
import { randomUUID } from 'node:crypto'

export { OPTIONAL_SIGNED_FIELDS, RECEIPT_SCHEMA_VERSION, RECEIPT_TTL_SECONDS, SIGNED_FIELDS, type SignedFieldList } from './signed-fields'
import { RECEIPT_TTL_SECONDS } from './signed-fields'

/** Identity and lifetime shared by every receipt: a UUID v4 and a 60-second window. */
export function receiptWindow(nowMs: number, receiptId: string = randomUUID()): { receipt_id: string; issued_at: string; expires_at: string } {
  return {
    receipt_id: receiptId,
    issued_at: new Date(nowMs).toISOString(),
    expires_at: new Date(nowMs + RECEIPT_TTL_SECONDS * 1000).toISOString(),
  }
}
