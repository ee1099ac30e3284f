// GET /v5/ready: readiness for load balancers and orchestrators (200 ready, 503 not ready), apart
// from /v5/health, which stays the signed liveness receipt it always was (docs/operations.md).
import { Elysia, t } from 'elysia'
import type { ReadinessDeps } from '../readiness'
import { jsonResponse } from '../../http/errors'
import { responses } from '../../http/openapi'
import { readiness } from '../readiness'

const Check = (extra = {}) => t.Object({ ok: t.Boolean(), ...extra })
const ChecksSchema = t.Object({
  storage: Check({ backend: t.Union([t.Literal('sqlite'), t.Literal('postgres')]), status: t.Union([t.Literal('ok'), t.Literal('degraded')]) }),
  audit_log: Check({ status: t.Union([t.Literal('ok'), t.Literal('failing'), t.Literal('stopped')]) }),
  signer: Check(),
  calendars: Check({ loaded: t.Integer(), venues: t.Integer() }),
})

/** Probes ask often, and a cached "ready" would hide the moment a node stops being ready. */
const HEADERS = { 'cache-control': 'no-store' }

export function readyRoutes(deps: ReadinessDeps) {
  return new Elysia({ name: 'discovery-ready' }).get(
    '/v5/ready',
    () => {
      const { ready, failing, checks } = readiness(deps)
      if (ready) return jsonResponse({ status: 'READY', node_id: deps.node.id, checks }, 200, HEADERS)
      const message = `this node cannot answer live requests now (${failing.join(', ')}); send them to another node`
      return jsonResponse({ error: 'NOT_READY', message, node_id: deps.node.id, failing, checks }, 503, { ...HEADERS, 'retry-after': '5' })
    },
    {
      query: t.Object({}),
      detail: {
        tags: ['discovery'],
        summary: 'Readiness: whether this node can answer live requests now (for load balancers)',
        description:
          'Unsigned and cheap. 503 while the database cannot be reached, the audit log refuses rows (a failed write within the last 10 s, or shutting down), the signing key is offline or no calendar is loaded; every live answer of such a node would be a 503 (or an unsigned 500). /v5/health is liveness: it stays 200 while the process runs and can sign.',
        responses: responses({
          200: ['Ready', t.Object({ status: t.Literal('READY'), node_id: t.String(), checks: ChecksSchema })],
          503: ['NOT_READY, with the failing checks (Retry-After: 5)', t.Object({ error: t.Literal('NOT_READY'), message: t.String(), node_id: t.String(), failing: t.Array(t.String()), checks: ChecksSchema })],
        }),
      },
    },
  )
}
