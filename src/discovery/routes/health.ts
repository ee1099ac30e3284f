// GET /v5/health: the signed liveness receipt.
import { Elysia, t } from 'elysia'
import type { DiscoveryDeps } from '../deps'
import { criticalFailure } from '../../http/errors'
import { responses } from '../../http/openapi'
import { SUPPORTED_MICS } from '../../calendar/mics'
import { healthReceipt } from '../../market/health-receipt'

const HealthSchema = t.Object(
  {
    receipt_id: t.String({ format: 'uuid' }),
    issued_at: t.String({ format: 'date-time' }),
    expires_at: t.String({ format: 'date-time' }),
    issuer: t.String(),
    status: t.Literal('OK'),
    source: t.Literal('SYSTEM'),
    public_key_id: t.String(),
    signature: t.String({ pattern: '^[0-9a-f]{128}$' }),
    exchange_count: t.Integer(),
    supported_mics: t.Array(t.String()),
  },
  { additionalProperties: true, description: 'signed fields: health_fields of /v5/keys; exchange_count, supported_mics and any warnings are unsigned' },
)

/**
 * A health receipt is re-signed at most once a second (it proves liveness to the second), and
 * the answer, with its unsigned extras, is serialised once per receipt.
 */
const HEALTH_REUSE_MS = 1000

export function healthRoutes(deps: DiscoveryDeps) {
  let cached: { body: string; signedAt: number } | null = null
  return new Elysia({ name: 'discovery-health' }).get(
    '/v5/health',
    () => {
      const now = deps.clock.now()
      if (!cached || now - cached.signedAt >= HEALTH_REUSE_MS || now < cached.signedAt) {
        let receipt
        try {
          receipt = healthReceipt(deps.signer, deps.config.issuer, now, SUPPORTED_MICS)
        } catch {
          cached = null
          throw criticalFailure()
        }
        let extras: Record<string, unknown> = {}
        for (const extra of deps.healthExtras) extras = { ...extras, ...extra() }
        // Extras come first so that no unsigned extra can shadow a signed field.
        cached = { body: JSON.stringify({ ...extras, ...receipt }), signedAt: now }
      }
      return new Response(cached.body, { headers: { 'content-type': 'application/json; charset=utf-8' } })
    },
    {
      detail: {
        tags: ['discovery'],
        summary: 'Signed liveness receipt',
        responses: responses({ 200: ['Health receipt', HealthSchema], 500: 'CRITICAL_FAILURE: signing offline (status UNKNOWN, unsigned)' }),
      },
    },
  )
}
