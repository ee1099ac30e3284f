// Concurrent /v5/stream connections per API key, by plan (docs/delivery.md lists them).
import type { Plan } from '../../catalogue/plans'

export const STREAM_LIMITS: Record<Plan, number> = {
  free: 1,
  sandbox: 1,
  builder: 25,
  pro: 250,
  evidence_starter: 1,
  evidence: 1,
}

export function streamLimit(plan: Plan): number {
  return STREAM_LIMITS[plan] ?? 1
}
