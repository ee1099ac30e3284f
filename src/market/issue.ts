// Issuing market-state receipts: resolve, sign, and queue the audit record of live receipts.
import type { AppDeps } from '../deps'
import type { CalendarSnapshot } from '../calendar/registry'
import type { Mic } from '../calendar/mics'
import { criticalFailure } from '../http/errors'
import { sha256Hex } from '../crypto/hash'
import { resolveStatus, type Resolution } from './resolve'
import { signMarketReceipt, type MarketReceipt, type ReceiptMode } from './receipt'

const keyHashes = new WeakMap<object, string>()

/** SHA-256 of the signing public key, recorded with each audited receipt. */
function keyHash(deps: Pick<AppDeps, 'signer'>): string {
  const key = deps.signer.key
  if (!key) return ''
  let hash = keyHashes.get(key)
  if (!hash) {
    hash = sha256Hex(key.publicKey)
    keyHashes.set(key, hash)
  }
  return hash
}

/** Signs a resolution; an offline or failing signer becomes the unsigned CRITICAL_FAILURE answer. */
export function signOrFail(deps: AppDeps, resolution: Resolution, mode: ReceiptMode, now: number): MarketReceipt {
  let receipt: MarketReceipt
  try {
    receipt = signMarketReceipt(deps.signer, deps.config.issuer, resolution, mode, now)
  } catch (error) {
    if (deps.signer.online) deps.log.error('signing failed', { mic: resolution.mic, error: (error as Error).message })
    throw criticalFailure()
  }
  if (mode === 'live') deps.audit.enqueue(receipt, keyHash(deps))
  return receipt
}

export async function issueReceipt(deps: AppDeps, mic: Mic, mode: ReceiptMode, snapshot?: CalendarSnapshot): Promise<MarketReceipt> {
  const now = deps.clock.now()
  return signOrFail(deps, await resolveStatus(deps, mic, now, snapshot), mode, now)
}
