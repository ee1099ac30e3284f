// The audit trail's parts, built once per app: the group-commit log, the day trees (cached
// block roots), the sealing job and the retention job.
import type { Clock } from '../clock'
import type { Logger } from '../log'
import type { Signer } from '../crypto/signer'
import type { AuditLog } from './log'
import { DayTrees } from './day-tree'
import { DigestSealer } from './sealer'
import { RetentionJob } from './retention'

export interface AuditTrail {
  trees: DayTrees
  sealer: DigestSealer
  retention: RetentionJob
}

export function auditTrail(parts: { audit: AuditLog; signer: Signer; issuer: string; clock: Clock; log: Logger; retentionDays: number; logBase?: () => Promise<number>; logOrigin?: string; integratedThrough?: () => Promise<number> }): AuditTrail {
  const trees = new DayTrees(parts.audit.store)
  return {
    trees,
    sealer: new DigestSealer({ ...parts, trees }),
    retention: new RetentionJob({ store: parts.audit.store, clock: parts.clock, log: parts.log, retentionDays: parts.retentionDays, integratedThrough: parts.integratedThrough }),
  }
}
