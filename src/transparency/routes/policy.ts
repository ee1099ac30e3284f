// GET /log/policy: the C2SP tlog-policy to verify this log's tlog-proofs with (its log keys, the
// witnesses it asks, the quorum the operator set), as text.
import { Elysia, t } from 'elysia'
import type { TransparencyDeps } from '../deps'
import { ApiError } from '../../http/errors'
import { responses } from '../../http/openapi'

export function policyRoutes(deps: Pick<TransparencyDeps, 'transparency'>) {
  const { policy } = deps.transparency
  return new Elysia({ name: 'transparency-policy' }).get(
    '/log/policy',
    () => {
      if (policy === null) throw new ApiError(503, 'LOG_KEYS_OFFLINE', 'no signing key is loaded: the log has no keys to publish a policy for', {}, { 'retry-after': '60' })
      return new Response(policy, { headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'public, max-age=300' } })
    },
    {
      detail: {
        tags: ['transparency'],
        summary: 'The tlog-policy (c2sp.org/tlog-policy) of this log: its Ed25519 and ML-DSA-44 log keys, its witnesses and the quorum',
        responses: responses({ 200: ['tlog-policy', t.String(), 'text/plain'], 503: 'LOG_KEYS_OFFLINE' }),
      },
    },
  )
}
