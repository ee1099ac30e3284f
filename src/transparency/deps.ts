// What the transparency log's routes take (types only: a full set of the app's dependencies
// satisfies it).
import type { AuditLog } from '../audit/log'
import type { AuditTrail } from '../audit/trail'
import type { TransparencyLog } from './services'

/** The log's surfaces (routes/): checkpoint and tiles, and the proofs that locate a receipt through the audit trail. */
export interface TransparencyDeps {
  /** The tiled transparency log of every live receipt: keys, read path, integrator job. */
  transparency: TransparencyLog
  audit: AuditLog
  auditTrail: AuditTrail
}
