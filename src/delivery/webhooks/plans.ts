// Webhook subscriptions per key, by plan (spec 8): builder 5, pro 25; other plans cannot subscribe.
import type { Plan } from '../../catalogue/plans'

export const WEBHOOK_LIMITS: Partial<Record<Plan, number>> = { builder: 5, pro: 25 }
