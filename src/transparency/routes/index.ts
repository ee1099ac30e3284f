// The transparency log's surfaces as one plugin: checkpoint and tiles, then the proofs.
import { Elysia } from 'elysia'
import type { TransparencyDeps } from '../deps'
import { logRoutes } from './log'
import { proofRoutes } from './proofs'
import { receiptProofRoutes } from './receipt-proof'
import { policyRoutes } from './policy'

export function transparencyRoutes(deps: TransparencyDeps) {
  return new Elysia({ name: 'transparency-routes' }).use(logRoutes(deps)).use(proofRoutes(deps)).use(receiptProofRoutes(deps)).use(policyRoutes(deps))
}
