// The audit trail's surfaces as one plugin, so the app composes domains rather than 30 routes
// (and TypeScript's route-type chain stays shallow enough to check).
import { Elysia } from 'elysia'
import type { AuditDeps } from '../deps'
import { archiveRoutes } from './archive'
import { receiptListRoutes } from './receipts'
import { digestRoutes } from './digest'
import { chainRoutes } from './chain'
import { proofRoutes } from './proof'

export function auditRoutes(deps: AuditDeps) {
  return new Elysia({ name: 'audit-routes' })
    .use(archiveRoutes(deps))
    .use(receiptListRoutes(deps))
    .use(digestRoutes(deps))
    .use(chainRoutes(deps))
    .use(proofRoutes(deps))
}
