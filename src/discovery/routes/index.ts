// GET /: a short JSON index pointing at the API reference, health and key discovery.
import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../deps'
import { responses } from '../../http/openapi'

export function indexRoutes(deps: Pick<AppDeps, 'config'>) {
  const base = deps.config.publicBaseUrl
  const body = {
    service: 'openbell',
    description: 'Signed market-state receipts (Ed25519) and a checkpoint witness. UNKNOWN means treat the market as CLOSED.',
    issuer: deps.config.issuer,
    links: {
      docs: `${base}/docs`,
      openapi: `${base}/openapi.json`,
      health: `${base}/v5/health`,
      keys: `${base}/v5/keys`,
      jwks: `${base}/.well-known/jwks.json`,
      exchanges: `${base}/v5/exchanges`,
      witness_spec: `${base}/v1/witness/spec`,
    },
  }
  return new Elysia({ name: 'discovery-index' }).get('/', () => body, {
    detail: { tags: ['discovery'], summary: 'Index of the service: where the docs, health and keys are', responses: responses({ 200: ['Index', t.Object({ service: t.String(), links: t.Record(t.String(), t.String()) }, { additionalProperties: true })] }) },
  })
}
