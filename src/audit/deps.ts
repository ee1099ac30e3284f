// What the audit domain's routes take (types only: a full set of the app's dependencies
// satisfies it).
import type { Clock } from '../clock'
import type { KeyCheckDeps } from '../accounts/deps'
import type { AuditLog } from './log'
import type { AuditTrail } from './trail'

/** The audit surfaces (routes/): archive, receipt listing, digests, chain, proofs; a key for the keyed ones. */
export interface AuditDeps extends KeyCheckDeps {
  clock: Clock
  /** The durable receipt log (group commit); surfaces log through market/issue.ts. */
  audit: AuditLog
  /** Day trees, the sealing job and the retention job of the audit trail. */
  auditTrail: AuditTrail
}
