// What the market domain's functions take, built up from resolution (MarketDeps, resolve.ts):
// issuing receipts, admitting a paid request, and the routes (types only: a full set of the app's
// dependencies satisfies each).
import type { Config } from '../config'
import type { Clock } from '../clock'
import type { Signer } from '../crypto/signer'
import type { RateLimiter } from '../http/rate-limit'
import type { AuditLog } from '../audit/log'
import type { KeyCheckDeps, MeterDeps } from '../accounts/deps'
import type { PaymentDeps } from '../payments/service'
import type { MarketDeps } from './resolve'
import type { TransparencyLog } from '../transparency/services'

/** Resolving, signing and (live receipts) logging a receipt (issue.ts). */
export interface IssueDeps extends MarketDeps {
  config: Config
  clock: Clock
  signer: Signer
  /** The durable receipt log (group commit): a live receipt is answered only after its row is committed. */
  audit: AuditLog
}

/** Admitting a paid request (access.ts, head.ts): a metered key, or an x402 payment claimed. */
export interface AccessDeps extends KeyCheckDeps, MeterDeps, PaymentDeps {
  signer: Signer
}

/** The market surfaces (routes/): receipts, batch, safe-to-trade, verify, vectors and card, overrides. */
export interface MarketRouteDeps extends IssueDeps, AccessDeps {
  /** Per-address limiter of the public safe-to-trade sample door (SAMPLE_DOOR_PER_MINUTE). */
  sampleDoorLimiter: RateLimiter
  /** /v5/verify checks a receipt's tlog-proof under the log's published policy. */
  transparency: TransparencyLog
}
