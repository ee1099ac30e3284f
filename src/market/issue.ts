// Issuing market-state receipts: resolve, sign, and (live receipts) log durably before answering.
// Every surface that answers a live receipt calls issueLiveReceipt, signLiveReceipts or
// logLiveReceipts: they resolve only after the audit row is committed and throw a 503
// AUDIT_LOG_UNAVAILABLE ApiError when it cannot be (see docs/architecture.md).
import type { IssueDeps } from './deps'
import type { CalendarSnapshot } from '../calendar/registry'
import type { Mic } from '../calendar/mics'
import { criticalFailure } from '../http/errors'
import { auditRowOf, type LiveAuditContext, type LoggableReceipt } from '../audit/record'
import { resolveStatus, type Resolution } from './resolve'
import type { Access } from './access'
import { signMarketReceipt, type MarketReceipt, type ReceiptMode } from './receipt'

export type { LiveAuditContext } from '../audit/record'

/** The audit context of a request admitted by requireKeyOrPayment: the key's hash or the payment's reference. */
export function auditContextOf(access: Access, surface: string): LiveAuditContext {
  return access.kind === 'key' ? { surface, keyHash: access.account.key_hash } : { surface, paymentRef: access.payment.reference }
}

/** Signs a resolution; an offline or failing signer becomes the unsigned CRITICAL_FAILURE answer. */
function signOrFail(deps: IssueDeps, resolution: Resolution, mode: ReceiptMode, now: number): MarketReceipt {
  try {
    return signMarketReceipt(deps.signer, deps.config.issuer, resolution, mode, now)
  } catch (error) {
    if (deps.signer.online) deps.log.error('signing failed', { mic: resolution.mic, error: (error as Error).message })
    throw criticalFailure()
  }
}

/** Demo receipts are never logged (anyone could grow the store with them). */
export async function issueDemoReceipt(deps: IssueDeps, mic: Mic): Promise<MarketReceipt> {
  const now = deps.clock.now()
  return signOrFail(deps, await resolveStatus(deps, mic, now), 'demo', now)
}

/**
 * Logs already-signed live receipts (market-state or safe-to-trade) in one commit; resolves
 * after the rows are committed. For surfaces that sign their own receipt type.
 */
export function logLiveReceipts(deps: Pick<IssueDeps, 'audit'>, receipts: readonly LoggableReceipt[], context: LiveAuditContext): Promise<void> {
  return deps.audit.append(receipts.map((receipt) => auditRowOf(receipt, context)))
}

/** One live receipt for `mic`, answered only after its audit row is committed. */
export async function issueLiveReceipt(deps: IssueDeps, mic: Mic, context: LiveAuditContext, snapshot?: CalendarSnapshot): Promise<MarketReceipt> {
  const now = deps.clock.now()
  const receipt = signOrFail(deps, await resolveStatus(deps, mic, now, snapshot), 'live', now)
  await logLiveReceipts(deps, [receipt], context)
  return receipt
}

/**
 * issueLiveReceipt for a surface that answers the receipt alone (GET /v5/status): its JSON text,
 * the very bytes the audit row stores, so the receipt is serialised once instead of twice.
 */
export async function issueLiveReceiptJson(deps: IssueDeps, mic: Mic, context: LiveAuditContext): Promise<string> {
  const now = deps.clock.now()
  const row = auditRowOf(signOrFail(deps, await resolveStatus(deps, mic, now), 'live', now), context)
  await deps.audit.append([row])
  return row.receipt_json!
}

/** Several live receipts signed at one instant (the batch surface), logged in one commit. */
export async function signLiveReceipts(deps: IssueDeps, resolutions: readonly Resolution[], now: number, context: LiveAuditContext): Promise<MarketReceipt[]> {
  const receipts = resolutions.map((resolution) => signOrFail(deps, resolution, 'live', now))
  await logLiveReceipts(deps, receipts, context)
  return receipts
}
